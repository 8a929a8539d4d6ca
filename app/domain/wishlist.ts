import { z } from "zod";
import { parseEurosToCents } from "./money";
import type { ProductStatus } from "./catalog-values";

/**
 * The wish list (issue 56, point 3): the heart's POST /api/wishlist and the alert choices of
 * /account/liste, one zod schema each, shared by the form and its action. Neither ships to the
 * public pages: the heart posts a plain form and lets the server check it.
 */

export const WISHLIST_PRODUCT_UNKNOWN = "Ce produit n'existe pas ou n'est plus en vente.";
export const WISHLIST_SIGNED_OUT = "Connectez-vous pour garder une liste.";
export const WISHLIST_PRICE_INVALID = "Saisissez un prix en euros, par exemple 12,50.";
/** A figure above any card the shop sells: a typo, refused rather than an alert that never fires. */
export const WISHLIST_PRICE_MAX_CENTS = 10_000_000;

const productId = z.coerce.number({ message: WISHLIST_PRODUCT_UNKNOWN }).int(WISHLIST_PRODUCT_UNKNOWN).min(1, WISHLIST_PRODUCT_UNKNOWN).max(2_147_483_647, WISHLIST_PRODUCT_UNKNOWN);

/** The heart: add or remove one product. */
export const wishlistToggleSchema = z.object({
  productId,
  intent: z.enum(["add", "remove"], { message: "Action inconnue." }),
});

const ticked = z.literal("on", { message: "Choix invalide" }).optional().transform((value) => value === "on");

/**
 * One item's alerts: the two switches (a ticked checkbox posts "on") and the price figure typed
 * in euros ("12,50", "12.5", "12 €"), empty for no price alert; the server stores it in cents.
 */
export const wishlistAlertsSchema = z.object({
  productId,
  alertRestock: ticked,
  alertDrop: ticked,
  priceBelow: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const text = (value ?? "").trim();
      if (text === "") return null;
      const cents = parseEurosToCents(text);
      if (cents === null || cents <= 0 || cents > WISHLIST_PRICE_MAX_CENTS) {
        ctx.addIssue({ code: "custom", message: WISHLIST_PRICE_INVALID });
        return z.NEVER;
      }
      return cents;
    }),
});
export type WishlistAlerts = z.output<typeof wishlistAlertsSchema>;

/** Where a listed product stands now, as its line on /account/liste says it. */
export type WishlistItemState = "available" | "sold-out" | "coming" | "gone";

export const WISHLIST_STATE_LABELS: Record<WishlistItemState, string> = {
  available: "En stock",
  "sold-out": "Épuisé",
  coming: "Bientôt",
  gone: "Plus en vente",
};

/**
 * Mirrors domain/visibility: an a_venir product is « Bientôt » until its drop time, then sold
 * like any other; an offline or archived one is no longer for sale (the line stays, to remove).
 */
export function wishlistItemState(product: { status: ProductStatus; dropTime: Date | null; archived: boolean; stock: number }, now: Date): WishlistItemState {
  if (product.archived || product.status === "hors_ligne") return "gone";
  if (product.status === "a_venir" && (product.dropTime === null || product.dropTime.getTime() > now.getTime())) return "coming";
  return product.stock > 0 ? "available" : "sold-out";
}
