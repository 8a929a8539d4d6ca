import { type EmailContent, type MailShop, button, greeting, layout, note, paragraph } from "./email-templates";
import { formatEuros } from "./money";
import { formatParisDate } from "./paris-time";
import { creditValidityText } from "./store-credit";

/**
 * The e-mail announcing a store credit (a goodwill gesture, a buy-back, a refund as credit): its
 * amount, why, the balance, and its validity as the CGV state it (decision 055).
 */
export function storeCreditGrantedEmail(input: {
  shop: MailShop;
  name: string;
  amountCents: number;
  reason: string;
  balanceCents: number;
  expiresAt: Date | null;
}): EmailContent {
  const amount = formatEuros(input.amountCents);
  return layout(input.shop, {
    subject: `Un avoir de ${amount} vous attend – ${input.shop.name}`,
    preheader: `Solde de votre avoir : ${formatEuros(input.balanceCents)}.`,
    heading: `Avoir de ${amount}`,
    parts: [
      greeting(input.name),
      paragraph(`Nous avons crédité votre avoir de ${amount} (${input.reason}). Son solde est maintenant de ${formatEuros(input.balanceCents)}.`),
      paragraph("Il se dépense sur la boutique : connectez-vous avec cette adresse e-mail, puis choisissez « Utiliser mon avoir » dans votre panier ; le reste éventuel se paie par carte."),
      note(creditValidityText(input.expiresAt, formatParisDate)),
      button("Voir mon avoir", `${input.shop.publicUrl}/account`),
    ],
  });
}
