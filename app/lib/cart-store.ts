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
  setSignatureDelivery,
  setQuantity,
} from "~/domain/cart";
import type { DiscountRefusalReason } from "~/domain/discounts";
import { CART_CODE_KEY, CART_KEY } from "~/domain/browser-storage";
import { releaseAbandonedCheckout } from "./pending-checkout";
import { storedValue } from "./stored-value";

/** The cart, in localStorage "cart" (SPEC.md's format). */
const cart = storedValue(CART_KEY, parseStoredCart, EMPTY_CART);
const read = cart.read;
const write = cart.write;

/** The cart as stored now (outside React: event handlers). */
export const getCart = (): Cart => read();

/** The cart in this browser, shared by every component and every tab. */
export function useCart(): Cart {
  return cart.use();
}

export function addProductToCart(product: CartProduct, quantity = 1) {
  const result = addToCart(read(), product, quantity);
  if (result.ok) write(result.cart);
  return result;
}

/** The cart actions: each applies a rule of ~/domain/cart and stores the result (every tab follows). */
export const changeQuantity = (productId: number, quantity: number) => write(setQuantity(read(), productId, quantity));
export const removeLine = (productId: number) => write(removeFromCart(read(), productId));
export const clearCart = () => {
  forgetDiscountCode();
  write(emptyCart());
};
export const chooseSignatureDelivery = (selected: boolean) => write(setSignatureDelivery(read(), selected));

/**
 * Checks the cart against the server (GET /api/cart/products): prices, stock and visibility as
 * they are now. Returns what changed, or null when the server could not be reached (the cart is
 * kept as it is; the checkout checks again anyway).
 */
export async function refreshCartFromServer(): Promise<CartChange[] | null> {
  // Back from the payment page: this tab's own order must give its units back first.
  await releaseAbandonedCheckout();
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

/*
 * The discount code kept with the cart (its own key: the cart's format stays SPEC.md's). Only the
 * code is kept: what it takes off is asked from the server for the cart as it is. A refusal (the
 * preview's, or the checkout's when the code ran out meanwhile) takes the code off and is kept in
 * memory for the code field to show, marked, under the typed code.
 */
const CODE_KEY = CART_CODE_KEY;
/** `reason` "minimum": the cart was under the code's minimum (asked again as the cart grows). */
export type DiscountRefusal = { code: string; message: string; fromCheckout: boolean; reason?: DiscountRefusalReason };
let codeState: { code: string | null; refusal: DiscountRefusal | null } = { code: null, refusal: null };
let codeRead = false;
const codeListeners = new Set<() => void>();

function readCode() {
  if (!codeRead) {
    codeRead = true;
    try {
      codeState = { ...codeState, code: window.localStorage.getItem(CODE_KEY) || null };
    } catch {
      // Storage disabled: the code lives in memory for this page.
    }
  }
  return codeState;
}

function writeCode(next: typeof codeState) {
  codeState = next;
  try {
    if (next.code) window.localStorage.setItem(CODE_KEY, next.code);
    else window.localStorage.removeItem(CODE_KEY);
  } catch {
    // As above.
  }
  codeListeners.forEach((l) => l());
}

function subscribeCode(listener: () => void) {
  codeListeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key !== CODE_KEY) return;
    codeState = { ...codeState, code: event.newValue || null };
    listener();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    codeListeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

const NO_CODE = { code: null, refusal: null };

/** The code applied to the cart (null: none) and the last refusal, shared by every component. */
export function useDiscountCode(): { code: string | null; refusal: DiscountRefusal | null } {
  return useSyncExternalStore(subscribeCode, readCode, () => NO_CODE);
}

export const getDiscountCode = (): string | null => readCode().code;
/** The server accepted the code for this cart. */
export const applyDiscountCode = (code: string) => writeCode({ code, refusal: null });
/** The customer took the code off. */
export const forgetDiscountCode = () => writeCode({ code: null, refusal: null });
/** The server refused the code: taken off, and the reason kept for the field. */
export const refuseDiscountCode = (refusal: DiscountRefusal) => writeCode({ code: null, refusal });
