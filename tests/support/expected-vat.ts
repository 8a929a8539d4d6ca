/**
 * The VAT a test expects, worked out by the test itself from prices and rates. Written apart
 * from app/domain/vat.ts and app/domain/vat-allocation.ts, and importing neither: a test that
 * took its expected VAT from the code under test, or from what that code stored, would agree
 * with any mistake of it. Whole numbers only (no float division), so it does not share the
 * code's `Math.round` either.
 *
 * The rule, as French invoices print it (docs/decisions/032; CGI annexe II art. 242 nonies A:
 * the VAT "par taux d'imposition"):
 * - Prices are TTC, in whole cents; a rate is in basis points (20 % = 2000, 5,5 % = 550).
 * - Delivery and insurance ("charges") follow the goods (BOFiP TVA-BASE-10-10-10): split over
 *   the rates in proportion to the goods at each rate, in whole cents, the cents left over going
 *   to the largest remainders (a tie to the higher rate). With no goods at a normal rate, the
 *   charges go at 20 %.
 * - Each rate's TTC total (its goods and its part of the charges) gives its base, TTC / (100 % +
 *   rate) rounded to the nearest cent, a half cent up, and its VAT, TTC − base: 12,00 € at 20 %
 *   is 10,00 € + 2,00 €; 10,05 € at 20 % is 8,375 €, so 8,38 € + 1,67 €; three lines of 10,03 €
 *   at 20 % are one total of 30,09 €: 25,075 €, so 25,08 € + 5,01 €. Never the VAT of each line
 *   rounded and summed.
 * - A line's VAT is its part of its rate's: the rate's base is spread over the rate's lines, then
 *   its part of the charges, in proportion to their TTC amounts (largest remainder, a tie to the
 *   first); the line's VAT is its TTC amount less its part of the base.
 * - Second-hand goods under the margin scheme show no VAT: they are out of the breakdown and of
 *   the charges' split.
 * No discount: a test with a discount code adds its share-out over the lines here first.
 */

/** A line of an order as the test priced it: its TTC total (price × quantity, less any discount) and its rate. */
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

/** The base before VAT of `ttcCents` at `rateBp`, to the cent, a half cent up. */
export function baseIncluded(ttcCents: number, rateBp: number): number {
  const divisor = 10_000 + rateBp;
  // round(x) = ⌊x + ½⌋, with x = TTC × 100 % / divisor: ⌊(2 × TTC × 10 000 + divisor) / (2 × divisor)⌋.
  return quotient(2 * wholeCents(ttcCents) * 10_000 + divisor, 2 * divisor);
}

/** The VAT inside one TTC total at `rateBp`: the total less its base. */
export const vatIncluded = (ttcCents: number, rateBp: number) => ttcCents - baseIncluded(ttcCents, rateBp);

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

/**
 * The VAT by rate, highest rate first, of goods `lines` and `chargesCents` of delivery and
 * insurance, and each line's VAT (0 for a margin-scheme line).
 */
export function expectedVat(lines: readonly ExpectedLine[], chargesCents = 0): { rows: ExpectedVatRow[]; lineVatCents: number[] } {
  const goods = new Map<number, number>();
  for (const line of lines) if (!line.margin) goods.set(line.rateBp, (goods.get(line.rateBp) ?? 0) + wholeCents(line.totalCents));
  const taxed = [...goods.keys()].filter((rate) => goods.get(rate)! > 0).sort((a, b) => b - a);
  const chargeRates = taxed.length > 0 ? taxed : [STANDARD_RATE_BP];
  const chargeParts = splitByLargestRemainder(chargesCents, taxed.length > 0 ? taxed.map((rate) => goods.get(rate)!) : [1]);
  const chargesAt = (rate: number) => (chargeRates.includes(rate) ? chargeParts[chargeRates.indexOf(rate)]! : 0);
  const rates = [...new Set([...goods.keys(), ...chargeRates])].sort((a, b) => b - a);

  const lineVatCents = lines.map(() => 0);
  const rows: ExpectedVatRow[] = [];
  for (const rate of rates) {
    const totalCents = (goods.get(rate) ?? 0) + chargesAt(rate);
    if (totalCents === 0) continue;
    const baseCents = baseIncluded(totalCents, rate);
    rows.push({ rateBp: rate, baseCents, vatCents: totalCents - baseCents, totalCents });
    const at = lines.flatMap((line, i) => (!line.margin && line.rateBp === rate ? [i] : []));
    const bases = splitByLargestRemainder(baseCents, [...at.map((i) => lines[i]!.totalCents), chargesAt(rate)]);
    at.forEach((i, k) => (lineVatCents[i] = lines[i]!.totalCents - bases[k]!));
  }
  return { rows, lineVatCents };
}

/** The VAT breakdown by rate, highest rate first, of goods `lines` and `chargesCents` of delivery and insurance. */
export const expectedVatBreakdown = (lines: readonly ExpectedLine[], chargesCents = 0): ExpectedVatRow[] => expectedVat(lines, chargesCents).rows;

/** The VAT of a breakdown, all rates together. */
export const vatOfBreakdown = (rows: readonly ExpectedVatRow[]) => sum(rows.map((row) => row.vatCents));
