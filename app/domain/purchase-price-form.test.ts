import { describe, expect, it } from "vitest";
import { purchaseLotOfEdit, unitsNeedingPurchasePrice } from "./purchase-price-form";

describe("unitsNeedingPurchasePrice", () => {
  it("asks for the units added to a margin-scheme product", () => {
    expect(unitsNeedingPurchasePrice({ stock: 2, vatScheme: "margin" }, { stock: 5, vatScheme: "margin" })).toBe(3);
    expect(unitsNeedingPurchasePrice({ stock: 5, vatScheme: "margin" }, { stock: 4, vatScheme: "margin" })).toBe(0);
  });
  it("asks for the whole stock of a product going under the margin scheme, or created under it", () => {
    expect(unitsNeedingPurchasePrice({ stock: 4, vatScheme: "normal" }, { stock: 4, vatScheme: "margin" })).toBe(4);
    expect(unitsNeedingPurchasePrice(null, { stock: 2, vatScheme: "margin" })).toBe(2);
  });
  it("asks nothing outside the margin scheme", () => {
    expect(unitsNeedingPurchasePrice({ stock: 0, vatScheme: "normal" }, { stock: 9, vatScheme: "normal" })).toBe(0);
  });
});

describe("purchaseLotOfEdit", () => {
  const before = { stock: 1, vatScheme: "margin" as const };
  it("makes a lot of the units added at the price typed", () => {
    expect(purchaseLotOfEdit(before, { stock: 4, vatScheme: "margin" }, "4,50")).toEqual({ ok: true, lot: { quantity: 3, unitCostCents: 450 } });
    expect(purchaseLotOfEdit(before, { stock: 1, vatScheme: "margin" }, "")).toEqual({ ok: true, lot: null });
  });
  it("refuses a missing or malformed price in French", () => {
    expect(purchaseLotOfEdit(before, { stock: 4, vatScheme: "margin" }, "")).toEqual({ ok: false, message: "Indiquez le prix d'achat unitaire des 3 unités ajoutées au stock : la TVA sur la marge en dépend." });
    expect(purchaseLotOfEdit({ stock: 1, vatScheme: "normal" }, { stock: 1, vatScheme: "margin" }, undefined)).toEqual({ ok: false, message: "Indiquez le prix d'achat unitaire du stock (1 unité) : la TVA sur la marge en dépend." });
    expect(purchaseLotOfEdit(before, { stock: 2, vatScheme: "margin" }, "-3")).toEqual({ ok: false, message: "Le prix d'achat ne peut pas être négatif" });
    expect(purchaseLotOfEdit(before, { stock: 2, vatScheme: "margin" }, "abc")).toEqual({ ok: false, message: "Le prix d'achat doit être un nombre" });
  });
});
