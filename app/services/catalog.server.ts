import { and, asc, count, desc, eq, like, lte, or, type SQL } from "drizzle-orm";
import { products } from "~/db/schema";
import type { Db } from "~/db/types";
import { CATALOG_CATEGORY_FILTERS, CATALOG_CATEGORY_IDS, type CatalogCategoryId, catalogCategoryOf } from "~/domain/categories";
import { CATALOG_PAGE_SIZE, type CatalogQuery, type CatalogSort } from "~/domain/catalog-query";
import { type ProductView, toProductView } from "~/domain/product-view";
import { escapeLike, normalizeSearch } from "~/domain/search";

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
  const result = Object.fromEntries(CATALOG_CATEGORY_IDS.map((id) => [id, 0])) as Record<CatalogCategoryId, number>;
  for (const row of rows) {
    const id = catalogCategoryOf(row.category, row.subCategory);
    if (id) result[id] += Number(row.n);
  }
  return result;
}

function categoryCondition(id: CatalogCategoryId): SQL {
  const filter = CATALOG_CATEGORY_FILTERS[id];
  return filter.subCategory === undefined
    ? eq(products.category, filter.category)
    : and(eq(products.category, filter.category), eq(products.subCategory, filter.subCategory))!;
}

/** Every word must appear in the accent-folded search column ("pokemon ecarlate" finds "Pokémon … Écarlate"). */
function textCondition(q: string): SQL | undefined {
  const words = normalizeSearch(q).split(" ").filter(Boolean).slice(0, 8);
  if (words.length === 0) return undefined;
  return and(...words.map((word) => like(products.searchText, `%${escapeLike(word)}%`)));
}

const ORDER: Record<CatalogSort, SQL[]> = {
  newest: [desc(products.createdAt), desc(products.id)],
  "price-asc": [asc(products.priceCents), asc(products.id)],
  "price-desc": [desc(products.priceCents), asc(products.id)],
  // The search column starts with the accent-folded name: "Écarlate" sorts with the E's.
  name: [asc(products.searchText), asc(products.id)],
};

export type CatalogPage = { products: ProductView[]; total: number; page: number; pageCount: number };

export async function listCatalog(
  db: Db,
  query: CatalogQuery,
  options: { now: Date; imageBaseUrl: string; pageSize?: number },
): Promise<CatalogPage> {
  const pageSize = options.pageSize ?? CATALOG_PAGE_SIZE;
  const where = and(
    publiclyVisible(options.now),
    query.category ? categoryCondition(query.category) : undefined,
    textCondition(query.q),
  );
  const [totalRow] = await db.select({ n: count() }).from(products).where(where);
  const total = Number(totalRow?.n ?? 0);
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(query.page, pageCount);
  const rows = await db
    .select()
    .from(products)
    .where(where)
    .orderBy(...ORDER[query.sort])
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return { products: rows.map((row) => toProductView(row, options.imageBaseUrl, options.now)), total, page, pageCount };
}
