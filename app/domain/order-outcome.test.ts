import { describe, expect, it } from "vitest";
import { ORDER_STATUSES, REFUND_REASONS } from "./catalog-values";
import { orderOutcome } from "./order-outcome";

describe("orderOutcome", () => {
  it("says confirmée for a paid or shipped order only", () => {
    const confirmed = ORDER_STATUSES.filter((status) => orderOutcome({ status, refundReason: null }).title === "Commande confirmée");
    expect(confirmed).toEqual(["paid", "shipped"]);
    for (const status of ORDER_STATUSES) {
      for (const refundReason of REFUND_REASONS) {
        const { title, description } = orderOutcome({ status, refundReason });
        if (status !== "paid" && status !== "shipped") expect(`${title} ${description}`).not.toMatch(/confirm[ée]/i);
      }
    }
  });

  it("tells a payment refused by a drop's limit, as its e-mail does, and whether the money went back yet", () => {
    expect(orderOutcome({ status: "refund_pending", refundReason: "drop_limit" })).toEqual({
      tone: "refused",
      title: "Limite par client atteinte",
      description:
        "Les produits de cette sortie sont limités par client, et d'autres commandes livrées à la même adresse en comptent déjà autant que la limite le permet : nous ne pouvons pas honorer cette commande. Votre paiement va vous être intégralement remboursé, sous 5 à 10 jours ouvrés selon votre banque.",
    });
    expect(orderOutcome({ status: "refunded", refundReason: "drop_limit" }).description).toContain("Votre paiement vous a été intégralement remboursé");
  });

  it("tells a late payment for stock gone, and an old refund without a reason as one", () => {
    for (const refundReason of ["late_payment", null] as const) {
      const outcome = orderOutcome({ status: "refunded", refundReason });
      expect(outcome).toMatchObject({ tone: "refused", title: "Votre paiement a été remboursé" });
      expect(outcome.description).toMatch(/^Votre paiement nous est parvenu après la fin du délai de réservation/);
    }
  });

  it("keeps a pending payment pending, and says no money was taken for a cancelled or expired order", () => {
    expect(orderOutcome({ status: "pending_payment", refundReason: null })).toMatchObject({ tone: "pending", title: "Commande enregistrée" });
    expect(orderOutcome({ status: "cancelled", refundReason: null })).toMatchObject({ tone: "ended", title: "Commande annulée" });
    expect(orderOutcome({ status: "expired", refundReason: null })).toMatchObject({ tone: "ended", title: "Commande expirée" });
    expect(orderOutcome({ status: "expired", refundReason: null }).description).toContain("aucun montant n'a été débité");
  });
});
