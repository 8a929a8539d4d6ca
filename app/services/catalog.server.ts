import { and, count, desc, eq, lte, or, sql, type SQL } from "drizzle-orm";
import { products } from "~/db/schema";
import type { Db } from "~/db/types";
import { CATALOG_CATEGORY_FILTERS, type CatalogCategoryId } from "~/domain/categories";
import { type ProductView, toProductView } from "~/domain/product-view";

/** SQL twin of domain/visibility isPubliclyVisible: en_ligne, or a_venir whose drop time has come. */
export function publiclyVisible(now: Date): SQL {
  return or(
    eq(products.status, "en_ligne"),
    and(eq(products.status, "a_venir"), lte(products.dropTime, now)),
  )!;
}

export async function listFeaturedProducts(
  db: Db,
  options: { now: Date; imageBaseUrl: string; limit?: number },
): Promise<ProductView[]> {
  const rows = await db
    .select()
    .from(products)
    .where(and(publiclyVisible(options.now), eq(products.featured, true)))
    .orderBy(desc(products.createdAt), desc(products.id))
    .limit(options.limit ?? 8);
  return rows.map((row) => toProductView(row, options.imageBaseUrl, options.now));
}

/** How many public products each catalogue category holds (home tiles). */
export async function countByCatalogCategory(db: Db, now: Date): Promise<Record<CatalogCategoryId, number>> {
  const rows = await db
    .select({ category: products.category, subCategory: products.subCategory, n: count() })
    .from(products)
    .where(publiclyVisible(now))
    .groupBy(products.category, products.subCategory);
  const result = Object.fromEntries(Object.keys(CATALOG_CATEGORY_FILTERS).map((id) => [id, 0])) as Record<CatalogCategoryId, number>;
  for (const row of rows) {
    for (const [id, filter] of Object.entries(CATALOG_CATEGORY_FILTERS) as [CatalogCategoryId, (typeof CATALOG_CATEGORY_FILTERS)[CatalogCategoryId]][]) {
      if (row.category === filter.category && (filter.subCategory === undefined || row.subCategory === filter.subCategory)) {
        result[id] += Number(row.n);
      }
    }
  }
  return result;
}

export async function countPublicProducts(db: Db, now: Date): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(products).where(publiclyVisible(now));
  return row?.n ?? 0;
}
