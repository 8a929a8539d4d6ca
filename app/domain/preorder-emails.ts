import { type EmailContent, type MailShop, button, contactWay, greeting, layout, note, paragraph } from "./email-templates";
import { sectionTitle } from "./order-emails";
import { formatCalendarDate } from "./calendar-date";
import { formatParisDate } from "./paris-time";
import type { PreorderDates } from "./preorder-dates";

/**
 * The pre-order e-mails of decision 062: the release (or delivery) date moved, with the link that
 * cancels the pre-order and refunds it at once (no account needed). Pure functions.
 */

/** What changed, in the buyer's words: the release, the delivery, or both. */
export function preorderDateChangeSentence(productName: string, before: PreorderDates, after: PreorderDates): string {
  const changes: string[] = [];
  if (before.releaseOn !== after.releaseOn) changes.push(`sa sortie passe du ${formatCalendarDate(before.releaseOn)} au ${formatCalendarDate(after.releaseOn)}`);
  if (before.estimatedDeliveryOn !== after.estimatedDeliveryOn)
    changes.push(`sa date de livraison estimée passe du ${formatCalendarDate(before.estimatedDeliveryOn)} au ${formatCalendarDate(after.estimatedDeliveryOn)}`);
  return `« ${productName} » change de date : ${changes.join(", et ")}.`;
}

export function preorderDateChangeEmail({
  shop,
  customerName,
  orderNumber,
  productName,
  before,
  after,
  cancelUrl,
  linkExpiresAt,
}: {
  shop: MailShop;
  customerName: string | null;
  orderNumber: string;
  productName: string;
  before: PreorderDates;
  after: PreorderDates;
  cancelUrl: string;
  linkExpiresAt: Date;
}): EmailContent {
  return layout(shop, {
    subject: `Précommande ${orderNumber} : nouvelle date pour « ${productName} » – ${shop.name}`,
    preheader: `Nouvelle date de livraison estimée : ${formatCalendarDate(after.estimatedDeliveryOn)}.`,
    heading: "Votre précommande change de date",
    parts: [
      greeting(customerName ?? ""),
      paragraph(preorderDateChangeSentence(productName, before, after)),
      sectionTitle("Les nouvelles dates"),
      paragraph(`Sortie le ${formatCalendarDate(after.releaseOn)}, date de livraison estimée : ${formatCalendarDate(after.estimatedDeliveryOn)}.`),
      paragraph(
        `Vous pouvez garder votre précommande ${orderNumber} : vous n'avez rien à faire. Si ces dates ne vous conviennent plus, vous pouvez l'annuler : le prix des articles précommandés vous est remboursé aussitôt, avec une facture d'avoir.`,
      ),
      button("Annuler ma précommande et être remboursé", cancelUrl),
      note(
        `Ce lien est valable jusqu'au ${formatParisDate(linkExpiresAt)}. Vous pouvez aussi annuler depuis la page de la commande dans votre compte, jusqu'à la sortie. Une question ? Écrivez-nous ${contactWay(shop)} en rappelant le numéro de commande ${orderNumber}.`,
      ),
    ],
  });
}

/** To the buyer: their pre-order is cancelled, the refund is on its way (its own e-mail follows with the credit note). */
export const PREORDER_CANCELLED_TEXT = "Votre précommande est annulée : le prix des articles précommandés vous est remboursé. Vous recevez un e-mail de remboursement avec sa facture d'avoir.";
