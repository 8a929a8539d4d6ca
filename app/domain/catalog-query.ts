import { parsePageNumber } from "./pagination";
import { oneOfParam, textParam } from "./query-params";
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

function categoryParam(value: string | null): CatalogCategoryId | null {
  if (value === null) return null;
  if (isCatalogCategoryId(value)) return value;
  return Object.hasOwn(LEGACY_CATEGORY_IDS, value) ? (LEGACY_CATEGORY_IDS[value] ?? null) : null;
}

export function parseCatalogQuery(params: URLSearchParams): CatalogQuery {
  return {
    q: textParam(params.get("q"), 100),
    category: categoryParam(params.get("category")),
    sort: oneOfParam(params.get("sort"), CATALOG_SORTS, "newest"),
    page: parsePageNumber(params.get("page")),
  };
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
