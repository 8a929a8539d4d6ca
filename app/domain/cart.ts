/**
 * The cart kept in the browser (localStorage "cart"). The server re-checks everything at
 * checkout; these rules only keep what the customer sees honest.
 */
export type CartProduct = { id: number; name: string; priceCents: number; stock: number; image: string | null };
export type CartLine = { product: CartProduct; quantity: number };
export type Cart = { items: CartLine[]; insuranceSelected: boolean };

export const EMPTY_CART: Cart = { items: [], insuranceSelected: false };

export type AddResult =
  | { ok: true; cart: Cart; added: number }
  | { ok: false; cart: Cart; title: string; description: string };

/** A quantity the customer may pick: a whole number from 1 to the stock (1 when out of stock). */
export function clampQuantity(quantity: number, stock: number): number {
  const whole = Number.isFinite(quantity) ? Math.floor(quantity) : 1;
  return Math.max(1, Math.min(whole, Math.max(1, stock)));
}

export function addToCart(cart: Cart, product: CartProduct, quantity = 1): AddResult {
  if (product.stock <= 0) {
    return { ok: false, cart, title: "Produit indisponible", description: "Ce produit est en rupture de stock." };
  }
  const existing = cart.items.find((line) => line.product.id === product.id);
  const inCart = existing?.quantity ?? 0;
  if (inCart >= product.stock) {
    return {
      ok: false,
      cart,
      title: "Quantité maximale atteinte",
      description: `Vous avez déjà ${inCart} unités de ce produit dans votre panier.`,
    };
  }
  const wanted = Number.isFinite(quantity) ? Math.max(1, Math.floor(quantity)) : 1;
  const nextQuantity = Math.min(product.stock, inCart + wanted);
  const items = existing
    ? cart.items.map((line) => (line.product.id === product.id ? { product, quantity: nextQuantity } : line))
    : [...cart.items, { product, quantity: nextQuantity }];
  // The insurance choice is reset whenever the cart items change (SPEC.md section 4).
  return { ok: true, cart: { items, insuranceSelected: false }, added: nextQuantity - inCart };
}

export function cartCount(cart: Cart): number {
  return cart.items.reduce((sum, line) => sum + line.quantity, 0);
}

/** Reads a stored cart; anything corrupted is discarded (SPEC.md section 4). */
export function parseStoredCart(raw: string | null): Cart {
  if (!raw) return EMPTY_CART;
  try {
    const value = JSON.parse(raw) as Partial<Cart>;
    if (!Array.isArray(value.items)) return EMPTY_CART;
    const items = value.items.filter(
      (line): line is CartLine =>
        typeof line?.quantity === "number" &&
        Number.isInteger(line.quantity) &&
        line.quantity > 0 &&
        typeof line.product?.id === "number" &&
        typeof line.product?.name === "string" &&
        typeof line.product?.priceCents === "number" &&
        typeof line.product?.stock === "number",
    );
    return { items, insuranceSelected: value.insuranceSelected === true };
  } catch {
    return EMPTY_CART;
  }
}
