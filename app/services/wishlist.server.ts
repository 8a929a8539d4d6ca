import { and, count, eq, inArray, isNull } from "drizzle-orm";
import { products, wishlistItems } from "~/db/schema";
import type { Db } from "~/db/types";

/** A list longer than this is a script, not a collector: the add is refused with a French message. */
export const WISHLIST_MAX_ITEMS = 200;

export type WishlistAddResult = { ok: true } | { ok: false; status: 404 | 409; message: string };

/**
 * Adds a product to a customer's list, with the default alerts (back in stock, drop opening).
 * Only a product one may wait for (on sale or coming, not archived). Adding twice changes nothing.
 */
export async function addToWishlist(db: Db, userId: string, productId: number, now = new Date()): Promise<WishlistAddResult> {
  return db.transaction(async (tx) => {
    const [product] = await tx
      .select({ id: products.id })
      .from(products)
      .where(and(eq(products.id, productId), inArray(products.status, ["en_ligne", "a_venir"]), isNull(products.archivedAt)));
    if (!product) return { ok: false, status: 404, message: "Ce produit n'existe pas ou n'est plus en vente." };
    const [{ items }] = (await tx.select({ items: count() }).from(wishlistItems).where(eq(wishlistItems.userId, userId))) as [{ items: number }];
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
