import { and, asc, count, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import { productPreorders, products, wishlistItems } from "~/db/schema";
import type { Db } from "~/db/types";
import { WISHLIST_ALERT_CONSENT_TEXT } from "~/domain/wishlist-consent";
import { parisWallTime } from "~/domain/paris-time";
import { IMAGE_WIDTHS, imageUrl } from "~/domain/images";
import { productPath } from "~/domain/product-url";
import { WISHLIST_PRODUCT_UNKNOWN, type WishlistAlerts, type WishlistItemState, wishlistItemState } from "~/domain/wishlist";
import { preorderUnitsLeft } from "./preorders.server";

/** A list longer than this is a script, not a collector: the add is refused with a French message. */
export const WISHLIST_MAX_ITEMS = 200;

export type WishlistAddResult = { ok: true } | { ok: false; status: 404 | 409; message: string };

/**
 * Adds a product to a customer's list, its alerts off until they switch them on in /account/liste.
 * Only a product one may wait for (on sale or coming, not archived). Adding twice changes nothing.
 */
export async function addToWishlist(db: Db, userId: string, productId: number, now = new Date()): Promise<WishlistAddResult> {
  return db.transaction(async (tx) => {
    const [product] = await tx
      .select({ id: products.id })
      .from(products)
      .where(and(eq(products.id, productId), inArray(products.status, ["en_ligne", "a_venir"]), isNull(products.archivedAt)));
    if (!product) return { ok: false, status: 404, message: WISHLIST_PRODUCT_UNKNOWN };
    const [{ items, listed }] = (await tx
      .select({ items: count(), listed: sql<boolean>`bool_or(${wishlistItems.productId} = ${productId})` })
      .from(wishlistItems)
      .where(eq(wishlistItems.userId, userId))) as [{ items: number; listed: boolean | null }];
    // A product already listed is no new line: a full list does not refuse it (a second click, another tab).
    if (listed) return { ok: true };
    if (items >= WISHLIST_MAX_ITEMS) return { ok: false, status: 409, message: `Votre liste compte déjà ${WISHLIST_MAX_ITEMS} produits : retirez-en un pour en ajouter un autre.` };
    await tx.insert(wishlistItems).values({ userId, productId, createdAt: now }).onConflictDoNothing();
    return { ok: true };
  });
}

/** Removes a product from the list (nothing happens if it was not there). */
export async function removeFromWishlist(db: Db, userId: string, productId: number): Promise<void> {
  await db.delete(wishlistItems).where(and(eq(wishlistItems.userId, userId), eq(wishlistItems.productId, productId)));
}

/** The ids of the products on a customer's list: the hearts of cached pages are filled from it. */
export async function wishlistProductIds(db: Db, userId: string): Promise<number[]> {
  const rows = await db.select({ productId: wishlistItems.productId }).from(wishlistItems).where(eq(wishlistItems.userId, userId));
  return rows.map((row) => row.productId);
}

export type WishlistLine = {
  productId: number;
  name: string;
  path: string;
  image: string | null;
  priceCents: number;
  stock: number;
  state: WishlistItemState;
  alertRestock: boolean;
  alertDrop: boolean;
  priceBelowCents: number | null;
};

/**
 * /account/liste: each listed product as it is at this request (price, stock, on sale or not),
 * newest first, with the alerts the customer chose. An open pre-order counts what is left of its
 * quantity, as its page does.
 */
export async function listWishlist(db: Db, userId: string, options: { now: Date; imageBaseUrl: string }): Promise<WishlistLine[]> {
  const rows = await db
    .select({
      productId: products.id,
      name: products.title,
      imagePath: products.imagePath,
      priceCents: products.priceCents,
      stock: sql<number>`coalesce(${preorderUnitsLeft}, ${products.stock})`.mapWith(Number),
      status: products.status,
      dropTime: products.dropTime,
      archivedAt: products.archivedAt,
      alertRestock: wishlistItems.alertRestock,
      alertDrop: wishlistItems.alertDrop,
      priceBelowCents: wishlistItems.priceBelowCents,
    })
    .from(wishlistItems)
    .innerJoin(products, eq(products.id, wishlistItems.productId))
    .leftJoin(productPreorders, and(eq(productPreorders.productId, products.id), gt(productPreorders.releaseOn, parisWallTime(options.now).date)))
    .where(eq(wishlistItems.userId, userId))
    .orderBy(sql`${wishlistItems.createdAt} desc`, asc(products.id));
  return rows.map(({ imagePath, archivedAt, status, dropTime, ...row }) => ({
    ...row,
    stock: Math.max(0, row.stock),
    path: productPath({ id: row.productId, name: row.name }),
    image: imagePath ? imageUrl(options.imageBaseUrl, imagePath, IMAGE_WIDTHS[0]) : null,
    state: wishlistItemState({ status, dropTime, archived: archivedAt !== null, stock: row.stock }, options.now),
  }));
}

/** Saves one item's alert choices; false when the product is not on the customer's list. */
export async function saveWishlistAlerts(db: Db, userId: string, alerts: WishlistAlerts, now = new Date()): Promise<boolean> {
  // An alert switched on is the customer's consent, given beside its wording: that wording and
  // the moment are its record (decision 066).
  const consent = alerts.alertRestock || alerts.alertDrop || alerts.priceBelow !== null ? { consentText: WISHLIST_ALERT_CONSENT_TEXT, consentedAt: now } : {};
  const updated = await db
    .update(wishlistItems)
    .set({ alertRestock: alerts.alertRestock, alertDrop: alerts.alertDrop, priceBelowCents: alerts.priceBelow, ...consent })
    .where(and(eq(wishlistItems.userId, userId), eq(wishlistItems.productId, alerts.productId)))
    .returning({ productId: wishlistItems.productId });
  return updated.length > 0;
}
