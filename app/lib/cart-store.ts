import { useSyncExternalStore } from "react";
import { type Cart, type CartProduct, EMPTY_CART, addToCart, parseStoredCart } from "~/domain/cart";

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

/** The cart in this browser, shared by every component and every tab. */
export function useCart(): Cart {
  return useSyncExternalStore(subscribe, read, () => EMPTY_CART);
}

export function addProductToCart(product: CartProduct, quantity = 1) {
  const result = addToCart(read(), product, quantity);
  if (result.ok) write(result.cart);
  return result;
}
