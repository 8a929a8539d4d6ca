import { describe, expect, it } from "vitest";
import { computeOrderTotals } from "./checkout";
import { type IntraEuFacts, exemptSale, intraEuExemptionApplies, normalGoodsAfterDiscount } from "./intra-eu-exemption";

const GERMAN_COMPANY = { companyName: "Spielwaren Müller GmbH", siren: null, vatNumber: "DE136695976", country: "DE" };
const FACTS: IntraEuFacts = { enabled: true, franchise: false, business: GERMAN_COMPANY, deliveryCountry: "DE", exemptGoodsCents: 1200 };

describe("intraEuExemptionApplies", () => {
  it("applies when every condition holds", () => {
    expect(intraEuExemptionApplies(FACTS)).toBe(true);
  });

  it.each<[string, Partial<IntraEuFacts>]>([
    ["the seller's switch off", { enabled: false }],
    ["the seller under the franchise", { franchise: true }],
    ["a consumer", { business: null }],
    ["a company without a VAT number", { business: { ...GERMAN_COMPANY, vatNumber: null } }],
    ["a French VAT number", { business: { companyName: "Jeux & Cie", siren: "303265045", vatNumber: "FR40303265045", country: "FR" }, deliveryCountry: "FR" }],
    ["a French VAT number, delivery in Germany", { business: { companyName: "Jeux & Cie", siren: "303265045", vatNumber: "FR40303265045", country: "DE" } }],
    ["a VAT number that fails its check digits", { business: { ...GERMAN_COMPANY, vatNumber: "DE136695977" } }],
    ["a billing country other than the number's", { business: { ...GERMAN_COMPANY, country: "AT" } }],
    ["a delivery in France", { deliveryCountry: "FR" }],
    ["a delivery in another member state than the number's", { deliveryCountry: "BE" }],
    ["no normal-scheme goods left (margin-scheme goods only, or all discounted)", { exemptGoodsCents: 0 }],
  ])("does not apply with %s", (_, change) => {
    expect(intraEuExemptionApplies({ ...FACTS, ...change })).toBe(false);
  });
});

describe("exemptSale", () => {
  const card = { productId: 1, name: "Display", unitPriceCents: 1200, quantity: 2, vatRateBp: 2000, vatScheme: "normal" as const };
  const manga = { productId: 2, name: "Manga", unitPriceCents: 699, quantity: 3, vatRateBp: 550, vatScheme: "normal" as const };
  const used = { productId: 3, name: "Carte d'occasion", unitPriceCents: 2500, quantity: 1, vatRateBp: 2000, vatScheme: "margin" as const };

  it("takes the French VAT out of each price and of the delivery, every normal line at 0 %", () => {
    const totals = computeOrderTotals([card, manga], false, 0, 1190);
    const sale = exemptSale([card, manga], totals);
    // 12,00 € at 20 % → 10,00 €; 6,99 € at 5,5 % → 6,625… → 6,63 € (the half cent up).
    expect(sale.lines.map((line) => [line.unitPriceCents, line.vatRateBp])).toEqual([[1000, 0], [663, 0]]);
    // The delivery follows the goods' rates in France: 1190 × 2400 / 4497 at 20 %, the rest at 5,5 %.
    const atStandard = Math.round((1190 * 2400) / 4497);
    const expectedShipping = Math.round((atStandard * 10_000) / 12_000) + Math.round(((1190 - atStandard) * 10_000) / 10_550);
    expect(sale.totals).toEqual({ subtotalCents: 2000 + 1989, insuranceCents: 0, discountCents: 0, shippingCents: expectedShipping, totalCents: 3989 + expectedShipping });
    expect(sale.vat.breakdown).toEqual([{ rateBp: 0, baseCents: sale.totals.totalCents, vatCents: 0, totalCents: sale.totals.totalCents }]);
    expect(sale.vat.lines.every((line) => line.vatCents === 0)).toBe(true);
  });

  it("takes the VAT out of the discount, line by line, and adds up to the cent", () => {
    const totals = computeOrderTotals([card, manga], true, 500, 990);
    const sale = exemptSale([card, manga], totals);
    expect(sale.totals.discountCents).toBeLessThan(500);
    expect(sale.totals.insuranceCents).toBeLessThan(totals.insuranceCents);
    const { subtotalCents, discountCents, shippingCents, insuranceCents, totalCents } = sale.totals;
    expect(totalCents).toBe(subtotalCents - discountCents + shippingCents + insuranceCents);
    expect(sale.vat.breakdown.reduce((sum, row) => sum + row.totalCents, 0)).toBe(totalCents);
    expect(sale.vat.breakdown.every((row) => row.rateBp === 0 && row.vatCents === 0)).toBe(true);
  });

  it("keeps a margin-scheme line at its TTC price under its scheme, outside the exempt base", () => {
    const totals = computeOrderTotals([card, used], false, 0, 990);
    const sale = exemptSale([card, used], totals);
    expect(sale.lines[1]).toEqual(used);
    expect(sale.vat.marginSchemeCents).toBe(2500);
    // The delivery follows the normal-scheme goods only: 9,90 € at 20 % → 8,25 €.
    expect(sale.totals.shippingCents).toBe(825);
    expect(sale.totals.totalCents).toBe(2000 + 2500 + 825);
    expect(sale.vat.breakdown).toEqual([{ rateBp: 0, baseCents: 2825, vatCents: 0, totalCents: 2825 }]);
  });

  it("counts the normal-scheme goods left after the discount", () => {
    expect(normalGoodsAfterDiscount([card, used], 0)).toBe(2400);
    expect(normalGoodsAfterDiscount([used], 0)).toBe(0);
    expect(normalGoodsAfterDiscount([card], 2400)).toBe(0);
  });
});
