import { describe, expect, it } from "vitest";
import { INBOX_STATUSES } from "./catalog-values";
import { KIND_STATUSES, buttonStatuses, checkTransition, describeEvent, nextStatuses } from "./inbox-workflow";

describe("inbox workflow", () => {
  it("walks a contact message nouveau → lu → traité, and no further", () => {
    expect(nextStatuses("contact", "nouveau")).toEqual(["lu"]);
    expect(nextStatuses("contact", "lu")).toEqual(["traite"]);
    expect(nextStatuses("contact", "traite")).toEqual([]);
  });

  it("walks a buy-back request to an offer, then accepted or refused, then paid", () => {
    expect(nextStatuses("rachat", "nouveau")).toEqual(["en_estimation"]);
    expect(nextStatuses("rachat", "en_estimation")).toEqual(["offre_envoyee"]);
    expect(nextStatuses("rachat", "offre_envoyee")).toEqual(["acceptee", "refusee"]);
    expect(nextStatuses("rachat", "acceptee")).toEqual(["payee"]);
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

  it("keeps the offer out of the plain buttons: it needs an amount", () => {
    expect(buttonStatuses("rachat", "en_estimation")).toEqual([]);
    expect(buttonStatuses("rachat", "offre_envoyee")).toEqual(["acceptee", "refusee"]);
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
  });
});
