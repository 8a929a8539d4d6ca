import { z } from "zod";

/**
 * The e-mails a customer may get, as /account/notifications lists them (issue 56, point 4).
 * Order and account e-mails answer something the customer did or bought: always sent, never
 * switchable. The others are each one switch, off for an address once refused.
 */
export const ALWAYS_SENT_EMAILS = [
  { title: "Commandes", description: "Confirmation, expédition, remboursement, rétractation, facture : toujours envoyés, ils concernent un achat." },
  { title: "Compte et demandes", description: "Confirmation d'adresse, mot de passe, réponses à vos demandes de contact ou de rachat, avoir : toujours envoyés." },
] as const;

export const OPTIONAL_EMAIL_KINDS = ["stock-alerts"] as const;
export type OptionalEmailKind = (typeof OPTIONAL_EMAIL_KINDS)[number];

/** `what`: the kind inside a sentence ("Ne plus recevoir {what} ?"). */
export const OPTIONAL_EMAILS: Record<OptionalEmailKind, { title: string; what: string; description: string; unsubscribed: string }> = {
  "stock-alerts": {
    title: "Alertes « Prévenez-moi »",
    what: "les alertes « Prévenez-moi »",
    description: "Un e-mail quand un produit que vous attendez (« Prévenez-moi », ou dans votre liste avec ses alertes) est mis en vente, revient en stock ou atteint votre prix. Confirmer une nouvelle alerte les réactive.",
    unsubscribed: "Vous ne recevrez plus d'alertes « Prévenez-moi » à cette adresse.",
  },
};

export type EmailChoices = Record<OptionalEmailKind, boolean>;

const choice = z.literal("on", { message: "Choix invalide" }).optional().transform((value) => value === "on");

/** The form of /account/notifications and its action: a ticked switch posts "on", an unticked one nothing. */
export const emailChoicesSchema = z.object({ "stock-alerts": choice } satisfies Record<OptionalEmailKind, typeof choice>);

/** The address an opt-out is kept under: the one typed for an alert, or the account's. */
export function emailChoiceKey(email: string): string {
  return email.trim().toLowerCase();
}

/** What RFC 8058 asks on a one-click e-mail: the HTTPS link, and the POST body a mail client sends to it. */
export const ONE_CLICK_POST_BODY = "List-Unsubscribe=One-Click";

export function oneClickUnsubscribeHeaders(unsubscribeUrl: string): Record<string, string> {
  return { "List-Unsubscribe": `<${unsubscribeUrl}>`, "List-Unsubscribe-Post": ONE_CLICK_POST_BODY };
}
