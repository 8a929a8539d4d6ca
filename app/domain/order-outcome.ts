import type { RefundReason } from "./catalog-values";
import type { OrderView } from "./order-view";

/**
 * What happened to an order, in the customer's words (issue 50): /merci and the account's order
 * page say it as the e-mail did, and never "confirmée" for an order that is not (a payment
 * refused by a drop's limit, paid too late for stock already gone, cancelled, expired).
 */
export type OrderOutcome = {
  /** success: paid; pending: its payment is on its way; refused: paid, and the money goes back; ended: no payment taken. */
  tone: "success" | "pending" | "refused" | "ended";
  title: string;
  description: string;
};

const REFUSED: Record<RefundReason, { title: string; why: string }> = {
  drop_limit: {
    title: "Limite par client atteinte",
    why: "Les produits de cette sortie sont limités par client, et d'autres commandes livrées à la même adresse en comptent déjà autant que la limite le permet : nous ne pouvons pas honorer cette commande.",
  },
  late_payment: {
    title: "Votre paiement a été remboursé",
    why: "Votre paiement nous est parvenu après la fin du délai de réservation de vos articles, et certains ont été achetés entre-temps : nous ne pouvons pas honorer cette commande.",
  },
  preorder_shortage: {
    title: "Précommande non honorée",
    why: "Le distributeur nous a livré moins d'exemplaires que de précommandes reçues, et votre précommande n'a pas pu être servie : toutes nos excuses.",
  },
  seller_cancel: { title: "Votre commande a été annulée", why: "La boutique a annulé cette commande." },
  withdrawal: { title: "Votre rétractation est remboursée", why: "Vous vous êtes rétracté de cette commande." },
};

export function orderOutcome(order: Pick<OrderView, "status" | "refundReason">): OrderOutcome {
  switch (order.status) {
    case "paid":
    case "shipped":
      return { tone: "success", title: "Commande confirmée", description: "Merci\u00a0! Un e-mail de confirmation vous a été envoyé." };
    case "pending_payment":
      return {
        tone: "pending",
        title: "Commande enregistrée",
        description: "Merci\u00a0! Votre paiement est en cours de confirmation\u00a0: un e-mail vous sera envoyé dès qu'il sera validé.",
      };
    case "refund_pending":
    case "refunded": {
      // Orders refunded before refund_reason existed were all late payments.
      const { title, why } = REFUSED[order.refundReason ?? "late_payment"];
      const money = order.status === "refunded" ? "Votre paiement vous a été intégralement remboursé" : "Votre paiement va vous être intégralement remboursé";
      return { tone: "refused", title, description: `${why} ${money}, sous 5 à 10 jours ouvrés selon votre banque.` };
    }
    case "cancelled":
      return { tone: "ended", title: "Commande annulée", description: "Le paiement n'a pas abouti ou a été abandonné : aucun montant n'a été débité." };
    case "expired":
      return { tone: "ended", title: "Commande expirée", description: "Le délai de paiement est passé : les articles ont été remis en vente et aucun montant n'a été débité." };
  }
}
