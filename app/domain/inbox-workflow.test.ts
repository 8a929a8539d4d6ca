import { describe, expect, it } from "vitest";
import { INBOX_STATUSES } from "./inbox-values";
import { KIND_STATUSES, buttonStatuses, checkTransition, describeEvent, nextStatuses } from "./inbox-workflow";

describe("inbox workflow", () => {
  it("walks a contact message nouveau → lu → traité, and no further", () => {
    expect(nextStatuses("contact", "nouveau")).toEqual(["lu"]);
    expect(nextStatuses("contact", "lu")).toEqual(["traite"]);
    expect(nextStatuses("contact", "traite")).toEqual([]);
  });

  it("walks a buy-back request to an offer, accepted or refused, received, then paid (or a transfer to make first)", () => {
    expect(nextStatuses("rachat", "nouveau")).toEqual(["en_estimation"]);
    expect(nextStatuses("rachat", "en_estimation")).toEqual(["offre_envoyee"]);
    expect(nextStatuses("rachat", "offre_envoyee")).toEqual(["acceptee", "refusee"]);
    expect(nextStatuses("rachat", "acceptee")).toEqual(["recue", "refusee"]);
    expect(nextStatuses("rachat", "recue")).toEqual(["payee", "a_virer", "refusee"]);
    expect(nextStatuses("rachat", "a_virer")).toEqual(["payee"]);
    expect(nextStatuses("rachat", "refusee")).toEqual([]);
    expect(nextStatuses("rachat", "payee")).toEqual([]);
  });

  it("never moves a request to a status of the other kind", () => {
    for (const kind of ["contact", "rachat"] as const) {
      for (const from of INBOX_STATUSES) {
        for (const to of nextStatuses(kind, from)) expect(KIND_STATUSES[kind]).toContain(to);
      }
    }
  });

  it("keeps the steps that need a form out of the plain buttons", () => {
    expect(buttonStatuses("rachat", "en_estimation")).toEqual([]);
    // Accepting is the customer's, on the offer page, with the payment means.
    expect(buttonStatuses("rachat", "offre_envoyee")).toEqual(["refusee"]);
    expect(buttonStatuses("rachat", "acceptee")).toEqual(["refusee"]);
    // Completing writes the register: only the transfer recorded then is paid by a button.
    expect(buttonStatuses("rachat", "recue")).toEqual(["refusee"]);
    expect(buttonStatuses("rachat", "a_virer")).toEqual(["payee"]);
  });

  it("says in French why a move is refused: moved on meanwhile, or not allowed", () => {
    expect(checkTransition("contact", "lu", "lu", "traite")).toEqual({ ok: true });
    expect(checkTransition("contact", "traite", "lu", "traite")).toEqual({
      ok: false,
      status: 409,
      message: "Cette demande est passée au statut « Traité » entre-temps : rechargez la page et vérifiez avant de continuer.",
    });
    expect(checkTransition("rachat", "nouveau", "nouveau", "payee")).toEqual({
      ok: false,
      status: 409,
      message: "Une demande au statut « Nouveau » ne peut pas passer au statut « Payée ».",
    });
    expect(checkTransition("contact", "lu", "lu", "en_estimation").ok).toBe(false);
  });

  it("describes the timeline in French, with the offer's amount", () => {
    expect(describeEvent({ type: "status", fromStatus: "nouveau", toStatus: "lu", amountCents: null })).toBe("Statut : Nouveau → Lu");
    expect(describeEvent({ type: "offer", fromStatus: "en_estimation", toStatus: "offre_envoyee", amountCents: 12050 })).toBe(
      "Offre envoyée par e-mail : 120,50\u00a0€",
    );
    expect(describeEvent({ type: "reply", fromStatus: null, toStatus: null, amountCents: null })).toBe("Réponse envoyée par e-mail");
    expect(describeEvent({ type: "accepted", fromStatus: "offre_envoyee", toStatus: "acceptee", amountCents: 12050 })).toBe("Offre acceptée par le client : 120,50\u00a0€");
    expect(describeEvent({ type: "completed", fromStatus: "recue", toStatus: "payee", amountCents: 13255 })).toBe("Rachat terminé : 132,55\u00a0€");
  });
});
