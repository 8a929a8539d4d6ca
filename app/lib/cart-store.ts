import { useSyncExternalStore } from "react";
import {
  type Cart,
  type CartChange,
  type CartProduct,
  EMPTY_CART,
  addToCart,
  clearCart as emptyCart,
  parseStoredCart,
  refreshCart,
  removeFromCart,
  setInsurance,
  setQuantity,
} from "~/domain/cart";

const KEY = "cart";
const listeners = new Set<() => void>();
let cached: { raw: string | null; cart: Cart } = { raw: null, cart: EMPTY_CART };

function read(): Cart {
  let raw: string | null = null;
  try {
    raw = window.localStorage.getItem(KEY);
  } catch {
    return EMPTY_CART;
  }
  if (raw !== cached.raw) cached = { raw, cart: parseStoredCart(raw) };
  return cached.cart;
}

function write(cart: Cart) {
  try {
    window.localStorage.setItem(KEY, JSON.stringify(cart));
  } catch {
    // Storage full or disabled: the cart lives in memory for this page.
    cached = { raw: null, cart };
  }
  listeners.forEach((l) => l());
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => event.key === KEY && listener();
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

/** The cart as stored now (outside React: event handlers). */
export const getCart = (): Cart => read();

/** The cart in this browser, shared by every component and every tab. */
export function useCart(): Cart {
  return useSyncExternalStore(subscribe, read, () => EMPTY_CART);
}

export function addProductToCart(product: CartProduct, quantity = 1) {
  const result = addToCart(read(), product, quantity);
  if (result.ok) write(result.cart);
  return result;
}

/** The cart actions: each applies a rule of ~/domain/cart and stores the result (every tab follows). */
export const changeQuantity = (productId: number, quantity: number) => write(setQuantity(read(), productId, quantity));
export const removeLine = (productId: number) => write(removeFromCart(read(), productId));
export const clearCart = () => write(emptyCart());
export const chooseInsurance = (selected: boolean) => write(setInsurance(read(), selected));

/**
 * Checks the cart against the server (GET /api/cart/products): prices, stock and visibility as
 * they are now. Returns what changed, or null when the server could not be reached (the cart is
 * kept as it is; the checkout checks again anyway).
 */
export async function refreshCartFromServer(): Promise<CartChange[] | null> {
  const before = read();
  if (before.items.length === 0) return [];
  const ids = before.items.map((line) => line.product.id).join(",");
  let products: CartProduct[];
  try {
    const response = await fetch(`/api/cart/products?ids=${ids}`, { headers: { Accept: "application/json" } });
    if (!response.ok) return null;
    products = ((await response.json()) as { products: CartProduct[] }).products;
  } catch {
    return null;
  }
  // Applied to the cart as it is now: a line added meanwhile was not asked about, and stays.
  const asked = new Set(before.items.map((line) => line.product.id));
  const current = read();
  const unasked = current.items.filter((line) => !asked.has(line.product.id)).map((line) => line.product);
  const { cart, changes } = refreshCart(current, [...products, ...unasked]);
  if (cart !== read()) write(cart);
  return changes;
}
