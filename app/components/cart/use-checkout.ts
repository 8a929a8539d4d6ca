import { useSyncExternalStore } from "react";
import { toast } from "~/components/ui/toaster";
import type { CheckoutFailure, CheckoutSuccess } from "~/domain/checkout";
import { describeCartChanges } from "~/domain/cart";
import { getCart, getDiscountCode, refreshCartFromServer, refuseDiscountCode } from "~/lib/cart-store";
import { askBuyerEmail, BUYER_EMAIL_FIELD_ID, getBuyerEmail } from "~/lib/buyer-email-store";
import { rememberPendingCheckout } from "~/lib/pending-checkout";
import { getDelivery, setDeliveryErrors } from "~/lib/delivery-store";
import type { BusinessPurchaseInput } from "~/domain/business-purchase";
import type { DeliveryState } from "./use-delivery";
import { STORE_CREDIT_USE_ID } from "./store-credit-ids";
import { announceCartChanges, refreshCartAndAnnounce } from "./cart-notices";
import {
  BELOW_MINIMUM_ERROR,
  DEFAULT_CHECKOUT_ERROR,
  EMPTY_CART_ERROR,
  PROGRESS_EVERY_MS,
  PROGRESS_START,
  PROVIDER_ERROR,
  type PaymentProviderName,
  checkoutMessage,
  nextProgress,
} from "~/domain/checkout-rules";

export type { PaymentProviderName };

/** SPEC.md section 8's texts. */
const STOCK_TEXT = /plus disponible|victime de son succès/;
const OUT_OF_STOCK_DETAILS =
  "Ce produit a été victime de son succès : il vient d'être pris par d'autres collectionneurs. Restez à l'affût, il pourrait revenir bientôt !";
const ADDRESS_REMINDER = {
  title: "Adresse de livraison",
  description:
    "Tous les champs d'adresse sont obligatoires pour la livraison. Si vous choisissez un point relais, indiquez l'adresse complète du point relais.",
};
const CHOOSE_DELIVERY = { title: "Mode de livraison", description: "Choisissez votre mode de livraison dans le panier avant de payer." };

/** The cart's delivery section: where a missing or refused delivery choice is made. */
function showDeliveryChoice() {
  if (window.location.pathname === "/cart") document.getElementById("livraison")?.focus();
  else window.location.assign("/cart#livraison");
}

type DeliveryBody = { methodId: number; country: string; relayPoint?: Record<string, string> };

/**
 * The delivery to send: the cart page's selection (checked with the shared zod schema, loaded on
 * demand so the cart's first load carries no zod), or the stored choice from the header's panel.
 * Null: none to send, the buyer is shown where to choose (and why).
 */
async function deliveryToSend(delivery: DeliveryState | undefined): Promise<DeliveryBody | null> {
  const stored = getDelivery();
  const methodId = delivery ? delivery.selected?.methodId : (stored.methodId ?? undefined);
  if (methodId === undefined) {
    toast.info(CHOOSE_DELIVERY.title, { description: CHOOSE_DELIVERY.description });
    showDeliveryChoice();
    return null;
  }
  const body: DeliveryBody = { methodId, country: stored.country };
  if (delivery && delivery.selected?.kind !== "relay") return body;
  if (!delivery && !Object.values(stored.relayPoint).some(Boolean)) return body;
  const { deliveryChoiceSchema, fieldErrorsOf } = await import("~/domain/checkout");
  const parsed = deliveryChoiceSchema.safeParse({ ...body, relayPoint: stored.relayPoint });
  if (!parsed.success) {
    setDeliveryErrors(fieldErrorsOf(parsed.error));
    toast.error("Point relais incomplet", { description: "Indiquez le nom, l'identifiant et l'adresse complète du point relais." });
    showDeliveryChoice();
    return null;
  }
  setDeliveryErrors({});
  return { ...body, relayPoint: parsed.data.relayPoint };
}

/** The company's field named by an error key ("business.siren"), focused for the buyer to fix it. */
async function showBusinessErrors(errors: Record<string, string>) {
  const { businessFieldId, setBusinessErrors } = await import("~/lib/business-purchase-store");
  const business = Object.fromEntries(Object.entries(errors).filter(([key]) => key.startsWith("business.")));
  setBusinessErrors(business);
  const first = Object.keys(business)[0]?.slice("business.".length) as keyof BusinessPurchaseInput | undefined;
  if (first && window.location.pathname === "/cart") window.setTimeout(() => document.getElementById(businessFieldId(first))?.focus(), 0);
  else if (first) window.location.assign("/cart");
}

/**
 * The company of an "Achat professionnel" to send, checked first with the server's schema (loaded
 * on demand, with jsvat); undefined for a consumer, null when a field is wrong (shown beside it).
 */
async function businessToSend(): Promise<BusinessPurchaseInput | undefined | null> {
  // The store comes with the cart's "Achat professionnel" chunk: not loaded, nothing ticked.
  const store = await import("~/lib/business-purchase-store");
  const { selected, values } = store.getBusinessPurchase();
  if (!selected) return undefined;
  const [{ businessPurchaseSchema }, { fieldErrorsOf }] = await Promise.all([import("~/domain/business-purchase"), import("~/domain/checkout")]);
  const parsed = businessPurchaseSchema.safeParse(values);
  if (parsed.success) {
    store.setBusinessErrors({});
    return values;
  }
  const errors = Object.fromEntries(Object.entries(fieldErrorsOf(parsed.error)).map(([key, message]) => [`business.${key}`, message]));
  await showBusinessErrors(errors);
  toast.error("Achat professionnel", { description: Object.values(errors)[0] });
  return null;
}

/** SPEC.md section 9: the fallback redirect after 1 s. */
const REDIRECT_FALLBACK_MS = 1_000;

/*
 * One checkout at a time for the whole page: /cart and the header's cart panel show the same
 * progress, and a second press anywhere does nothing while one runs.
 */
let progress: number | null = null;
let ticker: number | undefined;
const listeners = new Set<() => void>();

function setProgress(next: number | null) {
  progress = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function startProgress() {
  setProgress(PROGRESS_START);
  ticker = window.setInterval(() => progress !== null && setProgress(nextProgress(progress)), PROGRESS_EVERY_MS);
}

/** Back to idle (an error, a changed cart). */
function stopProgress() {
  window.clearInterval(ticker);
  setProgress(null);
}

/**
 * Goes to the payment page, with SPEC.md's fallbacks: still here after 1 s, `location.href`;
 * if that throws, a new tab. Leaving the page cancels the fallback (it must not fire when the
 * browser comes back from the payment page through its back/forward cache), and coming back
 * that way shows the cart idle again rather than a bar stuck at 100 %.
 */
function redirectTo(url: string) {
  const fallback = window.setTimeout(() => {
    try {
      window.location.href = url;
    } catch {
      window.open(url, "_blank", "noopener");
    }
  }, REDIRECT_FALLBACK_MS);
  window.addEventListener("pagehide", () => window.clearTimeout(fallback), { once: true });
  window.addEventListener(
    "pageshow",
    (event) => {
      if (event.persisted) {
        stopProgress();
        // Back from the payment page: its order is released (the root's hook), then the cart checked.
        void refreshCartAndAnnounce();
      }
    },
    { once: true },
  );
  window.location.assign(url);
}

/**
 * The checkout as the browser runs it (SPEC.md sections 4, 5, 8 and 9): the cart is checked
 * against the server first (a line removed or lowered stops here, so the customer sees the new
 * total before paying), then POST /api/checkout with ids, quantities and the applied discount
 * code only (the server prices everything, computes the discount and knows the signed-in
 * customer's e-mail); the progress bar runs meanwhile; the answers become SPEC.md's toasts.
 */
export async function startCheckout(delivery?: DeliveryState): Promise<void> {
  if (progress !== null) return;
  if (getCart().items.length === 0) {
    toast.error(EMPTY_CART_ERROR.error, { description: EMPTY_CART_ERROR.details });
    return;
  }
  const chosen = await deliveryToSend(delivery);
  if (!chosen) return;
  const business = await businessToSend();
  if (business === null) return;
  // The field's module is loaded when the field is shown: its reading comes with it.
  const storeCreditCents = document.getElementById(STORE_CREDIT_USE_ID) ? (await import("./store-credit-field")).storeCreditToSend() : 0;
  if (storeCreditCents === null) return;
  startProgress();
  try {
    await run(chosen, business, storeCreditCents);
  } catch (error) {
    console.error("checkout:", error);
    stopProgress();
    toast.error("Erreur", { description: DEFAULT_CHECKOUT_ERROR });
  }
}

async function run(delivery: DeliveryBody, business: BusinessPurchaseInput | undefined, storeCreditCents: number) {
  // A line removed or lowered, or a new price: what the customer saw is no longer what they
  // would pay, so the new total is shown first. (Unreachable server: it checks again anyway.)
  const changes = await refreshCartFromServer();
  if (changes && changes.length > 0) {
    stopProgress();
    // A line gone or lowered is stock taken by others (SPEC.md section 8: Produit indisponible, in red).
    const taken = changes.some((change) => change.kind !== "price");
    if (taken) toast.warning("Produit indisponible", { description: `${describeCartChanges(changes)!.description} ${OUT_OF_STOCK_DETAILS}`, duration: 10_000 });
    else announceCartChanges(changes, "Vérifiez votre panier avant de payer.");
    return;
  }
  const cart = getCart();
  if (cart.items.length === 0) {
    stopProgress();
    toast.error(EMPTY_CART_ERROR.error, { description: EMPTY_CART_ERROR.details });
    return;
  }
  if (!delivery.relayPoint) toast.info(ADDRESS_REMINDER.title, { description: ADDRESS_REMINDER.description });

  let status = 0;
  let answer: Partial<CheckoutSuccess & CheckoutFailure> = {};
  const discountCode = getDiscountCode();
  const buyerEmail = getBuyerEmail().email.trim();
  try {
    const response = await fetch("/api/checkout", {
      method: "POST",
      // One key per attempt: a proxy that sends the post again to another instance gets this order back, not a second one.
      headers: { "Content-Type": "application/json", Accept: "application/json", "Idempotency-Key": attemptKey() },
      body: JSON.stringify({
        items: cart.items.map((line) => ({ productId: line.product.id, quantity: line.quantity })),
        insuranceSelected: cart.insuranceSelected,
        ...(discountCode ? { discountCode } : {}),
        ...(buyerEmail ? { email: buyerEmail } : {}),
        delivery,
        ...(business ? { business } : {}),
        ...(storeCreditCents > 0 ? { storeCreditCents } : {}),
      }),
    });
    status = response.status;
    answer = ((await response.json().catch(() => null)) ?? {}) as typeof answer;
  } catch {
    // Offline: no answer to show, SPEC.md's default text.
  }

  if (status === 200 && typeof answer.url === "string" && answer.url) {
    if (typeof answer.orderId === "string") rememberPendingCheckout(answer.orderId);
    window.clearInterval(ticker);
    setProgress(100);
    // The bar shows 100 % for a moment (and the last message) before the browser leaves.
    redirectTo(answer.url);
    return;
  }
  stopProgress();
  if (status === 200) {
    toast.error("Erreur", { description: PROVIDER_ERROR });
    return;
  }
  if (answer.code === "DISCOUNT" && discountCode) {
    // The code ran out or changed since it was applied: taken off, its field says why.
    const message = answer.details ?? answer.error ?? DEFAULT_CHECKOUT_ERROR;
    refuseDiscountCode({ code: discountCode, message, fromCheckout: true });
    toast.error("Code promo refusé", { description: `${message} Le code a été retiré\u00a0: vérifiez le total avant de payer.`, duration: 10_000 });
    return;
  }
  if (answer.code === "SHIPPING" || Object.keys(answer.fieldErrors ?? {}).some((key) => key.startsWith("delivery"))) {
    // A method that no longer fits (country, weight), or a relay point the server refused.
    const fields = Object.fromEntries(Object.entries(answer.fieldErrors ?? {}).map(([key, message]) => [key.replace(/^delivery\./, ""), message]));
    setDeliveryErrors(fields);
    toast.error(answer.error ?? "Livraison impossible", { description: answer.details ?? CHOOSE_DELIVERY.description, duration: 10_000 });
    showDeliveryChoice();
    return;
  }
  if (answer.code === "DROP_EMAIL" || answer.fieldErrors?.email) {
    // A drop counts its limit per customer by the address: the cart asks for it.
    const message = answer.fieldErrors?.email ?? answer.details ?? DEFAULT_CHECKOUT_ERROR;
    askBuyerEmail(message);
    toast.error(answer.error ?? "Adresse e-mail requise", { description: message, duration: 10_000 });
    if (window.location.pathname === "/cart") window.setTimeout(() => document.getElementById(BUYER_EMAIL_FIELD_ID)?.focus(), 0);
    else window.location.assign("/cart");
    return;
  }
  if (answer.code?.startsWith("DROP_")) {
    // A drop's limit per customer, its single unpaid order, its account, its network: the answer names it.
    toast.error(answer.error ?? "Erreur", { description: answer.details ?? DEFAULT_CHECKOUT_ERROR, duration: 10_000 });
    return;
  }
  if (answer.code === "BUSINESS_OFF") {
    // The seller stopped selling to professionals since the cart was drawn: the box goes with the offer.
    (await import("~/lib/business-purchase-store")).selectBusinessPurchase(false);
    toast.error(answer.error ?? "Achat professionnel indisponible", { description: answer.details ?? DEFAULT_CHECKOUT_ERROR, duration: 10_000 });
    return;
  }
  if (answer.code === "BUSINESS") {
    await showBusinessErrors(answer.fieldErrors ?? {});
    toast.error(answer.error ?? "Achat professionnel", { description: answer.details ?? DEFAULT_CHECKOUT_ERROR, duration: 10_000 });
    return;
  }
  if (answer.code === "MINIMUM") {
    toast.error(BELOW_MINIMUM_ERROR.error, { description: BELOW_MINIMUM_ERROR.details });
    return;
  }
  const text = [answer.error, answer.details].filter(Boolean).join(" ");
  if (answer.code === "OUT_OF_STOCK" || answer.code === "UNAVAILABLE" || STOCK_TEXT.test(text)) {
    toast.warning("Produit indisponible", { description: answer.details ?? OUT_OF_STOCK_DETAILS, duration: 10_000 });
    await refreshCartFromServer();
    return;
  }
  toast.error("Erreur", { description: text || DEFAULT_CHECKOUT_ERROR });
}

/** The checkout's state for a button and its progress bar; `provider` names the payment page. */
export function useCheckout(provider: PaymentProviderName) {
  const current = useSyncExternalStore(
    subscribe,
    () => progress,
    () => null,
  );
  return {
    progress: current,
    busy: current !== null,
    message: current === null ? null : checkoutMessage(current, provider),
    start: startCheckout,
  };
}

/** 32 random hex digits (getRandomValues works outside secure contexts too, unlike randomUUID). */
function attemptKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, "0")).join("");
}
