import salesTaxRates from "sales-tax/res/sales_tax_rates.json";
import { type VatRateBp } from "./vat";

/**
 * The VAT rates of another EU country, in basis points, at a date: the standard rate from the
 * `sales-tax` package's dated table (pinned in package.json, kept by its maintainers; each change
 * of rate is kept with the instant it took effect), and the reduced rate the country applies to
 * printed books (mangas are books), null where it has none (docs/decisions/046).
 */
export type DestinationRates = { country: string; standardBp: VatRateBp; bookBp: VatRateBp | null };

type RateEntry = { rate: number; before?: Record<string, { rate: number }> };
const TABLE = salesTaxRates as unknown as Record<string, RateEntry | undefined>;

/**
 * Printed books' rate per country (Annex III point 6 of Directive 2006/112): no npm package of
 * EU rates carries rates by category (`vatrates`, `sales-tax` give only the standard and, for the
 * former, undated reduced rates), so this one column is kept here, from the Commission's TEDB
 * (category "Books", checked 2026-11); a country without an entry taxes books at its standard rate.
 */
export const BOOK_RATES_BP: Readonly<Record<string, VatRateBp>> = {
  AT: 1000, BE: 600, BG: 900, CY: 500, CZ: 0, DE: 700, EE: 1300, ES: 400, FI: 1400, GR: 600, HR: 500, HU: 500, IE: 0,
  IT: 400, LT: 900, LU: 300, LV: 500, MT: 500, NL: 900, PL: 500, PT: 600, RO: 1100, SE: 600, SI: 500, SK: 500,
};

/** The rate in force at `at` from a dated entry: `before` maps each change's instant to the rate until then. */
function rateAt(entry: RateEntry, at: Date): number {
  const changes = Object.entries(entry.before ?? {})
    .map(([instant, previous]) => ({ from: new Date(instant).getTime(), previous: previous.rate }))
    .filter((change) => at.getTime() < change.from)
    .sort((a, b) => a.from - b.from);
  return changes[0]?.previous ?? entry.rate;
}

/** The destination's rates at `at`; null for a country the package does not know (none of the EU's). */
export function destinationRates(country: string, at: Date): DestinationRates | null {
  const entry = TABLE[country];
  if (!entry) return null;
  const standardBp = Math.round(rateAt(entry, at) * 10_000);
  const book = BOOK_RATES_BP[country];
  return { country, standardBp, bookBp: book === undefined || book >= standardBp ? null : book };
}
