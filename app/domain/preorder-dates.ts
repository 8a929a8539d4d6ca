import { formatCalendarDate } from "./calendar-date";

/** A pre-order's two Paris calendar days ("2026-12-12"), as the product shows them. */
export type PreorderDates = { releaseOn: string; estimatedDeliveryOn: string };

/**
 * What every step of the purchase says of a pre-order line (issue 55): the cart, the payment
 * page, the confirmation e-mail, the order page and the invoice repeat the product page's words,
 * so that the date the buyer agreed to (L216-1) reads the same everywhere.
 */
export function preorderDatesText(dates: PreorderDates): string {
  return `Précommande : sortie le ${formatCalendarDate(dates.releaseOn)}, date de livraison estimée : ${formatCalendarDate(dates.estimatedDeliveryOn)}`;
}

/** The dates recorded on an order line, when it is a pre-order's (both or nothing). */
export function preorderDatesOfLine(line: { preorderReleaseOn: string | null; preorderDeliveryOn: string | null }): PreorderDates | null {
  return line.preorderReleaseOn && line.preorderDeliveryOn ? { releaseOn: line.preorderReleaseOn, estimatedDeliveryOn: line.preorderDeliveryOn } : null;
}

/** The text under an order line's name: its pre-order dates, or nothing. */
export function preorderLineNote(line: { preorderReleaseOn: string | null; preorderDeliveryOn: string | null }): string | null {
  const dates = preorderDatesOfLine(line);
  return dates ? preorderDatesText(dates) : null;
}
