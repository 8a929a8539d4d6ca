import { formatEuros } from "./money";

/**
 * The cart kept in the browser (localStorage "cart"). The server re-checks everything at
 * checkout; these rules only keep what the customer sees honest.
 */
/**
 * `weightGrams`: the product's delivery weight, known once the cart has been checked against the server.
 * `preorder`: an open pre-order's dates, as the server words them (domain/preorder-dates.ts).
 */
export type CartProduct = { id: number; name: string; priceCents: number; stock: number; image: string | null; weightGrams?: number; preorder?: string };
export type CartLine = { product: CartProduct; quantity: number };
export type Cart = { items: CartLine[]; insuranceSelected: boolean };

export const EMPTY_CART: Cart = { items: [], insuranceSelected: false };

/** French typography (DESIGN.md): a no-break space inside « » and before « : ; ! ? ». */
const NBSP = "\u00a0";

export type AddResult =
  /** `capped`: the stock stopped it short of the quantity asked. */
  | { ok: true; cart: Cart; added: number; capped: boolean }
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
  // The signature-delivery choice is reset whenever the cart items change (SPEC.md section 4).
  return { ok: true, cart: { items, insuranceSelected: false }, added: nextQuantity - inCart, capped: nextQuantity - inCart < wanted };
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

export function cartSubtotalCents(cart: Cart): number {
  return cart.items.reduce((sum, line) => sum + line.product.priceCents * line.quantity, 0);
}

/** A new quantity for a line, kept between 1 and the stock; the signature-delivery choice resets. */
export function setQuantity(cart: Cart, productId: number, quantity: number): Cart {
  const line = cart.items.find((l) => l.product.id === productId);
  if (!line) return cart;
  const next = clampQuantity(quantity, line.product.stock);
  if (next === line.quantity) return cart;
  return { items: cart.items.map((l) => (l === line ? { ...l, quantity: next } : l)), insuranceSelected: false };
}

export function removeFromCart(cart: Cart, productId: number): Cart {
  if (!cart.items.some((l) => l.product.id === productId)) return cart;
  return { items: cart.items.filter((l) => l.product.id !== productId), insuranceSelected: false };
}

/** An empty cart (after a paid order, or "Vider le panier"). */
export function clearCart(): Cart {
  return EMPTY_CART;
}

/**
 * The "Remise contre signature" choice (`insuranceSelected`: SPEC.md's stored name, kept so carts
 * already in browsers keep reading; decision 044); only meaningful while there are items.
 */
export function setSignatureDelivery(cart: Cart, selected: boolean): Cart {
  const insuranceSelected = selected && cart.items.length > 0;
  return insuranceSelected === cart.insuranceSelected ? cart : { ...cart, insuranceSelected };
}

/** What a refresh changed, per product (several entries when both its price and quantity did). */
export type CartChange =
  | { kind: "removed"; productId: number; name: string }
  | { kind: "reduced"; productId: number; name: string; from: number; to: number }
  | { kind: "price"; productId: number; name: string; fromCents: number; toCents: number };

/**
 * The cart checked against the server's products (SPEC.md section 4): lines whose product is
 * gone or out of stock are removed, quantities above the stock are lowered to it, and product
 * data (name, price, image, stock) is refreshed. The signature-delivery choice resets when the items
 * change.
 */
export function refreshCart(cart: Cart, fresh: CartProduct[]): { cart: Cart; changes: CartChange[] } {
  const byId = new Map(fresh.map((p) => [p.id, p]));
  const changes: CartChange[] = [];
  const items: CartLine[] = [];
  for (const line of cart.items) {
    const product = byId.get(line.product.id);
    if (!product || product.stock <= 0) {
      changes.push({ kind: "removed", productId: line.product.id, name: product?.name ?? line.product.name });
      continue;
    }
    if (product.priceCents !== line.product.priceCents) {
      changes.push({ kind: "price", productId: product.id, name: product.name, fromCents: line.product.priceCents, toCents: product.priceCents });
    }
    const quantity = Math.min(line.quantity, product.stock);
    if (quantity < line.quantity) changes.push({ kind: "reduced", productId: product.id, name: product.name, from: line.quantity, to: quantity });
    items.push({ product, quantity });
  }
  const same = changes.length === 0 && items.every((l, i) => JSON.stringify(l) === JSON.stringify(cart.items[i]));
  if (same) return { cart, changes };
  return { cart: { items, insuranceSelected: changes.length > 0 ? false : cart.insuranceSelected }, changes };
}

/**
 * The toast that says what a refresh changed, in French (title "Panier mis à jour", one
 * sentence per change); null when nothing the customer should know about changed.
 */
export function describeCartChanges(changes: CartChange[], format: (cents: number) => string = formatEuros): { title: string; description: string } | null {
  if (changes.length === 0) return null;
  const quoted = (name: string) => `«${NBSP}${name}${NBSP}»`;
  const sentences = changes.map((change) => {
    switch (change.kind) {
      case "removed":
        return `${quoted(change.name)} n'est plus disponible et a été retiré.`;
      case "reduced":
        return `${quoted(change.name)}${NBSP}: quantité ramenée à ${change.to} (stock disponible).`;
      case "price":
        return `${quoted(change.name)}${NBSP}: le prix est passé de ${format(change.fromCents)} à ${format(change.toCents)}.`;
    }
  });
  return { title: "Panier mis à jour", description: sentences.join(" ") };
}
