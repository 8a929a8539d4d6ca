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

  it("caps the sum of the same product's lines, as for one line", () => {
    const result = checkoutRequestSchema.safeParse({ items: [{ productId: 2, quantity: 99 }, { productId: 2, quantity: 21 }] });
    expect(result.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([["items", "La quantité ne peut pas dépasser 99."]]);
    expect(checkoutRequestSchema.safeParse({ items: [{ productId: 2, quantity: 50 }, { productId: 2, quantity: 49 }] }).success).toBe(true);
  });

  it.each([null, [], "x", { items: [1, "x"], email: 5 }, { items: [], discountCode: ["X"] }, { items: [{}] }])("answers %j in French", (body) => {
    const messages = checkoutRequestSchema.safeParse(body).error?.issues.map((i) => i.message) ?? [];
    expect(messages.length).toBeGreaterThan(0);
    for (const message of messages) expect(message).toMatch(/^(La commande envoyée est illisible\.|Le panier est illisible\.|Merci d'entrer une adresse email valide|Code promo illisible\.|Produit inconnu\.|La quantité doit être un nombre entier\.)$/);
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

