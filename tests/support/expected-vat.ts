/**
 * The VAT a test expects, worked out by the test itself from prices and rates. Written apart
 * from app/domain/vat.ts and app/domain/vat-allocation.ts, and importing neither: a test that
 * took its expected VAT from the code under test, or from what that code stored, would agree
 * with any mistake of it. Whole numbers only (no float division), so it does not share the
 * code's `Math.round` either.
 *
 * The rule, as French invoices print it (docs/decisions/032):
 * - Prices are TTC, in whole cents; a rate is in basis points (20 % = 2000, 5,5 % = 550).
 * - The VAT inside a TTC amount is TTC × rate / (100 % + rate), rounded to the nearest cent, a
 *   half cent up: 12,00 € at 20 % holds 2,00 €; 10,05 € at 20 % holds 1,675 €, so 1,68 €;
 *   10,00 € at 5,5 % holds 0,5213 €, so 0,52 €.
 * - Each line's VAT (a line: one product, its quantity) is rounded on its own, then the lines
 *   are summed by rate: three lines of 10,03 € at 20 % hold 3 × 1,67 = 5,01 €, where 30,09 € in
 *   one line holds 5,02 €.
 * - Delivery and insurance ("charges") follow the goods (BOFiP TVA-BASE-10-10-10): split over
 *   the rates in proportion to the goods at each rate, in whole cents, the cents left over going
 *   to the largest remainders (a tie to the higher rate); each part's VAT is taken out at its
 *   rate. With no goods at a normal rate, the charges go at 20 %.
 * - Second-hand goods under the margin scheme show no VAT: they are out of the breakdown and of
 *   the charges' split.
 * No discount: a test with a discount code adds its share-out over the lines here first.
 */

/** A line of an order as the test priced it: its TTC total (price × quantity) and its rate. */
export type ExpectedLine = { totalCents: number; rateBp: number; margin?: boolean };
export type ExpectedVatRow = { rateBp: number; baseCents: number; vatCents: number; totalCents: number };

const STANDARD_RATE_BP = 2000;

/** a ÷ b rounded down, for whole a ≥ 0 and b > 0, without a float division. */
const quotient = (a: number, b: number) => (a - (a % b)) / b;
const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

function wholeCents(cents: number): number {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new Error(`expected-vat: ${cents} is not a whole, positive number of cents`);
  return cents;
}

/** The VAT inside `ttcCents` at `rateBp`, to the cent, a half cent up. */
export function vatIncluded(ttcCents: number, rateBp: number): number {
  const divisor = 10_000 + rateBp;
  // round(x) = ⌊x + ½⌋, with x = TTC × rate / divisor: ⌊(2 × TTC × rate + divisor) / (2 × divisor)⌋.
  return quotient(2 * wholeCents(ttcCents) * rateBp + divisor, 2 * divisor);
}

/** `total` in whole cents in proportion to `weights`: the largest remainders get the cents left, ties the first. */
export function splitByLargestRemainder(total: number, weights: readonly number[]): number[] {
  const weightSum = sum(weights);
  if (wholeCents(total) === 0 || weightSum === 0) return weights.map(() => 0);
  const parts = weights.map((weight) => quotient(total * weight, weightSum));
  const remainders = weights.map((weight) => (total * weight) % weightSum);
  const byRemainder = weights.map((_, i) => i).sort((i, j) => remainders[j]! - remainders[i]! || i - j);
  for (const i of byRemainder.slice(0, total - sum(parts))) parts[i]! += 1;
  return parts;
}

/** The VAT breakdown by rate, highest rate first, of goods `lines` and `chargesCents` of delivery and insurance. */
export function expectedVatBreakdown(lines: readonly ExpectedLine[], chargesCents = 0): ExpectedVatRow[] {
  const goods = new Map<number, { totalCents: number; vatCents: number }>();
  for (const line of lines) {
    if (line.margin) continue;
    const row = goods.get(line.rateBp) ?? { totalCents: 0, vatCents: 0 };
    goods.set(line.rateBp, { totalCents: row.totalCents + wholeCents(line.totalCents), vatCents: row.vatCents + vatIncluded(line.totalCents, line.rateBp) });
  }
  const taxed = [...goods.keys()].filter((rate) => goods.get(rate)!.totalCents > 0).sort((a, b) => b - a);
  const chargeRates = taxed.length > 0 ? taxed : [STANDARD_RATE_BP];
  const chargeParts = splitByLargestRemainder(chargesCents, taxed.length > 0 ? taxed.map((rate) => goods.get(rate)!.totalCents) : [1]);
  const rows = new Map<number, ExpectedVatRow>();
  const add = (rateBp: number, totalCents: number, vatCents: number) => {
    const row = rows.get(rateBp) ?? { rateBp, baseCents: 0, vatCents: 0, totalCents: 0 };
    rows.set(rateBp, { rateBp, baseCents: row.baseCents + totalCents - vatCents, vatCents: row.vatCents + vatCents, totalCents: row.totalCents + totalCents });
  };
  for (const [rate, row] of goods) add(rate, row.totalCents, row.vatCents);
  chargeRates.forEach((rate, i) => add(rate, chargeParts[i]!, vatIncluded(chargeParts[i]!, rate)));
  return [...rows.values()].filter((row) => row.totalCents !== 0).sort((a, b) => b.rateBp - a.rateBp);
}

/** The VAT of a breakdown, all rates together. */
export const vatOfBreakdown = (rows: readonly ExpectedVatRow[]) => sum(rows.map((row) => row.vatCents));
