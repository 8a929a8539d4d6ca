import { parsePageNumber } from "./pagination";

/** SPEC.md section 9: accessories 12 per page. It gives no size for /entertainment: the same. */
export const ACCESSORIES_PAGE_SIZE = 12;
export const ENTERTAINMENT_PAGE_SIZE = 12;

/** `?page=` of a paged listing: 1 when missing or not a page number (the service clamps the top). */
export function parsePage(params: URLSearchParams): number {
  return parsePageNumber(params.get("page"));
}

/** /accessories: the page, and `packs=1` to show only the featured accessories (the packs). */
export type AccessoriesQuery = { page: number; packs: boolean };

export function parseAccessoriesQuery(params: URLSearchParams): AccessoriesQuery {
  return { page: parsePage(params), packs: params.get("packs") === "1" };
}

/** A listing URL without its defaults (page 1, all products): links and canonical path alike. */
export function listingHref(pathname: string, query: { page?: number; packs?: boolean }): string {
  const params = new URLSearchParams();
  if (query.packs) params.set("packs", "1");
  if (query.page && query.page > 1) params.set("page", String(query.page));
  const search = params.toString();
  return search ? `${pathname}?${search}` : pathname;
}

/** Each page of a listing gets its own title ("Accessoires – page 2"), as search engines prefer. */
export function pagedTitle(title: string, page: number): string {
  return page > 1 ? `${title} – page ${page}` : title;
}
