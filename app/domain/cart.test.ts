import { describe, expect, it } from "vitest";
import {
  type Cart,
  type CartProduct,
  EMPTY_CART,
  addToCart,
  cartCount,
  cartSubtotalCents,
  clampQuantity,
  describeCartChanges,
  parseStoredCart,
  refreshCart,
  removeFromCart,
  setInsurance,
  setQuantity,
} from "./cart";

const product = (overrides: Partial<CartProduct> = {}): CartProduct => ({
  id: 1,
  name: "Display Écarlate et Violet",
  priceCents: 14999,
  stock: 5,
  image: null,
  ...overrides,
});
const cartWith = (quantity: number, p = product(), insuranceSelected = true): Cart => ({
  items: [{ product: p, quantity }],
  insuranceSelected,
});

describe("addToCart", () => {
  it("adds a new line", () => {
    const result = addToCart(EMPTY_CART, product(), 2);
    expect(result).toMatchObject({ ok: true, added: 2 });
    expect(result.cart.items).toEqual([{ product: product(), quantity: 2 }]);
  });

  it("refuses an out-of-stock product", () => {
    for (const stock of [0, -1]) {
      const result = addToCart(EMPTY_CART, product({ stock }));
      expect(result).toMatchObject({
        ok: false,
        title: "Produit indisponible",
        description: "Ce produit est en rupture de stock.",
      });
      expect(result.cart).toBe(EMPTY_CART);
    }
  });

  it("refuses when the cart already holds the whole stock", () => {
    const cart = cartWith(3, product({ stock: 3 }));
    const result = addToCart(cart, product({ stock: 3 }));
    expect(result).toEqual({
      ok: false,
      cart,
      title: "Quantité maximale atteinte",
      description: "Vous avez déjà 3 unités de ce produit dans votre panier.",
    });
  });

  it("caps the quantity at the stock", () => {
    const result = addToCart(cartWith(3), product({ stock: 5 }), 10);
    expect(result).toMatchObject({ ok: true, added: 2 });
    expect(result.cart.items).toEqual([{ product: product(), quantity: 5 }]);
    expect(addToCart(EMPTY_CART, product({ stock: 2 }), 7).cart.items[0]?.quantity).toBe(2);
  });

  it("adds at least one unit", () => {
    expect(addToCart(EMPTY_CART, product(), 0).cart.items[0]?.quantity).toBe(1);
    expect(addToCart(EMPTY_CART, product(), 2.7).cart.items[0]?.quantity).toBe(2);
  });

  it("merges into the existing line, refreshing product data, and keeps other lines", () => {
    const other = product({ id: 2, name: "Sleeves" });
    const cart: Cart = { items: [{ product: product(), quantity: 1 }, { product: other, quantity: 4 }], insuranceSelected: false };
    const fresh = product({ priceCents: 12999 });
    const result = addToCart(cart, fresh);
    expect(result.cart.items).toEqual([
      { product: fresh, quantity: 2 },
      { product: other, quantity: 4 },
    ]);
  });

  it("resets the insurance choice when items change", () => {
    const result = addToCart(cartWith(1), product());
    expect(result.ok).toBe(true);
    expect(result.cart.insuranceSelected).toBe(false);
  });

  it("does not mutate the given cart", () => {
    const cart = cartWith(1);
    addToCart(cart, product(), 2);
    expect(cart).toEqual(cartWith(1));
  });
});

describe("cartCount", () => {
  it("sums quantities", () => {
    expect(cartCount(EMPTY_CART)).toBe(0);
    const cart: Cart = {
      items: [{ product: product(), quantity: 2 }, { product: product({ id: 2 }), quantity: 3 }],
      insuranceSelected: false,
    };
    expect(cartCount(cart)).toBe(5);
  });
});

describe("parseStoredCart", () => {
  it("reads a valid stored cart", () => {
    const cart = cartWith(2);
    expect(parseStoredCart(JSON.stringify(cart))).toEqual(cart);
  });

  it.each([null, "", "{not json", "null", "[]", "42", '{"items":"nope"}'])("discards corrupted value %j", (raw) => {
    expect(parseStoredCart(raw)).toEqual(EMPTY_CART);
  });

  it("keeps only valid lines", () => {
    const good = { product: product(), quantity: 1 };
    const raw = JSON.stringify({
      items: [
        good,
        null,
        { product: product({ id: 2 }), quantity: 0 },
        { product: product({ id: 3 }), quantity: 1.5 },
        { product: product({ id: 4 }), quantity: "2" },
        { product: { ...product({ id: 5 }), priceCents: "10" }, quantity: 1 },
        { product: { id: 6, name: "x" }, quantity: 1 },
        { quantity: 1 },
      ],
      insuranceSelected: true,
    });
    expect(parseStoredCart(raw)).toEqual({ items: [good], insuranceSelected: true });
  });

  it("treats a non-boolean insurance flag as unselected", () => {
    expect(parseStoredCart(JSON.stringify({ items: [], insuranceSelected: "yes" })).insuranceSelected).toBe(false);
  });
});

describe("addToCart with a quantity that is not a number", () => {
  it("adds one unit instead of NaN", () => {
    const product = { id: 7, name: "Booster", priceCents: 599, stock: 5, image: null };
    const result = addToCart({ items: [], insuranceSelected: false }, product, Number.NaN);
    expect(result.ok && result.cart.items[0]?.quantity).toBe(1);
  });
});

describe("clampQuantity", () => {
  it("keeps the detail page quantity between 1 and the stock", () => {
    expect(clampQuantity(3, 5)).toBe(3);
    expect(clampQuantity(9, 5)).toBe(5);
    expect(clampQuantity(0, 5)).toBe(1);
    expect(clampQuantity(-4, 5)).toBe(1);
    expect(clampQuantity(2.7, 5)).toBe(2);
    expect(clampQuantity(Number.NaN, 5)).toBe(1);
    expect(clampQuantity(3, 0)).toBe(1);
  });
});

describe("cart updates", () => {
  const p = (overrides: Partial<CartProduct> = {}): CartProduct => ({ id: 1, name: "Display", priceCents: 10_000, stock: 3, image: null, ...overrides });
  const cart: Cart = { items: [{ product: p(), quantity: 2 }, { product: p({ id: 2, name: "Sleeves", priceCents: 999, stock: 10 }), quantity: 1 }], insuranceSelected: true };

  it("sets a quantity between 1 and the stock and resets the insurance", () => {
    expect(setQuantity(cart, 1, 3).items[0]?.quantity).toBe(3);
    expect(setQuantity(cart, 1, 9).items[0]?.quantity).toBe(3);
    expect(setQuantity(cart, 1, 0).items[0]?.quantity).toBe(1);
    expect(setQuantity(cart, 1, 1).insuranceSelected).toBe(false);
    expect(setQuantity(cart, 1, 2)).toBe(cart);
  });

  it("removes a line, sums the subtotal, chooses the insurance", () => {
    expect(removeFromCart(cart, 2).items.map((l) => l.product.id)).toEqual([1]);
    expect(removeFromCart(cart, 2).insuranceSelected).toBe(false);
    expect(cartSubtotalCents(cart)).toBe(20_999);
    expect(setInsurance(EMPTY_CART, true).insuranceSelected).toBe(true);
  });

  it("refreshes against the server: removed, reduced, repriced, and says so", () => {
    const result = refreshCart(cart, [p({ stock: 1, priceCents: 12_000 })]);
    expect(result.cart).toEqual({ items: [{ product: p({ stock: 1, priceCents: 12_000 }), quantity: 1 }], insuranceSelected: false });
    expect(result.changes).toEqual([
      { kind: "price", name: "Display", fromCents: 10_000, toCents: 12_000 },
      { kind: "reduced", name: "Display", from: 2, to: 1 },
      { kind: "removed", name: "Sleeves" },
    ]);
    const toast = describeCartChanges(result.changes, (c) => `${c / 100} €`);
    expect(toast).toEqual({
      title: "Panier mis à jour",
      description: "« Display » : le prix est passé de 100 € à 120 €. « Display » : quantité ramenée à 1 (stock disponible). « Sleeves » n'est plus disponible et a été retiré.",
    });
  });

  it("removes out-of-stock lines, keeps an unchanged cart as it is", () => {
    expect(refreshCart(cart, [p({ stock: 0 }), cart.items[1]!.product]).changes).toEqual([{ kind: "removed", name: "Display" }]);
    const same = refreshCart(cart, [cart.items[0]!.product, cart.items[1]!.product]);
    expect(same.cart).toBe(cart);
    expect(describeCartChanges(same.changes, String)).toBeNull();
  });

  it("refreshes product data without a change to report, keeping the insurance", () => {
    const renamed = refreshCart(cart, [p({ name: "Display EV", stock: 5 }), cart.items[1]!.product]);
    expect(renamed.changes).toEqual([]);
    expect(renamed.cart.items[0]?.product.name).toBe("Display EV");
    expect(renamed.cart.insuranceSelected).toBe(true);
  });
});
