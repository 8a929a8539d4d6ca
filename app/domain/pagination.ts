import { intParam } from "./query-params";

/** `?page=`: a whole number from 1; anything else is page 1 (services clamp the top). */
export function parsePageNumber(value: string | null): number {
  return intParam(value, { min: 1, max: 10_000 }, 1);
}

/**
 * The page numbers a pager shows: at most `max` consecutive numbers around the current page
 * (SPEC.md: the TCG page shows at most 5), shifted at the ends so there are always `max`
 * when there are that many pages.
 */
export function pageWindow(current: number, pageCount: number, max = 5): number[] {
  if (pageCount <= 0) return [];
  const count = Math.min(max, pageCount);
  const page = Math.min(Math.max(1, current), pageCount);
  const first = Math.min(Math.max(1, page - Math.floor(count / 2)), pageCount - count + 1);
  return Array.from({ length: count }, (_, i) => first + i);
}
