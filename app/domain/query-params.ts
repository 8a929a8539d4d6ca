/**
 * Readers of URL query parameters, shared by loaders and the browser (a pending /tcg state is
 * read from the URL being loaded). A query string is never an error: anything missing or out of
 * range reads as the default. Kept free of a schema library so the public pages' JavaScript stays
 * small (docs/performance.md); forms keep their zod schemas.
 */

/** Trimmed text; longer than `maxLength` once trimmed gives "". */
export function textParam(value: string | null, maxLength: number): string {
  const text = (value ?? "").trim();
  return text.length > maxLength ? "" : text;
}

/** One of `allowed`, else `fallback`. */
export function oneOfParam<T extends string, F extends T | null>(value: string | null, allowed: readonly T[], fallback: F): T | F {
  return value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
}

/**
 * A whole number in [min, max], else `fallback`. Read as `Number()` reads it (" 3 " and "1e3"
 * count, "" and "2.5" do not).
 */
export function intParam(value: string | null, range: { min: number; max: number }, fallback: number): number {
  if (value === null || value.trim() === "") return fallback;
  const n = Number(value);
  return Number.isInteger(n) && n >= range.min && n <= range.max ? n : fallback;
}
