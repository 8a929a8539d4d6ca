import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { MAIN_CATEGORIES, PRODUCT_STATUSES } from "../../domain/catalog-values";
import { VAT_SCHEMES } from "../../domain/vat";
import { safetyProfiles } from "./billing";

export const products = pgTable(
  "products",
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    title: text().notNull(),
    description: text().notNull().default(""),
    priceCents: integer().notNull(),
    stock: integer().notNull().default(0),
    imagePath: text(),
    additionalImages: text().array().notNull().default(sql`'{}'::text[]`),
    category: text({ enum: MAIN_CATEGORIES }).notNull(),
    subCategory: text(),
    cardType: text({ enum: ["recent", "vintage"] }),
    series: text(),
    rarity: text(),
    condition: text(),
    status: text({ enum: PRODUCT_STATUSES }).notNull().default("en_ligne"),
    featured: boolean().notNull().default(false),
    // Milliseconds, as JavaScript carries them: a time written by SQL (microseconds) would match no waiting line.
    dropTime: timestamp({ withTimezone: true, precision: 3 }),
    /** Lower-case, accent-folded copy of title, series and description (see domain/search). */
    searchText: text().notNull().default(""),
    /** Accent-folded name (header suggestions, name sort) and series (card search). */
    nameSearch: text().notNull().default(""),
    seriesSearch: text().notNull().default(""),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /**
     * Set when the admin deletes a product that orders point to: the row stays for the orders'
     * history, hidden everywhere (status hors_ligne keeps it out of every public query).
     */
    archivedAt: timestamp({ withTimezone: true }),
    /** Grams; null: the category's default (domain/shipping.ts defaultWeightGrams). */
    weightGrams: integer(),
    /** Basis points (2000 = 20 %); null: the category's default (domain/vat.ts defaultVatRateBp). */
    vatRateBp: integer(),
    vatScheme: text({ enum: VAT_SCHEMES }).notNull().default("normal"),
    /** A struck-through former price, shown only when the price history allows it (L112-1-1). */
    compareAtCents: integer(),
    /** Product safety (GPSR art. 19): the brand's defaults, each overridable here (null: the brand's). */
    safetyProfileId: integer().references(() => safetyProfiles.id, { onDelete: "set null" }),
    manufacturerName: text(),
    manufacturerAddress: text(),
    manufacturerEmail: text(),
    safetyWarnings: text(),
    /** Null: the brand's; true: established outside the EU, so the EU responsible person is required. */
    manufacturerOutsideEu: boolean(),
    euRepName: text(),
    euRepAddress: text(),
    euRepEmail: text(),
    /** EAN-8/13 (GTIN) when the product has one, check digit valid (domain/ean). */
    ean: text(),
    /** The manufacturer's own reference: the identifier when there is no EAN (never the shop's id). */
    manufacturerReference: text(),
    /** A picture of the product's label (a storage key, as imagePath), optional. */
    labelImagePath: text(),
    /** Video games: PEGI age (3, 7, 12, 16, 18) and content descriptors (domain/pegi). */
    pegiRating: integer(),
    pegiDescriptors: text().array().notNull().default(sql`'{}'::text[]`),
  },
  (t) => [
    check("products_price_non_negative", sql`${t.priceCents} >= 0`),
    // The last line of defence against overselling: a reservation can never go below zero.
    check("products_stock_non_negative", sql`${t.stock} >= 0`),
    check("products_additional_images_max_4", sql`coalesce(array_length(${t.additionalImages}, 1), 0) <= 4`),
    // Nothing (a drop release, a stray update) may bring an archived product back online.
    check("products_weight_range", sql`${t.weightGrams} is null or ${t.weightGrams} between 0 and 100000`),
    check("products_vat_rate_known", sql`${t.vatRateBp} is null or ${t.vatRateBp} in (2000, 1000, 550, 210)`),
    check("products_pegi_rating_known", sql`${t.pegiRating} is null or ${t.pegiRating} in (3, 7, 12, 16, 18)`),
    check("products_compare_at_positive", sql`${t.compareAtCents} is null or ${t.compareAtCents} > 0`),
    check("products_archived_offline", sql`${t.archivedAt} is null or ${t.status} = 'hors_ligne'`),
    index("products_listing_idx").on(t.status, t.category, t.subCategory),
    index("products_featured_idx").on(t.featured).where(sql`${t.featured}`),
    index("products_drop_idx").on(t.dropTime).where(sql`${t.status} = 'a_venir'`),
    // The listings' sorts (services/catalog.server.ts ORDER): a page of 24 is read in order from
    // the index and stops there, instead of sorting every visible product on each render.
    index("products_newest_idx").on(t.createdAt, t.id),
    index("products_price_idx").on(t.priceCents, t.id),
    index("products_name_idx").on(t.nameSearch, t.id),
    // Trigram indexes (pg_trgm, migration 0009): the searches' `%word%` LIKE (services/product-search.server.ts).
    index("products_name_search_trgm_idx").using("gin", sql`${t.nameSearch} gin_trgm_ops`),
    index("products_search_text_trgm_idx").using("gin", sql`${t.searchText} gin_trgm_ops`),
  ],
);

/**
 * Every word of 4 letters or more in the products' search text, kept by a trigger (migration
 * 0009): the typo-tolerant search looks a typed word up here by trigram similarity, then
 * searches the products for the close words found (services/product-search.server.ts).
 */
export const searchWords = pgTable("search_words", { word: text().primaryKey() }, (t) => [
  index("search_words_trgm_idx").using("gin", sql`${t.word} gin_trgm_ops`),
]);

export type ProductRow = typeof products.$inferSelect;
export type NewProductRow = typeof products.$inferInsert;
