import { MAIN_CATEGORIES, type MainCategory, PRODUCT_STATUSES, type ProductStatus } from "./catalog-values";
import { intParam, oneOfParam, textParam } from "./query-params";
import { countOf } from "./numbers";

/**
 * The admin product list's state, kept in the URL (SPEC.md "Product list"): a reload or a shared
 * link shows the same page. Sorting, filtering and paging run in SQL
 * (services/admin-product-list.server.ts); these pure helpers read and write the URL.
 */
export const ADMIN_PAGE_SIZE = 10;
export const ADMIN_SORT_FIELDS = ["name", "price", "stock", "status", "category"] as const;
export type AdminSortField = (typeof ADMIN_SORT_FIELDS)[number];
export type SortOrder = "asc" | "desc";
export const FEATURED_FILTERS = ["oui", "non"] as const;

export type AdminProductQuery = {
  q: string;
  category: MainCategory | null;
  status: ProductStatus | null;
  featured: (typeof FEATURED_FILTERS)[number] | null;
  sort: AdminSortField;
  order: SortOrder;
  page: number;
};

export const DEFAULT_ADMIN_QUERY: AdminProductQuery = { q: "", category: null, status: null, featured: null, sort: "name", order: "asc", page: 1 };

export const ADMIN_STATUS_LABELS: Record<ProductStatus, string> = { en_ligne: "En ligne", hors_ligne: "Hors ligne", a_venir: "À venir" };

/** Stock at or below this shows in red (SPEC.md). */
export const LOW_STOCK = 5;

export function parseAdminProductQuery(params: URLSearchParams): AdminProductQuery {
  return {
    q: textParam(params.get("q"), 100),
    category: oneOfParam(params.get("category"), MAIN_CATEGORIES, null),
    status: oneOfParam(params.get("status"), PRODUCT_STATUSES, null),
    featured: oneOfParam(params.get("featured"), FEATURED_FILTERS, null),
    sort: oneOfParam(params.get("sort"), ADMIN_SORT_FIELDS, "name"),
    order: oneOfParam(params.get("order"), ["asc", "desc"] as const, "asc"),
    page: intParam(params.get("page"), { min: 1, max: 100_000 }, 1),
  };
}

/** Where the product list lives (it was `/admin` until the dashboard took that address). */
export const ADMIN_PRODUCTS_PATH = "/admin/products";

/** The URL of a list state: defaults left out, so the plain list stays `/admin/products`. */
export function adminProductListHref(query: AdminProductQuery): string {
  const params = new URLSearchParams();
  if (query.q) params.set("q", query.q);
  if (query.category) params.set("category", query.category);
  if (query.status) params.set("status", query.status);
  if (query.featured) params.set("featured", query.featured);
  if (query.sort !== "name" || query.order !== "asc") {
    params.set("sort", query.sort);
    params.set("order", query.order);
  }
  if (query.page > 1) params.set("page", String(query.page));
  const search = params.toString();
  return search ? `${ADMIN_PRODUCTS_PATH}?${search}` : ADMIN_PRODUCTS_PATH;
}

/** Clicking a header: the active field flips its order, another field starts ascending; back to page 1. */
export function sortBy(query: AdminProductQuery, field: AdminSortField): AdminProductQuery {
  const order: SortOrder = query.sort === field && query.order === "asc" ? "desc" : "asc";
  return { ...query, sort: field, order, page: 1 };
}

export function hasFilters(query: AdminProductQuery): boolean {
  return Boolean(query.q || query.category || query.status || query.featured);
}

export function clearFilters(query: AdminProductQuery): AdminProductQuery {
  return { ...query, q: "", category: null, status: null, featured: null, page: 1 };
}

/**
 * The pager's items (SPEC.md): always the first and last pages and the current one ±1, an
 * ellipsis for each gap; nothing when there is one page or none.
 */
export function pagerItems(current: number, pageCount: number): (number | "…")[] {
  if (pageCount <= 1) return [];
  const page = Math.min(Math.max(1, current), pageCount);
  const shown = [...new Set([1, page - 1, page, page + 1, pageCount])].filter((n) => n >= 1 && n <= pageCount).sort((a, b) => a - b);
  const items: (number | "…")[] = [];
  for (const [i, n] of shown.entries()) {
    const previous = shown[i - 1];
    if (previous !== undefined && n - previous > 1) items.push("…");
    items.push(n);
  }
  return items;
}

/** "1 produit trouvé", "{n} produits trouvés". */
export function foundCountText(total: number): string {
  return `${countOf(total, "produit")} trouvé${total > 1 ? "s" : ""}`;
}

/** The notice about scheduled launches, or null when there is none. */
export function scheduledNotice(count: number): string | null {
  if (count <= 0) return null;
  return count === 1 ? "1 produit a un lancement programmé." : `${count} produits ont un lancement programmé.`;
}
