import { textParam } from "./query-params";
import { normalizeSearch } from "./search";

/** Header search suggestions (SPEC.md: more than 1 character, at most 10). */
export const SUGGESTIONS_LIMIT = 10;
export const SUGGESTIONS_MIN_LENGTH = 2;
export const SUGGESTION_QUERY_MAX_LENGTH = 100;

/** One suggestion as /api/search sends it; the price is in cents. */
export type Suggestion = { id: number; name: string; priceCents: number; stock: number; thumbnail: string | null; category: string };

/** Whether a typed text is long enough to ask for suggestions; the browser and the server agree. */
export function wantsSuggestions(text: string): boolean {
  return normalizeSearch(text).length >= SUGGESTIONS_MIN_LENGTH;
}

/** The `q` of /api/search, trimmed; missing or too long gives "" (an empty answer, never an error). */
export function parseSuggestionQuery(params: URLSearchParams): string {
  return textParam(params.get("q"), SUGGESTION_QUERY_MAX_LENGTH);
}

/**
 * The option ArrowDown/ArrowUp moves to in a list of `count` options, wrapping at both ends
 * (ARIA combobox pattern); -1 means "no option", which is where the first key press starts.
 */
export function moveActiveOption(active: number, count: number, direction: 1 | -1): number {
  if (count === 0) return -1;
  if (active < 0) return direction === 1 ? 0 : count - 1;
  return (active + direction + count) % count;
}
