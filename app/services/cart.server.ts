import { and, eq, gt, inArray, sql } from "drizzle-orm";
import { productPreorders, products } from "~/db/schema";
import type { Db } from "~/db/types";
import type { CartProduct } from "~/domain/cart";
import { IMAGE_WIDTHS, imageUrl } from "~/domain/images";
import { catalogCategoryOf } from "~/domain/categories";
import { defaultWeightGrams } from "~/domain/shipping";
import { isPubliclyVisible } from "~/domain/visibility";
import { parisWallTime } from "~/domain/paris-time";
import { getHiddenCategory } from "./site-content.server";
import { preorderUnitsLeft } from "./preorders.server";
import { preorderDatesText } from "~/domain/preorder-dates";

export const MAX_CART_REFRESH_IDS = 50;

/**
 * Today's name, price, stock and image of the cart's products, for the products the public may
 * buy now. A product missing from the answer is gone (deleted, offline, not dropped yet, or in
 * the category a running countdown hides).
 */
export async function getCartProducts(db: Db, ids: number[], options: { now: Date; imageBaseUrl: string }): Promise<CartProduct[]> {
  const wanted = [...new Set(ids.filter((id) => Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647))].slice(0, MAX_CART_REFRESH_IDS);
  if (wanted.length === 0) return [];
  const rows = await db
    .select({
      id: products.id,
      title: products.title,
      priceCents: products.priceCents,
      // An open pre-order sells what is left of its quantity, not the (empty) shelf.
      stock: sql<number>`coalesce(${preorderUnitsLeft}, ${products.stock})`,
      imagePath: products.imagePath,
      status: products.status,
      dropTime: products.dropTime,
      category: products.category,
      subCategory: products.subCategory,
      weightGrams: products.weightGrams,
      releaseOn: productPreorders.releaseOn,
      estimatedDeliveryOn: productPreorders.estimatedDeliveryOn,
    })
    .from(products)
    .leftJoin(productPreorders, and(eq(productPreorders.productId, products.id), gt(productPreorders.releaseOn, parisWallTime(options.now).date)))
    .where(inArray(products.id, wanted));
  const hidden = await getHiddenCategory(db, options.now);
  return rows
    .filter((row) => isPubliclyVisible(row, options.now) && (hidden === null || catalogCategoryOf(row.category, row.subCategory) !== hidden))
    .map((row) => ({
      id: row.id,
      name: row.title,
      priceCents: row.priceCents,
      stock: Math.max(0, row.stock),
      image: row.imagePath ? imageUrl(options.imageBaseUrl, row.imagePath, IMAGE_WIDTHS[0]) : null,
      weightGrams: row.weightGrams ?? defaultWeightGrams(row.category, row.subCategory),
      // Written here: the cart shows it as it comes, with no date code of its own (its JS budget).
      ...(row.releaseOn && row.estimatedDeliveryOn ? { preorder: preorderDatesText({ releaseOn: row.releaseOn, estimatedDeliveryOn: row.estimatedDeliveryOn }) } : {}),
    }));
}
