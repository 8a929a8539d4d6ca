import { z } from "zod";
import { pageNumberSchema } from "./pagination";
import { type CatalogCategoryId, isCatalogCategoryId } from "./categories";

/** /catalog query string: q (text), category, sort, page. Anything unknown falls back to defaults. */
export const CATALOG_SORTS = ["newest", "price-asc", "price-desc", "name"] as const;
export type CatalogSort = (typeof CATALOG_SORTS)[number];

export const CATALOG_SORT_LABELS: Record<CatalogSort, string> = {
  newest: "Nouveautés",
  "price-asc": "Prix croissant",
  "price-desc": "Prix décroissant",
  name: "Nom (A-Z)",
};

export const CATALOG_CATEGORY_LABELS: Record<CatalogCategoryId, string> = {
  sealed: "Scellés",
  cards: "Cartes",
  "other-cards": "Autres cartes",
  accessories: "Accessoires",
  entertainment: "Gaming & Mangas",
};

export const CATALOG_PAGE_SIZE = 24;

/** Older category ids of SPEC.md (single, booster…) map onto the catalogue's own. */
const LEGACY_CATEGORY_IDS: Record<string, CatalogCategoryId> = {
  single: "cards",
  booster: "sealed",
  display: "sealed",
  bundle: "sealed",
  accessory: "accessories",
  manga: "entertainment",
  gaming: "entertainment",
};

export type CatalogQuery = { q: string; category: CatalogCategoryId | null; sort: CatalogSort; page: number };

const querySchema = z.object({
  q: z.string().trim().max(100).catch(""),
  category: z.string().catch(""),
  sort: z.enum(CATALOG_SORTS).catch("newest"),
  page: pageNumberSchema,
});

export function parseCatalogQuery(params: URLSearchParams): CatalogQuery {
  const raw = querySchema.parse({
    q: params.get("q") ?? "",
    category: params.get("category") ?? "",
    sort: params.get("sort") ?? "newest",
    page: params.get("page") ?? 1,
  });
  const category = isCatalogCategoryId(raw.category) ? raw.category : (LEGACY_CATEGORY_IDS[raw.category] ?? null);
  return { q: raw.q, category, sort: raw.sort, page: raw.page };
}

/** The query string for a catalogue state, leaving defaults out so URLs stay short. */
export function catalogSearch(query: Partial<CatalogQuery>): string {
  const params = new URLSearchParams();
  if (query.q) params.set("q", query.q);
  if (query.category) params.set("category", query.category);
  if (query.sort && query.sort !== "newest") params.set("sort", query.sort);
  if (query.page && query.page > 1) params.set("page", String(query.page));
  const s = params.toString();
  return s ? `?${s}` : "";
}
