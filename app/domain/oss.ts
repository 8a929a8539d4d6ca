import type { DestinationRates } from "./eu-vat-rates";
import { BOOK_VAT_BP, type VatRateBp, type VatScheme } from "./vat";

/**
 * EU distance sales (CGI art. 258 A and 259 B; Directive 2006/112 art. 59c): a seller established
 * only in France taxes its sales of goods sent to consumers in another member state in France
 * while their total excluding VAT, over the current calendar year, stays at or under 10,000 € and
 * did so over the previous one. The sale that takes the year past it is taxed in the buyer's
 * country, and so is every later one, that year and the next (Regulation 282/2011 art. 14 read
 * with art. 59c § 2). The seller may also opt for the buyer's country's VAT (art. 59c § 3, at
 * least two calendar years). docs/decisions/046.
 */
export const OSS_THRESHOLD_CENTS = 1_000_000;

/** The year's distance sales excluding VAT, net of refunds, as the dashboard and the switch count them. */
export type OssTotals = { currentYearCents: number; previousYearCents: number };

/**
 * Whether a sale to another member state of `saleExclVatCents` (excluding VAT, as if taxed in
 * France) is taxed in the buyer's country: the previous year past the threshold, this year past
 * it already or by this sale (strictly more than 10,000 €), or the seller's option.
 */
export function taxedAtDestination(totals: OssTotals, saleExclVatCents: number, optedIn: boolean): boolean {
  if (optedIn) return true;
  return totals.previousYearCents > OSS_THRESHOLD_CENTS || totals.currentYearCents + saleExclVatCents > OSS_THRESHOLD_CENTS;
}

/**
 * A line's rate in the buyer's country: books (the French 5,5 %: mangas) at the country's book
 * rate where it has one, everything else at its standard rate. Margin-scheme goods are outside
 * the distance-sales rules (Directive 2006/112 art. 35): they keep the French margin scheme.
 */
export function destinationRateBp(frenchRateBp: VatRateBp, scheme: VatScheme, rates: DestinationRates): VatRateBp {
  if (scheme === "margin") return frenchRateBp;
  return frenchRateBp === BOOK_VAT_BP && rates.bookBp !== null ? rates.bookBp : rates.standardBp;
}

/** Whether an order's delivery country makes it a distance sale within the EU (the shop ships only to the EU). */
export function isOtherMemberState(country: string | null | undefined): country is string {
  return typeof country === "string" && country !== "FR";
}
