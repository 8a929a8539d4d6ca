import type { VatBreakdownRow } from "./invoice";
import { STANDARD_VAT_BP, type VatRateBp, type VatScheme } from "./vat";

export type TaxedLine = { totalCents: number; vatRateBp: VatRateBp; vatScheme: VatScheme };
/** A line whose share of the discount is already taken off: `netCents` is what the buyer pays for it, TTC. */
export type NetLine = { netCents: number; vatRateBp: VatRateBp; vatScheme: VatScheme };
export type AllocatedLine = TaxedLine & {
  discountShareCents: number;
  netCents: number;
  /** The line's part of its rate's base: null under the margin scheme or the franchise (no VAT shown). */
  exclVatCents: number | null;
  /** netCents − exclVatCents: the line's part of its rate's VAT (0 when no VAT is shown). */
  vatCents: number;
};
export type VatAllocation = {
  lines: AllocatedLine[];
  /**
   * The delivery and insurance charges split over the rates, pro rata of the goods: each rate's
   * part TTC, its part of the rate's base (`baseCents`) and of its VAT.
   */
  chargesVat: VatBreakdownRow[];
  breakdown: VatBreakdownRow[];
  /** Goods sold under the margin scheme (TTC after discount): no VAT shown for them. */
  marginSchemeCents: number;
};

/** A charge's part at a rate: TTC and before VAT. */
export type ChargePart = { rateBp: VatRateBp; totalCents: number; exclVatCents: number };

/** A TTC amount at a rate: a line's total after its discount, the charges' part at a rate, an amount refunded. */
export type RatedAmount = { rateBp: VatRateBp; totalCents: number };

/**
 * The base before VAT of a rate's TTC total: TTC / (1 + rate), rounded to the cent, a half cent
 * up (away from zero for a negative amount: a credit note's base is its invoice's, negated).
 * The VAT is what is left, TTC − base, so base + VAT = TTC to the cent (docs/decisions/032).
 */
export function exclVatOf(inclVatCents: number, rateBp: number): number {
  const magnitude = Math.round((Math.abs(inclVatCents) * 10_000) / (10_000 + rateBp));
  return inclVatCents < 0 ? 0 - magnitude : magnitude;
}

/**
 * Splits `total` in whole cents in proportion to `weights` (largest remainder): the parts always
 * sum to `total` exactly, which rounding each part on its own would not.
 */
export function splitProRata(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum <= 0 || total === 0) return weights.map(() => 0);
  // Whole numbers: each part's floor and the remainder it leaves, total × weight − part × sum,
  // exactly (a float's fractional part told two equal remainders apart, and broke their tie).
  const parts = weights.map((w) => Math.floor((total * w) / sum));
  const remainders = weights.map((w, i) => total * w - parts[i]! * sum);
  let left = total - parts.reduce((a, b) => a + b, 0);
  const order = weights.map((_, i) => i).sort((i, j) => remainders[j]! - remainders[i]! || i - j);
  for (const i of order) {
    if (left <= 0) break;
    parts[i]! += 1;
    left -= 1;
  }
  return parts;
}

/**
 * `total` over `amounts` of one sign (all ≥ 0 or all ≤ 0, as a sale's or a refund's), in
 * proportion to them, by largest remainder: a negative set is split as its opposite, negated, so
 * a credit note's parts are its invoice's.
 */
function spreadOver(total: number, amounts: readonly number[]): number[] {
  const negative = amounts.some((amount) => amount < 0);
  if (negative && amounts.some((amount) => amount > 0)) throw new RangeError(`amounts of one rate must share a sign: ${amounts.join(", ")}`);
  if (!negative) return splitProRata(total, amounts);
  return splitProRata(0 - total, amounts.map((amount) => 0 - amount)).map((part) => 0 - part);
}

/**
 * The VAT by rate of a set of TTC amounts (an order's lines and charges, or what a refund gives
 * back), and each amount's part of its rate's base:
 * - per rate, base = round(rate's TTC total / (1 + rate)) and VAT = TTC total − base, never the
 *   VAT of each amount rounded and summed (CGI art. 242 nonies A: the VAT "par taux");
 * - each rate's base is spread over its amounts in proportion to them (largest remainder, ties to
 *   the first), so the amounts' bases sum to the rate's base exactly.
 * Rows highest rate first; a rate whose amounts sum to nothing has no row. The amounts of one
 * rate must share a sign (a sale's are positive, a refund's negative).
 */
export function vatByRate(amounts: readonly RatedAmount[]): { rows: VatBreakdownRow[]; exclVatCents: number[] } {
  const rates = [...new Set(amounts.map((amount) => amount.rateBp))].sort((a, b) => b - a);
  const rows = rates.map((rateBp) => {
    const totalCents = amounts.reduce((sum, amount) => (amount.rateBp === rateBp ? sum + amount.totalCents : sum), 0);
    const baseCents = exclVatOf(totalCents, rateBp);
    return { rateBp, baseCents, vatCents: totalCents - baseCents, totalCents };
  });
  return { rows: rows.filter((row) => row.totalCents !== 0), exclVatCents: spreadBases(amounts, rows) };
}

/**
 * Each amount's part of its rate's base, given the rows (the rule's, or those an order stored):
 * the row's base over the rate's amounts, in proportion to them, by largest remainder.
 */
export function spreadBases(amounts: readonly RatedAmount[], rows: readonly VatBreakdownRow[]): number[] {
  const parts = amounts.map(() => 0);
  for (const row of rows) {
    const at = amounts.flatMap((amount, i) => (amount.rateBp === row.rateBp ? [i] : []));
    spreadOver(row.baseCents, at.map((i) => amounts[i]!.totalCents)).forEach((part, k) => (parts[at[k]!] = part));
  }
  return parts;
}

/**
 * The charges (delivery, insurance) over the rates of the normal-scheme goods, in proportion to
 * the goods at each rate (largest remainder); with no taxed goods left (margin-scheme goods only,
 * or a code that took them all), at 20 %. All the charges together: each charge's own share of a
 * rate is `chargesByRate`'s.
 */
function chargesOverRates(goods: readonly NetLine[], chargesCents: number): RatedAmount[] {
  const byRate = new Map<VatRateBp, number>();
  for (const line of goods) if (line.vatScheme === "normal") byRate.set(line.vatRateBp, (byRate.get(line.vatRateBp) ?? 0) + line.netCents);
  const rates = [...byRate.keys()].sort((a, b) => b - a);
  const followsGoods = rates.some((rate) => byRate.get(rate)! > 0);
  const chargeRates: VatRateBp[] = followsGoods ? rates : [STANDARD_VAT_BP];
  const parts = splitProRata(chargesCents, followsGoods ? rates.map((rate) => byRate.get(rate)!) : [1]);
  return chargeRates.map((rateBp, i) => ({ rateBp, totalCents: parts[i]! }));
}

/**
 * The VAT of goods whose discount is already shared (`allocateVat` shares it), with
 * `chargesCents` of delivery and insurance:
 * - margin-scheme lines carry none that is shown (VAT on the margin is the seller's own
 *   reckoning, CGI art. 297 A and 297 E);
 * - delivery and insurance follow the goods (BOFiP TVA-BASE-10-10-10): split over the rates in
 *   proportion to the normal-scheme goods at each rate; with none left, at the standard rate;
 * - per rate, `vatByRate`: the VAT of the rate's total (goods and charges together), its base
 *   spread over the rate's lines and charges;
 * - under the franchise en base (CGI art. 293 B) there is no VAT at all.
 */
export function allocateNetVat(
  lines: readonly NetLine[],
  chargesCents: number,
  franchise: boolean,
): { lines: { exclVatCents: number | null; vatCents: number }[]; chargesVat: VatBreakdownRow[]; breakdown: VatBreakdownRow[]; marginSchemeCents: number } {
  const noVat = (line: NetLine) => franchise || line.vatScheme === "margin";
  if (franchise) return { lines: lines.map(() => ({ exclVatCents: null, vatCents: 0 })), chargesVat: [], breakdown: [], marginSchemeCents: 0 };
  const marginSchemeCents = lines.filter(noVat).reduce((sum, line) => sum + line.netCents, 0);
  const taxed = lines.flatMap((line, i) => (noVat(line) ? [] : [i]));
  const charges = chargesOverRates(lines, chargesCents);
  const amounts: RatedAmount[] = [...taxed.map((i) => ({ rateBp: lines[i]!.vatRateBp, totalCents: lines[i]!.netCents })), ...charges];
  const { rows, exclVatCents } = vatByRate(amounts);
  const allocated = lines.map(() => ({ exclVatCents: null as number | null, vatCents: 0 }));
  taxed.forEach((i, k) => (allocated[i] = { exclVatCents: exclVatCents[k]!, vatCents: lines[i]!.netCents - exclVatCents[k]! }));
  const chargesVat = charges
    .map((charge, k) => {
      const baseCents = exclVatCents[taxed.length + k]!;
      return { rateBp: charge.rateBp, baseCents, vatCents: charge.totalCents - baseCents, totalCents: charge.totalCents };
    })
    .filter((row) => row.totalCents !== 0);
  return { lines: allocated, chargesVat, breakdown: rows, marginSchemeCents };
}

/**
 * The VAT of an order, all amounts TTC (docs/decisions/032): the discount is shared over the
 * lines in proportion to their totals (largest remainder), then `allocateNetVat`.
 */
export function allocateVat(lines: readonly TaxedLine[], discountCents: number, chargesCents: number, franchise: boolean): VatAllocation {
  const shares = splitProRata(discountCents, lines.map((line) => line.totalCents));
  const nets = lines.map((line, i) => ({ ...line, discountShareCents: shares[i]!, netCents: line.totalCents - shares[i]! }));
  const { lines: vat, chargesVat, breakdown, marginSchemeCents } = allocateNetVat(nets, chargesCents, franchise);
  return { lines: nets.map((line, i) => ({ ...line, ...vat[i]! })), chargesVat, breakdown, marginSchemeCents };
}

/**
 * Each charge's part of each rate, TTC and before VAT, from the charges' rows by rate
 * (`allocateVat`'s `chargesVat`, or what an order's stored breakdown gives): the first charges
 * take of each rate in proportion to what is left of it (largest remainder), the last what is
 * left, so each charge's parts sum to it and each rate's parts to the rate's row; then each
 * rate's base is spread over its parts. A charge of nothing has no part.
 */
export function chargesByRate(charges: readonly number[], chargesVat: readonly VatBreakdownRow[]): ChargePart[][] {
  const left = chargesVat.map((row) => row.totalCents);
  const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
  if (sum(charges) !== sum(left)) throw new RangeError(`charges of ${sum(charges)} over rows of ${sum(left)}`);
  const ttc = charges.map((charge, j) => {
    if (j === charges.length - 1) {
      const parts = [...left];
      left.fill(0);
      return parts;
    }
    const parts = spreadOver(charge, left);
    parts.forEach((part, r) => (left[r]! -= part));
    return parts;
  });
  const bases = chargesVat.map((row, r) => spreadOver(row.baseCents, ttc.map((parts) => parts[r]!)));
  return charges.map((_, j) =>
    chargesVat.map((row, r) => ({ rateBp: row.rateBp, totalCents: ttc[j]![r]!, exclVatCents: bases[r]![j]! })).filter((part) => part.totalCents !== 0),
  );
}

/** "20 %", "5,5 %": a rate as the French read it. */
export function formatVatRate(rateBp: number): string {
  return `${new Intl.NumberFormat("fr-FR", { maximumFractionDigits: 2 }).format(rateBp / 100)}\u00a0%`;
}
