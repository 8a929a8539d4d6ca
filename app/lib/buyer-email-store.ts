import { useSyncExternalStore } from "react";

/**
 * The e-mail address a guest gives in the cart when a drop asks for one (its limit per customer
 * counts by it): asked for after the server's DROP_EMAIL answer, sent with the next checkout.
 * Kept in memory only: nothing personal is left in the browser's storage.
 */
/** The cart's field, where the checkout puts the focus when the server asks for the address. */
export const BUYER_EMAIL_FIELD_ID = "buyer-email";

type BuyerEmail = { needed: boolean; email: string; error: string | null };

let state: BuyerEmail = { needed: false, email: "", error: null };
const listeners = new Set<() => void>();

function update(next: Partial<BuyerEmail>) {
  state = { ...state, ...next };
  for (const listener of listeners) listener();
}

export function getBuyerEmail(): BuyerEmail {
  return state;
}

export function setBuyerEmail(email: string) {
  update({ email, error: null });
}

/** The server asked for it: the field shows, with the reason as its error. */
export function askBuyerEmail(error: string) {
  update({ needed: true, error });
}

const serverState: BuyerEmail = { needed: false, email: "", error: null };

export function useBuyerEmail(): BuyerEmail {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => state,
    () => serverState,
  );
}
