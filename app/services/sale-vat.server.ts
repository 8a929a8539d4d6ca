import type { Db } from "~/db/types";
import type { BusinessPurchase } from "~/domain/business-purchase";
import type { OrderTotals } from "~/domain/checkout";
import { exemptSale, intraEuExemptionApplies, normalGoodsAfterDiscount } from "~/domain/intra-eu-exemption";
import type { VatRateBp, VatRegime, VatScheme } from "~/domain/vat";
import type { VatAllocation } from "~/domain/vat-allocation";
import { getBillingSettings } from "./billing-settings.server";
import { getBusinessSalesSettings } from "./business-sales-settings.server";
import { orderVat } from "./oss.server";

type PricedLine = { unitPriceCents: number; quantity: number; vatRateBp: VatRateBp; vatScheme: VatScheme };

/** What the order is charged and records: its VAT rule, the country whose VAT it carries, its lines, totals and VAT. */
export type SaleVat<Line> = { regime: VatRegime; vatCountry: string; lines: Line[]; totals: OrderTotals; vat: VatAllocation };

/**
 * The VAT of a new order, inside the checkout's transaction: an exempt intra-EU supply
 * (domain/intra-eu-exemption.ts: the seller's switch, the buyer's VAT number, billing and delivery
 * in its member state), priced excluding VAT; otherwise French VAT or, past the distance-sales
 * threshold, the buyer's member state's (services/oss.server.ts), on the TTC prices as priced.
 */
export async function saleVat<Line extends PricedLine>(
  tx: Db,
  lines: readonly Line[],
  totals: OrderTotals,
  buyer: { business: BusinessPurchase | null; deliveryCountry: string },
  now: Date,
): Promise<SaleVat<Line>> {
  if (buyer.business) {
    const [{ intraEuExemption }, { vatFranchise }] = await Promise.all([getBusinessSalesSettings(tx), getBillingSettings(tx)]);
    const facts = { enabled: intraEuExemption, franchise: vatFranchise, ...buyer, exemptGoodsCents: normalGoodsAfterDiscount(lines, totals.discountCents) };
    if (intraEuExemptionApplies(facts)) return { regime: "intra_eu_exempt", vatCountry: "FR", ...exemptSale(lines, totals) };
  }
  const taxed = await orderVat(tx, lines, { discountCents: totals.discountCents, chargesCents: totals.shippingCents + totals.insuranceCents }, buyer.deliveryCountry, now);
  return { regime: taxed.franchise ? "franchise" : "normal", vatCountry: taxed.vatCountry, lines: taxed.lines, totals, vat: taxed.vat };
}
