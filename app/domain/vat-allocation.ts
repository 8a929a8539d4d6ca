import type { VatBreakdownRow } from "./invoice";
import type { VatRateBp, VatScheme } from "./vat";

export type TaxedLine = { totalCents: number; vatRateBp: VatRateBp; vatScheme: VatScheme };
export type AllocatedLine = TaxedLine & { discountShareCents: number; netCents: number; vatCents: number };
export type VatAllocation = {
  lines: AllocatedLine[];
  /** The delivery and insurance charges split over the rates, pro rata of the goods. */
  chargesVat: VatBreakdownRow[];
  breakdown: VatBreakdownRow[];
  /** Goods sold under the margin scheme (TTC after discount): no VAT shown for them. */
  marginSchemeCents: number;
};

/** VAT inside a TTC amount: TTC × rate / (1 + rate), rounded to the cent. */
export function vatInside(inclVatCents: number, rateBp: number): number {
  return Math.round((inclVatCents * rateBp) / (10_000 + rateBp));
}

/**
 * Splits `total` in whole cents in proportion to `weights` (largest remainder): the parts always
 * sum to `total` exactly, which rounding each part on its own would not.
 */
export function splitProRata(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum <= 0 || total === 0) return weights.map(() => 0);
  const exact = weights.map((w) => (total * w) / sum);
  const parts = exact.map(Math.floor);
  let left = total - parts.reduce((a, b) => a + b, 0);
  const order = exact.map((value, i) => [value - Math.floor(value), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of order) {
    if (left <= 0) break;
    parts[i]! += 1;
    left -= 1;
  }
  return parts;
}

/**
 * The VAT of an order, all amounts TTC (docs/decisions/032):
 * - the discount is shared over the lines in proportion to their totals;
 * - each line's VAT is taken out of its discounted total at its rate; margin-scheme lines carry
 *   none that is shown (VAT on the margin is the seller's own reckoning, CGI art. 297 A);
 * - delivery and insurance follow the goods (BOFiP TVA-BASE-10-10-10): split over the rates in
 *   proportion to the discounted totals of the normal-scheme lines at each rate; a cart of
 *   margin-scheme goods only (or whose taxed goods a code took entirely) puts them at the
 *   standard rate;
 * - under the franchise en base (CGI art. 293 B) there is no VAT at all.
 */
export function allocateVat(lines: readonly TaxedLine[], discountCents: number, chargesCents: number, franchise: boolean): VatAllocation {
  const shares = splitProRata(discountCents, lines.map((line) => line.totalCents));
  const allocated = lines.map((line, i) => {
    const netCents = line.totalCents - shares[i]!;
    const vatCents = franchise || line.vatScheme === "margin" ? 0 : vatInside(netCents, line.vatRateBp);
    return { ...line, discountShareCents: shares[i]!, netCents, vatCents };
  });
  const marginSchemeCents = allocated.filter((line) => line.vatScheme === "margin").reduce((sum, line) => sum + line.netCents, 0);
  if (franchise) return { lines: allocated, chargesVat: [], breakdown: [], marginSchemeCents: 0 };

  const goodsByRate = new Map<VatRateBp, { total: number; vat: number }>();
  for (const line of allocated) {
    if (line.vatScheme === "margin") continue;
    const row = goodsByRate.get(line.vatRateBp) ?? { total: 0, vat: 0 };
    goodsByRate.set(line.vatRateBp, { total: row.total + line.netCents, vat: row.vat + line.vatCents });
  }
  const rates = [...goodsByRate.keys()].sort((a, b) => b - a);
  // No taxed goods left to follow (margin-scheme goods only, or a code that took them all): 20 %.
  const followsGoods = rates.some((rate) => goodsByRate.get(rate)!.total > 0);
  const chargeRates: VatRateBp[] = followsGoods ? rates : [2000];
  const chargeParts = splitProRata(chargesCents, followsGoods ? rates.map((rate) => goodsByRate.get(rate)!.total) : [1]);
  const chargesVat: VatBreakdownRow[] = chargeRates
    .map((rateBp, i) => {
      const totalCents = chargeParts[i]!;
      const vatCents = vatInside(totalCents, rateBp);
      return { rateBp, baseCents: totalCents - vatCents, vatCents, totalCents };
    })
    .filter((row) => row.totalCents !== 0);

  const byRate = new Map<VatRateBp, VatBreakdownRow>();
  const add = (rateBp: VatRateBp, totalCents: number, vatCents: number) => {
    const row = byRate.get(rateBp) ?? { rateBp, baseCents: 0, vatCents: 0, totalCents: 0 };
    byRate.set(rateBp, { rateBp, totalCents: row.totalCents + totalCents, vatCents: row.vatCents + vatCents, baseCents: row.baseCents + totalCents - vatCents });
  };
  for (const [rate, goods] of goodsByRate) add(rate, goods.total, goods.vat);
  for (const row of chargesVat) add(row.rateBp, row.totalCents, row.vatCents);
  const breakdown = [...byRate.values()].filter((row) => row.totalCents !== 0).sort((a, b) => b.rateBp - a.rateBp);
  return { lines: allocated, chargesVat, breakdown, marginSchemeCents };
}

/** "20 %", "5,5 %": a rate as the French read it. */
export function formatVatRate(rateBp: number): string {
  return `${new Intl.NumberFormat("fr-FR", { maximumFractionDigits: 2 }).format(rateBp / 100)}\u00a0%`;
}
