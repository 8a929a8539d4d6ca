import { CONDITION_LABELS, type Condition } from "./catalog-values";

/**
 * A buy-back offer made of lines (issue 54, point 1): what the seller offers for each item, the
 * store-credit bonus, and what the customer answers on the offer page (payment means, IBAN).
 */

export type OfferLine = { description: string; condition: Condition; quantity: number; unitPriceCents: number };

export const OFFER_LINES_MAX = 50;
export const OFFER_LINE_MAX_CENTS = 100_000_00;
/** How long the customer's link to an offer is valid. */
export const OFFER_LINK_DAYS = 14;
export const BONUS_PERCENT_DEFAULT = 10;
export const BONUS_PERCENT_MAX = 100;

export const PAYMENT_MEANS = ["credit", "transfer"] as const;
export type PaymentMeans = (typeof PAYMENT_MEANS)[number];
export const PAYMENT_MEANS_LABELS: Record<PaymentMeans, string> = { credit: "Avoir en boutique", transfer: "Virement bancaire" };

export function lineTotalCents(line: Pick<OfferLine, "quantity" | "unitPriceCents">): number {
  return line.quantity * line.unitPriceCents;
}

export function offerTotalCents(lines: readonly OfferLine[]): number {
  return lines.reduce((sum, line) => sum + lineTotalCents(line), 0);
}

/** The bonus on a credit payment, rounded down to the cent (never more than announced). */
export function creditBonusCents(totalCents: number, bonusPercent: number): number {
  return Math.floor((totalCents * bonusPercent) / 100);
}

/** What the customer receives for each payment means. */
export function offerPayouts(lines: readonly OfferLine[], bonusPercent: number): Record<PaymentMeans, number> {
  const total = offerTotalCents(lines);
  return { transfer: total, credit: total + creditBonusCents(total, bonusPercent) };
}

export function conditionLabel(condition: Condition): string {
  return CONDITION_LABELS[condition];
}

export const ID_DOCUMENT_TYPES = ["cni", "passeport", "titre_sejour", "permis"] as const;
export const ID_DOCUMENT_LABELS: Record<(typeof ID_DOCUMENT_TYPES)[number], string> = {
  cni: "Carte nationale d'identité",
  passeport: "Passeport",
  titre_sejour: "Titre de séjour",
  permis: "Permis de conduire",
};
