import { describe, expect, it } from "vitest";
import { isMixedCart, mixedCartShippingText, preorderShippingSchema } from "./preorder-shipping";

describe("isMixedCart", () => {
  it("is a cart with a pre-order and an item in stock", () => {
    expect(isMixedCart([{ preorder: true }, { preorder: false }])).toBe(true);
  });

  it("is not a cart of pre-orders only, of items in stock only, or an empty one", () => {
    expect(isMixedCart([{ preorder: true }, { preorder: true }])).toBe(false);
    expect(isMixedCart([{ preorder: false }])).toBe(false);
    expect(isMixedCart([])).toBe(false);
  });
});

describe("mixedCartShippingText", () => {
  it("says one parcel at release, or two with the delivery charged once", () => {
    expect(mixedCartShippingText("at_release")).toContain("en une seule fois, à la sortie");
    expect(mixedCartShippingText("split")).toContain("la livraison n'est facturée qu'une fois");
  });
});

describe("preorderShippingSchema", () => {
  it("takes the two modes and refuses anything else in French", () => {
    expect(preorderShippingSchema.parse({ mode: "split" })).toEqual({ mode: "split" });
    const refused = preorderShippingSchema.safeParse({ mode: "three" });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe("Choisissez l'expédition des paniers mixtes : une seule à la sortie, ou deux.");
  });
});
