/**
 * The customer's order history (/account/orders): one search box, `q`, matching an order's
 * number or one of its products' titles, and a page, both in the URL. The search runs in SQL,
 * scoped to the customer's own orders (services/customer-orders.server.ts); the loader reads
 * the URL with account-order-query.ts (zod stays out of the page's JavaScript).
 */
export const ACCOUNT_ORDER_PAGE_SIZE = 10;
export const ACCOUNT_ORDER_SEARCH_MAX = 80;

export type AccountOrderQuery = { q: string; page: number };

/** The URL of a list state, defaults left out: the plain list stays `/account/orders`. */
export function accountOrderListHref(query: AccountOrderQuery): string {
  const params = new URLSearchParams();
  if (query.q) params.set("q", query.q);
  if (query.page > 1) params.set("page", String(query.page));
  const search = params.toString();
  return search ? `/account/orders?${search}` : "/account/orders";
}

/** What an empty list says: no order yet, or none for this search. */
export function emptyAccountOrdersText(q: string): string {
  return q ? "Aucune commande ne correspond à votre recherche." : "Vous n'avez pas encore passé de commande.";
}

/** A row's first product and how many other products the order holds ("Booster X et 2 autres produits"). */
export function orderContentsText(firstItemName: string | null, lineCount: number): string {
  if (!firstItemName) return "";
  const more = lineCount - 1;
  return more > 0 ? `${firstItemName} et ${more} autre${more > 1 ? "s" : ""} produit${more > 1 ? "s" : ""}` : firstItemName;
}
