import { and, asc, type Column, count, desc, eq, gt, isNull, like, lte, ne, or, sql, type SQL } from "drizzle-orm";
import { productDrops, productPreorders, products, safetyProfiles } from "~/db/schema";
import type { Db } from "~/db/types";
import type { CardType, Rarity } from "~/domain/catalog-values";
import {
  CATALOG_CATEGORY_FILTERS,
  CATALOG_CATEGORY_IDS,
  type CatalogCategoryId,
  catalogCategoryOf,
  displayCategory,
} from "~/domain/categories";
import { IMAGE_WIDTHS, imageUrl } from "~/domain/images";
import { CATALOG_PAGE_SIZE, type CatalogQuery, type CatalogSort } from "~/domain/catalog-query";
import { type ProductCardRow, type ProductDetail, type ProductDropTerms, type ProductView, toProductDetail, toProductView } from "~/domain/product-view";

/** The columns a product card shows (domain/product-view ProductCardRow): listings select these only. */
const CARD_COLUMNS = {
  id: products.id,
  title: products.title,
  priceCents: products.priceCents,
  stock: products.stock,
  imagePath: products.imagePath,
  category: products.category,
  subCategory: products.subCategory,
  cardType: products.cardType,
  series: products.series,
  rarity: products.rarity,
  featured: products.featured,
  createdAt: products.createdAt,
};
import { escapeLike, normalizeSearch, searchWords } from "~/domain/search";
import { SUGGESTIONS_LIMIT, SUGGESTIONS_MIN_LENGTH, type Suggestion } from "~/domain/suggestions";
import { allTermsIn, contains, relevanceOrder, type SearchTerm, searchTerms } from "./product-search.server";
import { getHiddenCategory, getHiding } from "./site-content.server";
import { nextDropTime } from "./drops.server";
import { preorderUnitsLeft } from "./preorders.server";
import { parisWallTime } from "~/domain/paris-time";
import { preorderIsOpen } from "~/domain/preorder-form";
import { keptListing, type ListingRead } from "./listing-cache.server";
import { compareAtDecisionFor } from "./price-history.server";
import { PRODUCT_SAFETY_COLUMNS } from "./product-safety.server";

/** SQL twin of domain/visibility isPubliclyVisible: en_ligne, or a_venir whose drop time has come. */
function publiclyVisible(now: Date): SQL {
  return or(
    eq(products.status, "en_ligne"),
    and(eq(products.status, "a_venir"), lte(products.dropTime, now)),
  )!;
}

/**
 * What the public may see now: publicly visible, and not in the category a running countdown
 * hides ("hide products", site-content.server.ts). Every public listing, search and product
 * page goes through it, so the category comes back by itself at the countdown's end.
 */
export async function publicProductsNow(db: Db, now: Date): Promise<SQL> {
  const hidden = await getHiddenCategory(db, now);
  // "is not true": a TCG product without a sub-category is in no category, never hidden.
  return hidden ? and(publiclyVisible(now), sql`(${categoryCondition(hidden)}) is not true`)! : publiclyVisible(now);
}

export async function listFeaturedProducts(
  db: Db,
  options: { now: Date; imageBaseUrl: string; limit?: number },
): Promise<ProductView[]> {
  const rows = await db
    .select(CARD_COLUMNS)
    .from(products)
    .where(and(await publicProductsNow(db, options.now), eq(products.featured, true)))
    .orderBy(desc(products.createdAt), desc(products.id))
    .limit(options.limit ?? 8);
  return rows.map((row) => toProductView(row, options.imageBaseUrl, options.now));
}

/** How many public products each catalogue category holds (home tiles). */
export async function countByCatalogCategory(db: Db, now: Date): Promise<Record<CatalogCategoryId, number>> {
  const rows = await db
    .select({ category: products.category, subCategory: products.subCategory, n: count() })
    .from(products)
    .where(await publicProductsNow(db, now))
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

/**
 * Every word (at most 8) of the text must appear in the accent-folded column ("pokemon
 * ecarlate" finds "Pokémon … Écarlate"); undefined when there is no word.
 */
export function allWordsIn(column: Column, text: string): SQL | undefined {
  const words = searchWords(text);
  return words.length === 0 ? undefined : and(...words.map((word) => contains(column, word)));
}

const ORDER: Record<CatalogSort, SQL[]> = {
  newest: [desc(products.createdAt), desc(products.id)],
  "price-asc": [asc(products.priceCents), asc(products.id)],
  // Ties in the index's reverse order, so one index serves both price sorts.
  "price-desc": [desc(products.priceCents), desc(products.id)],
  // Accent-folded name: "Écarlate" sorts with the E's.
  name: [asc(products.nameSearch), asc(products.id)],
};

export type CatalogPage = { products: ProductView[]; total: number; page: number; pageCount: number };

/** What a public listing selects; every field is optional and they combine with AND. */
export type ProductFilter = {
  category?: CatalogCategoryId | null;
  /** Full-text words over name, series and description (catalogue search). */
  q?: string;
  /** Substring of the name or the series (card search of /tcg). */
  nameOrSeries?: string;
  cardType?: CardType | null;
  rarity?: Rarity | null;
  featured?: boolean;
};

/** `terms`: the words of filter.q and their close words (searchTerms). */
function filterCondition(filter: ProductFilter, visible: SQL, terms: SearchTerm[]): SQL | undefined {
  const needle = normalizeSearch(filter.nameOrSeries ?? "");
  return and(
    visible,
    filter.category ? categoryCondition(filter.category) : undefined,
    allTermsIn(products.searchText, terms),
    needle
      ? or(like(products.nameSearch, `%${escapeLike(needle)}%`), like(products.seriesSearch, `%${escapeLike(needle)}%`))
      : undefined,
    // Card type recent also covers products with none (SPEC.md section 3).
    filter.cardType === "vintage"
      ? eq(products.cardType, "vintage")
      : filter.cardType === "recent"
        ? or(isNull(products.cardType), eq(products.cardType, "recent"))
        : undefined,
    filter.rarity ? eq(products.rarity, filter.rarity) : undefined,
    filter.featured ? eq(products.featured, true) : undefined,
  );
}

/** How many public products a filter selects (e.g. whether any featured accessory exists). */
export async function countProducts(db: Db, filter: ProductFilter, now: Date): Promise<number> {
  return countWhere(db, filterCondition(filter, await publicProductsNow(db, now), await searchTerms(db, filter.q ?? "")));
}

async function countWhere(db: Db, where: SQL | undefined): Promise<number> {
  const [row] = await db.select({ n: count() }).from(products).where(where);
  return Number(row?.n ?? 0);
}

/** One page of public products; the page is clamped to the last one. */
export async function listProducts(
  db: Db,
  filter: ProductFilter,
  options: { now: Date; imageBaseUrl: string; sort?: CatalogSort; page?: number; pageSize: number },
): Promise<CatalogPage> {
  const { now } = options;
  const terms = await searchTerms(db, filter.q ?? "");
  const read = () => readListing(db, filter, terms, options);
  // A search's words, and /tcg's card-name filter, are typed by visitors: those pages are read
  // each time. Listings by category, sort and page are few and kept until a change (decision 030);
  // a search without a word is one of them.
  const listing =
    terms.length === 0 && !filter.nameOrSeries
      ? await keptListing(db, JSON.stringify([{ ...filter, q: undefined }, options.sort ?? "newest", options.page ?? 1, options.pageSize, await getHiddenCategory(db, now)]), now, async () => ({
          listing: await read(),
          // A product scheduled for then joins the listings without a write.
          expiresAt: await nextDropTime(db, now),
        }))
      : await read();
  const { rows, total, page } = listing;
  const pageCount = Math.max(1, Math.ceil(total / options.pageSize));
  return { products: rows.map((row) => toProductView(row, options.imageBaseUrl, now)), total, page, pageCount };
}

async function readListing(
  db: Db,
  filter: ProductFilter,
  terms: SearchTerm[],
  options: { now: Date; sort?: CatalogSort; page?: number; pageSize: number },
): Promise<ListingRead<ProductCardRow>> {
  const where = filterCondition(filter, await publicProductsNow(db, options.now), terms);
  // Without a search, the page is read in order from a sort index (products_*_idx) and stops
  // after 24 rows, and the total is counted once, by a sub-query, in the same round trip:
  // `count(*) over ()` would make the database sort every visible product. A search ranks
  // every match anyway, so there the window count costs nothing more.
  const total = terms.length > 0 ? sql<number>`count(*) over ()` : sql<number>`(select count(*) from ${products} where ${where})`;
  const pageRows = (page: number) =>
    db
      .select({ ...CARD_COLUMNS, total: total.mapWith(Number) })
      .from(products)
      .where(where)
      .orderBy(...listingOrder(terms, options.sort))
      .limit(options.pageSize)
      .offset((page - 1) * options.pageSize);
  // A page past the end serves the last page.
  let page = Math.max(1, options.page ?? 1);
  let rows = await pageRows(page);
  let count = rows[0]?.total ?? 0;
  if (rows.length === 0 && page > 1) {
    count = await countWhere(db, where);
    page = Math.max(1, Math.ceil(count / options.pageSize));
    rows = count > 0 ? await pageRows(page) : [];
  }
  return { rows: rows.map(({ total: _, ...row }) => row), total: count, page };
}

/**
 * A search's default order ("newest", which the sort menu shows when nobody chose) is by
 * relevance, newest first among equals; a sort the visitor chooses applies as asked.
 */
function listingOrder(terms: SearchTerm[], sort: CatalogSort = "newest"): SQL[] {
  return sort === "newest" && terms.length > 0 ? [...relevanceOrder(products.searchText, terms), ...ORDER.newest] : ORDER[sort];
}

export function listCatalog(
  db: Db,
  query: CatalogQuery,
  options: { now: Date; imageBaseUrl: string; pageSize?: number },
): Promise<CatalogPage> {
  return listProducts(db, { category: query.category, q: query.q }, {
    ...options,
    sort: query.sort,
    page: query.page,
    pageSize: options.pageSize ?? CATALOG_PAGE_SIZE,
  });
}

/**
 * A public product with everything its page shows, or null (unknown, offline, not dropped yet).
 * Its brand's safety profile comes in the same query; the price history is read (one indexed
 * query) only when a former price would announce a reduction.
 */
export async function getPublicProduct(
  db: Db,
  id: number,
  options: { now: Date; imageBaseUrl: string },
): Promise<ProductDetail | null> {
  const [row] = await db
    .select({
      ...CARD_COLUMNS,
      description: products.description,
      condition: products.condition,
      additionalImages: products.additionalImages,
      updatedAt: products.updatedAt,
      compareAtCents: products.compareAtCents,
      ...PRODUCT_SAFETY_COLUMNS,
      labelImagePath: products.labelImagePath,
      pegiRating: products.pegiRating,
      pegiDescriptors: products.pegiDescriptors,
      profileManufacturerName: safetyProfiles.manufacturerName,
      profilePostalAddress: safetyProfiles.postalAddress,
      profileEmail: safetyProfiles.email,
      profileWarnings: safetyProfiles.warnings,
      profileOutsideEu: safetyProfiles.manufacturerOutsideEu,
      profileEuRepName: safetyProfiles.euRepName,
      profileEuRepAddress: safetyProfiles.euRepAddress,
      profileEuRepEmail: safetyProfiles.euRepEmail,
      dropLimit: productDrops.perCustomerLimit,
      dropAccountRequired: productDrops.accountRequired,
      dropTime: products.dropTime,
      preorder: { releaseOn: productPreorders.releaseOn, estimatedDeliveryOn: productPreorders.estimatedDeliveryOn, perCustomerLimit: productPreorders.perCustomerLimit, unitsLeft: preorderUnitsLeft },
    })
    .from(products)
    .leftJoin(safetyProfiles, eq(safetyProfiles.id, products.safetyProfileId))
    .leftJoin(productDrops, eq(productDrops.productId, products.id))
    .leftJoin(productPreorders, eq(productPreorders.productId, products.id))
    .where(and(eq(products.id, id), await publicProductsNow(db, options.now)))
    .limit(1);
  if (!row) return null;
  const decision = await compareAtDecisionFor(db, row);
  const profile =
    row.profileManufacturerName === null
      ? null
      : {
          manufacturerName: row.profileManufacturerName,
          postalAddress: row.profilePostalAddress ?? "",
          email: row.profileEmail ?? "",
          warnings: row.profileWarnings ?? "",
          manufacturerOutsideEu: row.profileOutsideEu ?? false,
          euRepName: row.profileEuRepName ?? "",
          euRepAddress: row.profileEuRepAddress ?? "",
          euRepEmail: row.profileEuRepEmail ?? "",
        };
  const drop = row.dropLimit === null ? null : { perCustomerLimit: row.dropLimit, accountRequired: row.dropAccountRequired ?? false, waitingRoom: row.dropTime !== null };
  // A pre-order shows as such until its release day; its units to sell are what is left of its quantity, not the (empty) shelf.
  const terms = row.preorder;
  const preorder =
    terms?.releaseOn && terms.estimatedDeliveryOn && terms.perCustomerLimit !== null && preorderIsOpen({ releaseOn: terms.releaseOn }, parisWallTime(options.now).date)
      ? { releaseOn: terms.releaseOn, estimatedDeliveryOn: terms.estimatedDeliveryOn, perCustomerLimit: terms.perCustomerLimit, unitsLeft: terms.unitsLeft }
      : null;
  const detail = toProductDetail(row, options.imageBaseUrl, options.now, { compareAtCents: decision.shown ? decision.compareAtCents : null, profile, drop, preorder });
  return preorder ? { ...detail, stock: preorder.unitsLeft } : detail;
}

/**
 * A product the public would see but for a running countdown hiding its category: its name
 * and when it comes back (its page says so, without selling it). Null otherwise.
 */
export async function findProductHiddenByCountdown(db: Db, id: number, now: Date): Promise<{ name: string; until: Date } | null> {
  const hiding = await getHiding(db, now);
  if (!hiding) return null;
  const [row] = await db
    .select({ name: products.title })
    .from(products)
    .where(and(eq(products.id, id), publiclyVisible(now), categoryCondition(hiding.category)))
    .limit(1);
  return row ? { name: row.name, until: hiding.until } : null;
}

/**
 * A product scheduled to go on sale (a_venir, its drop time still ahead): what its page shows
 * while buyers wait (name, price, main image; not the stock) and that time. Its page opens by
 * itself then (the drop's release notifies open pages).
 */
export async function findUpcomingProduct(
  db: Db,
  id: number,
  options: { now: Date; imageBaseUrl: string },
): Promise<{ name: string; priceCents: number; image: ProductView["image"]; dropTime: Date; drop: ProductDropTerms | null } | null> {
  const [row] = await db
    .select({ ...CARD_COLUMNS, dropTime: products.dropTime, dropLimit: productDrops.perCustomerLimit, dropAccountRequired: productDrops.accountRequired })
    .from(products)
    .leftJoin(productDrops, eq(productDrops.productId, products.id))
    .where(and(eq(products.id, id), eq(products.status, "a_venir"), gt(products.dropTime, options.now)))
    .limit(1);
  if (!row?.dropTime) return null;
  const { name, priceCents, image } = toProductView(row, options.imageBaseUrl, options.now);
  const drop = row.dropLimit === null ? null : { perCustomerLimit: row.dropLimit, accountRequired: row.dropAccountRequired ?? false, waitingRoom: true };
  return { name, priceCents, image, dropTime: new Date(row.dropTime), drop };
}

export const SIMILAR_PRODUCTS_LIMIT = 4;

/**
 * Up to 4 products like this one: same category and rarity first (SPEC.md), then the rest of
 * the category so the block is not empty when the rarity is unique.
 */
export async function listSimilarProducts(
  db: Db,
  id: number,
  options: { now: Date; imageBaseUrl: string },
): Promise<ProductView[]> {
  const [current] = await db
    .select({ category: products.category, subCategory: products.subCategory, rarity: products.rarity })
    .from(products)
    .where(eq(products.id, id))
    .limit(1);
  if (!current) return [];
  const sameRarity = current.rarity ? sql`${products.rarity} = ${current.rarity}` : sql`${products.rarity} is null`;
  const rows = await db
    .select(CARD_COLUMNS)
    .from(products)
    .where(
      and(
        await publicProductsNow(db, options.now),
        ne(products.id, id),
        eq(products.category, current.category),
        current.subCategory ? eq(products.subCategory, current.subCategory) : isNull(products.subCategory),
      ),
    )
    .orderBy(desc(sql`(${sameRarity})`), desc(sql`(${products.stock} > 0)`), desc(products.createdAt), desc(products.id))
    .limit(SIMILAR_PRODUCTS_LIMIT);
  return rows.map((row) => toProductView(row, options.imageBaseUrl, options.now));
}

/**
 * Header search: public products whose name holds every word typed, or a word close to it,
 * accents and case ignored; by relevance (relevanceOrder), then by name. At most 10; nothing
 * under 2 characters.
 */
export async function searchSuggestions(
  db: Db,
  text: string,
  options: { now: Date; imageBaseUrl: string },
): Promise<Suggestion[]> {
  if (normalizeSearch(text).length < SUGGESTIONS_MIN_LENGTH) return [];
  const terms = await searchTerms(db, text);
  const rows = await db
    .select({
      id: products.id,
      title: products.title,
      priceCents: products.priceCents,
      stock: products.stock,
      imagePath: products.imagePath,
      category: products.category,
      subCategory: products.subCategory,
      cardType: products.cardType,
    })
    .from(products)
    .where(and(await publicProductsNow(db, options.now), allTermsIn(products.nameSearch, terms)))
    .orderBy(...relevanceOrder(products.nameSearch, terms), asc(products.nameSearch), asc(products.id))
    .limit(SUGGESTIONS_LIMIT);
  return rows.map((row) => ({
    id: row.id,
    name: row.title,
    priceCents: row.priceCents,
    stock: Math.max(0, row.stock),
    thumbnail: row.imagePath ? imageUrl(options.imageBaseUrl, row.imagePath, IMAGE_WIDTHS[0]) : null,
    category: displayCategory(row),
  }));
}
