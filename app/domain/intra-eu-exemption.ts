import type { BusinessPurchase } from "./business-purchase";
import { vatNumberCountry } from "./business-buyer";
import type { OrderTotals } from "./checkout";
import type { VatScheme } from "./vat";
import { type VatAllocation, allocateVat, chargesByRate, exclVatOf } from "./vat-allocation";

/*
 * Intra-EU supplies of goods (CGI art. 262 ter I; Directive 2006/112 art. 138): goods sold to a
 * business identified for VAT in another member state and dispatched there are exempt in France;
 * the buyer accounts for the VAT in its own state. docs/decisions/054.
 */

/** What decides the exemption of an order at checkout, all known to the server. */
export type IntraEuFacts = {
  /** The seller's switch (/admin/settings, « Ventes aux professionnels »): it has checked the number in VIES. */
  enabled: boolean;
  /** A seller under the franchise en base charges no VAT: there is nothing to exempt. */
  franchise: boolean;
  business: BusinessPurchase | null;
  /** The delivery's country: the goods must leave France for the buyer's member state. */
  deliveryCountry: string;
  /** Whether goods under the normal scheme are left after the discount (margin-scheme goods are never exempt). */
  exemptGoodsCents: number;
};

/**
 * Whether the order is an exempt intra-EU supply: the seller turned the exemption on, is not under
 * the franchise, the buyer is a business whose VAT number (checked by jsvat) is of a member state
 * other than France, its billing country is that state, the goods are delivered there, and goods
 * under the normal scheme are left to exempt.
 */
export function intraEuExemptionApplies(facts: IntraEuFacts): boolean {
  if (!facts.enabled || facts.franchise || !facts.business?.vatNumber) return false;
  const state = vatNumberCountry(facts.business.vatNumber);
  return state !== null && state !== "FR" && facts.business.country === state && facts.deliveryCountry === state && facts.exemptGoodsCents > 0;
}

type PricedLine = { unitPriceCents: number; quantity: number; vatRateBp: number; vatScheme: VatScheme };

/** The normal-scheme goods left after the discount, TTC (what `intraEuExemptionApplies` asks). */
export function normalGoodsAfterDiscount(lines: readonly PricedLine[], discountCents: number): number {
  const shared = allocateVat(lines.map((line) => ({ totalCents: line.unitPriceCents * line.quantity, vatRateBp: line.vatRateBp, vatScheme: line.vatScheme })), discountCents, 0, false);
  return shared.lines.reduce((sum, line) => (line.vatScheme === "normal" ? sum + line.netCents : sum), 0);
}

/**
 * The order priced excluding VAT, from the French order (TTC shelf prices, the discount and the
 * charges as the checkout priced them): each amount without the French VAT it carries, at 0 %.
 * - a normal-scheme unit price: exclVatOf(price, its French rate), the half cent up (12,00 € at
 *   20 % → 10,00 €; 4,99 € → 4,16 €); the line is that × quantity;
 * - the delivery and the parcel option: their parts' bases in the French order (they follow the
 *   goods' rates, decision 032: `chargesByRate` over the French allocation's charges);
 * - the discount: each line's French share without its rate's VAT (exclVatOf per share);
 * - margin-scheme lines (art. 297 A, not exempt under 262 ter I) keep their TTC price and scheme.
 * Then the VAT allocation of that order (every normal line and the charges at 0 %).
 */
export function exemptSale<Line extends PricedLine>(lines: readonly Line[], totals: OrderTotals): { lines: Line[]; totals: OrderTotals; vat: VatAllocation } {
  const taxed = (rated: readonly Line[]) => rated.map((line) => ({ totalCents: line.unitPriceCents * line.quantity, vatRateBp: line.vatRateBp, vatScheme: line.vatScheme }));
  const french = allocateVat(taxed(lines), totals.discountCents, totals.shippingCents + totals.insuranceCents, false);
  const normal = (line: { vatScheme: VatScheme }) => line.vatScheme === "normal";
  const exempt = lines.map((line) => (normal(line) ? { ...line, unitPriceCents: exclVatOf(line.unitPriceCents, line.vatRateBp), vatRateBp: 0 } : line));
  const [shipping, insurance] = chargesByRate([totals.shippingCents, totals.insuranceCents], french.chargesVat).map((parts) => parts.reduce((sum, part) => sum + part.exclVatCents, 0));
  const subtotalCents = exempt.reduce((sum, line) => sum + line.unitPriceCents * line.quantity, 0);
  const discountExclVat = french.lines.reduce((sum, line) => sum + (normal(line) ? exclVatOf(line.discountShareCents, line.vatRateBp) : line.discountShareCents), 0);
  const discountCents = Math.min(discountExclVat, subtotalCents);
  const exemptTotals: OrderTotals = { subtotalCents, insuranceCents: insurance!, discountCents, shippingCents: shipping!, totalCents: subtotalCents - discountCents + shipping! + insurance! };
  return { lines: exempt, totals: exemptTotals, vat: allocateVat(taxed(exempt), discountCents, shipping! + insurance!, false) };
}
