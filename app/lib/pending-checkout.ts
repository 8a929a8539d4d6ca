import { useEffect } from "react";
import { useLocation } from "react-router";
import { PENDING_CHECKOUT_KEY } from "~/domain/browser-storage";

/**
 * The order this tab went to pay for. The browser's Back button from the payment page brings
 * the buyer back without the cancel address (/cart?canceled=…): the order would hold its units
 * for the whole reservation, and the cart, asking for them, would find its own units sold out
 * and drop them. So coming back to any page of the shop but the payment page, the address page
 * of a home delivery paid by store credit (the shop's own payment step, decision 060) and /merci
 * releases the order. The server refuses once it is paid (cancelCheckout expires the payment
 * session first), so a payment that went through is never undone.
 */
const KEY = PENDING_CHECKOUT_KEY;
let releasing: Promise<void> = Promise.resolve();

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null; // storage disabled: the order ends with its reservation, as before
  }
}

export function rememberPendingCheckout(orderId: string): void {
  try {
    storage()?.setItem(KEY, orderId);
  } catch {
    // full or disabled: see storage()
  }
}

/**
 * Releases the order this tab left unpaid, once; resolves when the server has answered (the
 * cart's check waits for it, or it would see the units still held).
 */
export function releaseAbandonedCheckout(): Promise<void> {
  const path = window.location.pathname;
  // Matches creditDeliveryPath (domain/delivery-address-form.ts), not imported: it would bring zod into every page.
  if (path.startsWith("/paiement/") || /^\/account\/orders\/[^/]+\/livraison$/.test(path)) return releasing;
  const orderId = storage()?.getItem(KEY);
  if (!orderId) return releasing;
  storage()?.removeItem(KEY);
  if (path === "/merci") return releasing; // paid, or being confirmed: nothing to release
  releasing = fetch("/api/checkout/cancel", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ orderId }),
  }).then(
    () => undefined,
    () => undefined,
  );
  return releasing;
}

/** The root's part: each page the tab arrives on, and a page the browser brings back from its cache. */
export function useReleaseAbandonedCheckout(): void {
  const { pathname } = useLocation();
  useEffect(() => {
    void releaseAbandonedCheckout();
  }, [pathname]);
  useEffect(() => {
    const restored = (event: PageTransitionEvent) => {
      if (event.persisted) void releaseAbandonedCheckout();
    };
    window.addEventListener("pageshow", restored);
    return () => window.removeEventListener("pageshow", restored);
  }, []);
}
