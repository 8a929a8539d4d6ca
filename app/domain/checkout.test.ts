import { describe, expect, it } from "vitest";
import { checkoutRequestSchema, computeOrderTotals, mergeLines, outOfStockDetails } from "./checkout";

describe("checkout request", () => {
  it("keeps only ids, quantities and the insurance choice", () => {
    const parsed = checkoutRequestSchema.parse({ items: [{ productId: 3, quantity: 2, priceCents: 1 }], insuranceSelected: true, amount: 1, metadata: { x: 1 } });
    expect(parsed).toEqual({ items: [{ productId: 3, quantity: 2 }], insuranceSelected: true });
  });

  it.each([
    [{ items: [{ productId: 3, quantity: 0 }] }, "items.0.quantity"],
    [{ items: [{ productId: 3, quantity: 1.5 }] }, "items.0.quantity"],
    [{ items: [{ productId: 3, quantity: 100 }] }, "items.0.quantity"],
    [{ items: [{ productId: "3", quantity: 1 }] }, "items.0.productId"],
    [{ items: [{ productId: -3, quantity: 1 }] }, "items.0.productId"],
    [{ items: "x" }, "items"],
    [{ items: [], email: "pas-un-email" }, "email"],
  ])("refuses %j", (body, path) => {
    const result = checkoutRequestSchema.safeParse(body);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join("."))).toContain(path);
  });

  it("merges the same product and sorts by id", () => {
    expect(mergeLines([{ productId: 9, quantity: 1 }, { productId: 2, quantity: 1 }, { productId: 9, quantity: 2 }])).toEqual([
      { productId: 2, quantity: 1 },
      { productId: 9, quantity: 3 },
    ]);
  });

  it("computes totals in cents with the insurance tiers and a discount", () => {
    expect(computeOrderTotals([{ unitPriceCents: 49_999, quantity: 1 }], true)).toEqual({ subtotalCents: 49_999, insuranceCents: 1_000, discountCents: 0, totalCents: 50_999 });
    expect(computeOrderTotals([{ unitPriceCents: 50_001, quantity: 1 }], true).insuranceCents).toBe(2_000);
    expect(computeOrderTotals([{ unitPriceCents: 100_001, quantity: 1 }], true).insuranceCents).toBe(0);
    expect(computeOrderTotals([{ unitPriceCents: 1_000, quantity: 2 }], false, 5_000)).toEqual({ subtotalCents: 2_000, insuranceCents: 0, discountCents: 2_000, totalCents: 0 });
  });

  it("names the product in the victime de son succès text", () => {
    expect(outOfStockDetails("Coffret Dracaufeu")).toMatch(/^« Coffret Dracaufeu » a été victime de son succès/);
  });
});

