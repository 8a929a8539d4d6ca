import { describe, expect, it } from "vitest";
import {
  type Cart,
  type CartProduct,
  EMPTY_CART,
  addToCart,
  cartCount,
  cartSubtotalCents,
  clampQuantity,
  clearCart,
  describeCartChanges,
  parseStoredCart,
  refreshCart,
  removeFromCart,
  setSignatureDelivery,
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
  const sleeves = p({ id: 2, name: "Sleeves", priceCents: 999, stock: 10 });
  const cart: Cart = { items: [{ product: p(), quantity: 2 }, { product: sleeves, quantity: 1 }], insuranceSelected: true };

  describe("setQuantity", () => {
    it("keeps the quantity between 1 and the stock", () => {
      expect(setQuantity(cart, 1, 3).items[0]?.quantity).toBe(3);
      expect(setQuantity(cart, 1, 9).items[0]?.quantity).toBe(3);
      expect(setQuantity(cart, 1, 0).items[0]?.quantity).toBe(1);
      expect(setQuantity(cart, 1, -5).items[0]?.quantity).toBe(1);
      expect(setQuantity(cart, 1, 2.9).items[0]?.quantity).toBe(2);
      expect(setQuantity(cart, 1, Number.NaN).items[0]?.quantity).toBe(1);
    });

    it("resets the insurance when the quantity changes, and only then", () => {
      expect(setQuantity(cart, 1, 1).insuranceSelected).toBe(false);
      expect(setQuantity(cart, 1, 2)).toBe(cart);
      expect(setQuantity(cart, 1, 7).insuranceSelected).toBe(false);
      expect(setQuantity({ ...cart, items: [{ product: p(), quantity: 3 }] }, 1, 7).insuranceSelected).toBe(true);
    });

    it("leaves other lines alone and ignores an unknown product", () => {
      expect(setQuantity(cart, 1, 3).items[1]).toBe(cart.items[1]);
      expect(setQuantity(cart, 99, 3)).toBe(cart);
    });

    it("does not mutate the given cart", () => {
      const copy = structuredClone(cart);
      setQuantity(cart, 1, 1);
      expect(cart).toEqual(copy);
    });
  });

  describe("removeFromCart, clearCart", () => {
    it("removes a line and resets the insurance", () => {
      const after = removeFromCart(cart, 2);
      expect(after.items.map((l) => l.product.id)).toEqual([1]);
      expect(after.insuranceSelected).toBe(false);
      expect(cart.items).toHaveLength(2);
    });

    it("ignores an unknown product", () => {
      expect(removeFromCart(cart, 99)).toBe(cart);
    });

    it("empties the cart", () => {
      expect(clearCart()).toEqual({ items: [], insuranceSelected: false });
      expect(removeFromCart(removeFromCart(cart, 1), 2)).toEqual(EMPTY_CART);
    });
  });

  describe("cartSubtotalCents, setSignatureDelivery", () => {
    it("sums unit price × quantity in cents", () => {
      expect(cartSubtotalCents(EMPTY_CART)).toBe(0);
      expect(cartSubtotalCents(cart)).toBe(20_999);
    });

    it("chooses the insurance on a cart with items, never on an empty one", () => {
      const plain = { ...cart, insuranceSelected: false };
      expect(setSignatureDelivery(plain, true).insuranceSelected).toBe(true);
      expect(setSignatureDelivery(cart, false).insuranceSelected).toBe(false);
      expect(setSignatureDelivery(cart, true)).toBe(cart);
      expect(setSignatureDelivery(plain, true).items).toBe(plain.items);
      expect(setSignatureDelivery(EMPTY_CART, true)).toBe(EMPTY_CART);
    });
  });

  describe("refreshCart", () => {
    it("removes, reduces, reprices and says so", () => {
      const result = refreshCart(cart, [p({ stock: 1, priceCents: 12_000 })]);
      expect(result.cart).toEqual({ items: [{ product: p({ stock: 1, priceCents: 12_000 }), quantity: 1 }], insuranceSelected: false });
      expect(result.changes).toEqual([
        { kind: "price", productId: 1, name: "Display", fromCents: 10_000, toCents: 12_000 },
        { kind: "reduced", productId: 1, name: "Display", from: 2, to: 1 },
        { kind: "removed", productId: 2, name: "Sleeves" },
      ]);
    });

    it("removes a line whose product is out of stock, under its current name", () => {
      const result = refreshCart(cart, [p({ stock: 0, name: "Display EV" }), sleeves]);
      expect(result.changes).toEqual([{ kind: "removed", productId: 1, name: "Display EV" }]);
      expect(result.cart.items.map((l) => l.product.id)).toEqual([2]);
      expect(result.cart.insuranceSelected).toBe(false);
    });

    it("removes a line whose product is missing from the answer (deleted, offline)", () => {
      const result = refreshCart(cart, [sleeves]);
      expect(result.changes).toEqual([{ kind: "removed", productId: 1, name: "Display" }]);
      expect(refreshCart(cart, []).cart).toEqual(EMPTY_CART);
    });

    it("reduces a quantity above the stock to the stock", () => {
      const result = refreshCart(cart, [p({ stock: 1 }), sleeves]);
      expect(result.changes).toEqual([{ kind: "reduced", productId: 1, name: "Display", from: 2, to: 1 }]);
      expect(result.cart.items[0]).toEqual({ product: p({ stock: 1 }), quantity: 1 });
    });

    it("resets the insurance on a price change alone (the total changed)", () => {
      const result = refreshCart(cart, [p({ priceCents: 9_000 }), sleeves]);
      expect(result.changes).toEqual([{ kind: "price", productId: 1, name: "Display", fromCents: 10_000, toCents: 9_000 }]);
      expect(result.cart.insuranceSelected).toBe(false);
      expect(result.cart.items[0]?.quantity).toBe(2);
    });

    it("keeps an unchanged cart as the same object, with nothing to say", () => {
      const same = refreshCart(cart, [p(), sleeves]);
      expect(same.cart).toBe(cart);
      expect(same.changes).toEqual([]);
      expect(refreshCart(EMPTY_CART, [p()]).cart).toBe(EMPTY_CART);
    });

    it("refreshes product data (name, image, stock) without a change to report, keeping the insurance", () => {
      const fresh = p({ name: "Display EV", stock: 5, image: "/uploads/display.webp" });
      const result = refreshCart(cart, [fresh, sleeves]);
      expect(result.changes).toEqual([]);
      expect(result.cart.items[0]).toEqual({ product: fresh, quantity: 2 });
      expect(result.cart.insuranceSelected).toBe(true);
    });

    it("keeps the order of the lines and ignores products that are not in the cart", () => {
      const result = refreshCart(cart, [p({ id: 3, name: "Autre" }), sleeves, p()]);
      expect(result.cart.items.map((l) => l.product.id)).toEqual([1, 2]);
    });

    it("does not mutate the given cart", () => {
      const copy = structuredClone(cart);
      refreshCart(cart, [p({ stock: 1, priceCents: 1 })]);
      expect(cart).toEqual(copy);
    });
  });

  describe("describeCartChanges", () => {
    const nb = (text: string) => text.replace(/ /g, "\u00a0");

    it("names each product, in French, with French typography", () => {
      const changes = refreshCart(cart, [p({ stock: 1, priceCents: 12_000 })]).changes;
      expect(describeCartChanges(changes, (c) => `${c / 100} €`)).toEqual({
        title: "Panier mis à jour",
        description: `${nb("« Display » :")} le prix est passé de 100 € à 120 €. ${nb("« Display » :")} quantité ramenée à 1 (stock disponible). ${nb("« Sleeves »")} n'est plus disponible et a été retiré.`,
      });
    });

    it("formats prices as euros by default", () => {
      const message = describeCartChanges([{ kind: "price", productId: 9, name: "Z", fromCents: 1_200, toCents: 1_400 }]);
      expect(message?.description.replace(/\s/g, " ")).toBe("« Z » : le prix est passé de 12,00 € à 14,00 €.");
    });

    it("says the quantity was brought down to the stock", () => {
      const message = describeCartChanges([{ kind: "reduced", productId: 9, name: "Y", from: 4, to: 2 }]);
      expect(message?.description.replace(/\s/g, " ")).toBe("« Y » : quantité ramenée à 2 (stock disponible).");
    });

    it("is null when nothing changed", () => {
      expect(describeCartChanges([])).toBeNull();
    });
  });
});
