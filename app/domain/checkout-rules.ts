/**
 * The checkout's texts and browser-side rules (SPEC.md sections 4, 8 and 9). Kept apart from
 * the request schema (./checkout.ts, zod) so that /cart and the header's cart panel do not load
 * zod (about 24 KB gzipped).
 */
export type PaymentProviderName = "test" | "stripe";

export const EMPTY_CART_ERROR = { error: "Panier vide", details: "Ajoutez des articles à votre panier avant de passer à la caisse." } as const;
export const PROVIDER_ERROR = "Impossible de créer la session de paiement.";
export const DEFAULT_CHECKOUT_ERROR = "Une erreur est survenue lors de la création de la session de paiement.";

/**
 * The smallest total a card payment takes: Stripe refuses a session under 0,50 € (EUR), and the
 * test page holds to the same rule. A cart of a few common cards can be under it. An order a code
 * makes free (0 €) is not a card payment under the minimum: it goes on as before.
 */
export const MIN_CARD_PAYMENT_CENTS = 50;

export function isBelowCardMinimum(totalCents: number): boolean {
  return totalCents > 0 && totalCents < MIN_CARD_PAYMENT_CENTS;
}
export const BELOW_MINIMUM_ERROR = {
  error: "Montant trop faible",
  details: "Le paiement par carte demande une commande d'au moins 0,50\u00a0€\u00a0: ajoutez un article à votre panier.",
} as const;

/** The progress bar: starts at 10, +10 every 300 ms, at most 90 until the answer, 100 on success. */
export const PROGRESS_START = 10;
export const PROGRESS_EVERY_MS = 300;
const PROGRESS_STEP = 10;
const PROGRESS_CAP = 90;

export function nextProgress(progress: number): number {
  return Math.min(PROGRESS_CAP, progress + PROGRESS_STEP);
}

/** The progress bar's four messages, in order. */
export function checkoutMessage(progress: number, provider: PaymentProviderName): string {
  if (progress < 30) return "Préparation de votre commande...";
  if (progress < 60) return "Sécurisation de la transaction...";
  if (progress < 90) return `Redirection sécurisée vers ${provider === "stripe" ? "Stripe" : "la page de paiement"}...`;
  return "Redirection vers la page de paiement sécurisée...";
}
