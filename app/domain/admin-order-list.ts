import { ORDER_STATUSES, type OrderStatus } from "./catalog-values";
import { intParam, oneOfParam, textParam } from "./query-params";
import { countOf } from "./numbers";

/**
 * The admin order list's state, kept in the URL (a reload or a shared link shows the same
 * page): a search (number, e-mail or name), a status and a page, newest orders first. The
 * filtering and paging run in SQL (services/admin-orders.server.ts).
 */
export const ORDER_PAGE_SIZE = 20;
export const ORDER_SEARCH_MAX = 100;

export type AdminOrderQuery = { q: string; status: OrderStatus | null; page: number };

export const DEFAULT_ORDER_QUERY: AdminOrderQuery = { q: "", status: null, page: 1 };

export function parseAdminOrderQuery(params: URLSearchParams): AdminOrderQuery {
  return {
    q: textParam(params.get("q"), ORDER_SEARCH_MAX),
    status: oneOfParam(params.get("status"), ORDER_STATUSES, null),
    page: intParam(params.get("page"), { min: 1, max: 100_000 }, 1),
  };
}

/** The URL of a list state, defaults left out: the plain list stays `/admin/orders`. */
export function adminOrderListHref(query: AdminOrderQuery): string {
  const params = new URLSearchParams();
  if (query.q) params.set("q", query.q);
  if (query.status) params.set("status", query.status);
  if (query.page > 1) params.set("page", String(query.page));
  const search = params.toString();
  return search ? `/admin/orders?${search}` : "/admin/orders";
}

export function hasOrderFilters(query: AdminOrderQuery): boolean {
  return Boolean(query.q || query.status);
}

/** "1 commande trouvée", "{n} commandes trouvées". */
export function ordersFoundText(total: number): string {
  const many = total > 1;
  return `${countOf(total, "commande")} trouvée${many ? "s" : ""}`;
}

/** What the empty list says: nothing at all yet, or nothing for these filters. */
export function emptyOrdersText(query: AdminOrderQuery): string {
  if (query.q) return `Aucune commande ne correspond à «\u00a0${query.q}\u00a0».`;
  if (query.status === "paid") return "Aucune commande à expédier\u00a0: tout est parti\u00a0!";
  if (query.status) return "Aucune commande avec ce statut.";
  return "Aucune commande pour le moment.";
}

/** "1 article", "3 articles". */
export function itemCountText(count: number): string {
  return `${count} article${count > 1 ? "s" : ""}`;
}
