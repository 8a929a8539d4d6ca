import { describe, expect, it } from "vitest";
import { allocateFifo, lineMargin, marginByDocument, marginVatModeSchema, periodMargins, returnUnits, vatOnMargin } from "./margin-vat";

describe("vatOnMargin", () => {
  it("takes 20/120 of a positive margin, to the cent", () => {
    expect(vatOnMargin(1200, 2000)).toBe(200);
    // 1 000 / 6 = 166,67 → 167 (the base 833 is rounded, the VAT is what is left).
    expect(vatOnMargin(1000, 2000)).toBe(167);
    expect(vatOnMargin(1, 2000)).toBe(0);
    expect(vatOnMargin(6, 2000)).toBe(1);
    expect(vatOnMargin(1100, 1000)).toBe(100);
  });
  it("counts a margin of 0 or less as none", () => {
    expect(vatOnMargin(0, 2000)).toBe(0);
    expect(vatOnMargin(-500, 2000)).toBe(0);
  });
});

describe("allocateFifo", () => {
  const lots = [
    { lotId: 1, remaining: 2, unitCostCents: 100 },
    { lotId: 2, remaining: 0, unitCostCents: 999 },
    { lotId: 3, remaining: 3, unitCostCents: 300 },
  ];
  it("takes the oldest lot first, across lots, skipping empty ones", () => {
    expect(allocateFifo(lots, 4)).toEqual([
      { lotId: 1, quantity: 2, unitCostCents: 100 },
      { lotId: 3, quantity: 2, unitCostCents: 300 },
    ]);
  });
  it("leaves the units no lot has without a cost", () => {
    expect(allocateFifo(lots, 7)).toEqual([
      { lotId: 1, quantity: 2, unitCostCents: 100 },
      { lotId: 3, quantity: 3, unitCostCents: 300 },
      { lotId: null, quantity: 2, unitCostCents: null },
    ]);
    expect(allocateFifo([], 1)).toEqual([{ lotId: null, quantity: 1, unitCostCents: null }]);
  });
});

describe("returnUnits", () => {
  it("gives back the newest units first, those without a cost before a lot's", () => {
    const segments = [
      { lotId: 1, quantity: 2, unitCostCents: 100 },
      { lotId: 3, quantity: 1, unitCostCents: 300 },
      { lotId: null, quantity: 1, unitCostCents: null },
    ];
    const { kept, returned } = returnUnits(segments, 3);
    expect(returned).toEqual([
      { lotId: null, quantity: 1, unitCostCents: null },
      { lotId: 3, quantity: 1, unitCostCents: 300 },
      { lotId: 1, quantity: 1, unitCostCents: 100 },
    ]);
    expect(kept).toEqual([{ lotId: 1, quantity: 1, unitCostCents: 100 }]);
  });
});

describe("lineMargin", () => {
  it("computes the margin of units bought in two lots", () => {
    // 3 units sold 15 € each: 2 bought 5 €, 1 bought 8 €: margin 45 − 18 = 27 €, VAT 4,50 €.
    const figures = lineMargin({ netCents: 4500, quantity: 3, rateBp: 2000, segments: [{ lotId: 1, quantity: 2, unitCostCents: 500 }, { lotId: 2, quantity: 1, unitCostCents: 800 }] });
    expect(figures).toEqual({ saleCents: 4500, costCents: 1800, marginCents: 2700, vatCents: 450, unknownSaleCents: 0, unknownUnits: 0 });
  });
  it("keeps the price of units without a cost apart", () => {
    const figures = lineMargin({ netCents: 1000, quantity: 3, rateBp: 2000, segments: [{ lotId: 1, quantity: 1, unitCostCents: 100 }, { lotId: null, quantity: 2, unitCostCents: null }] });
    // 10 € over 3 units: the known one takes 3,33 €, margin 2,33 €, VAT 0,39 €.
    expect(figures).toEqual({ saleCents: 333, costCents: 100, marginCents: 233, vatCents: 39, unknownSaleCents: 667, unknownUnits: 2 });
  });
  it("gives no VAT on a sale below its purchase price", () => {
    expect(lineMargin({ netCents: 500, quantity: 1, rateBp: 2000, segments: [{ lotId: 1, quantity: 1, unitCostCents: 900 }] }).vatCents).toBe(0);
  });
});

describe("marginByDocument", () => {
  it("gives each credit note the change of VAT it makes", () => {
    const line = { netCents: 6000, quantity: 2, rateBp: 2000, segments: [{ lotId: 1, quantity: 1, unitCostCents: 1000 }, { lotId: 2, quantity: 1, unitCostCents: 2400 }] };
    // Sold 60 €, cost 34 €: margin 26 €, VAT 4,33 €. A 6 € goodwill: margin 20 €, VAT 3,33 €.
    // Then one unit returned for 27 € (the newest, bought 24 €): margin 27 − 10 = 17 €, VAT 2,83 €.
    const [invoice, goodwill, returned] = marginByDocument(line, [{ quantity: 0, totalCents: 600 }, { quantity: 1, totalCents: 2700 }]);
    expect(invoice!.vatCents).toBe(433);
    expect(goodwill!.vatCents).toBe(333 - 433);
    expect(returned!.vatCents).toBe(283 - 333);
    expect(invoice!.vatCents + goodwill!.vatCents + returned!.vatCents).toBe(283);
  });
  it("never gives back more VAT than was due on a negative margin", () => {
    const line = { netCents: 1000, quantity: 1, rateBp: 2000, segments: [{ lotId: 1, quantity: 1, unitCostCents: 1200 }] };
    expect(marginByDocument(line, [{ quantity: 1, totalCents: 1000 }]).map((d) => d.vatCents)).toEqual([0, 0]);
  });
});

describe("periodMargins", () => {
  it("taxes each month's sales less its purchases and carries an excess of purchases", () => {
    const months = periodMargins(
      [
        { salesCents: 10_000, purchasesCents: 4_000 },
        { salesCents: 2_000, purchasesCents: 5_000 },
        { salesCents: 9_000, purchasesCents: 1_000 },
        { salesCents: 1_000, purchasesCents: 0 },
      ],
      2000,
    );
    expect(months).toEqual([
      { baseCents: 6_000, vatCents: 1_000, carriedOutCents: 0 },
      { baseCents: -3_000, vatCents: 0, carriedOutCents: 3_000 },
      { baseCents: 5_000, vatCents: 833, carriedOutCents: 0 },
      { baseCents: 1_000, vatCents: 167, carriedOutCents: 0 },
    ]);
  });
  it("starts from what an earlier period carried", () => {
    expect(periodMargins([{ salesCents: 1_000, purchasesCents: 0 }], 2000, 1_500)).toEqual([{ baseCents: -500, vatCents: 0, carriedOutCents: 500 }]);
  });
});

describe("marginVatModeSchema", () => {
  it("accepts the two modes and refuses others in French", () => {
    expect(marginVatModeSchema.safeParse({ mode: "per_period" }).success).toBe(true);
    const bad = marginVatModeSchema.safeParse({ mode: "yearly" });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues[0]!.message).toMatch(/par vente ou par période/);
  });
});
