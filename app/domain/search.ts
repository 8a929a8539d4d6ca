/** Search normalisation: lower case, accents folded, spaces collapsed ("Écarlate" → "ecarlate"). */
export function normalizeSearch(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase()
    .replace(/œ/g, "oe")
    .replace(/æ/g, "ae")
    .replace(/\s+/g, " ")
    .trim();
}

type Searchable = { title: string; series?: string | null; description?: string | null };

/** The stored search column of a product: name, series and description, normalised. */
export function productSearchText(p: Searchable): string {
  return normalizeSearch([p.title, p.series ?? "", p.description ?? ""].join(" "));
}

/**
 * Every derived search column of a product, written together on each insert or update:
 * full text (catalogue search), name (header suggestions, name sort) and series (card search).
 */
export function productSearchColumns(p: Searchable): { searchText: string; nameSearch: string; seriesSearch: string } {
  return {
    searchText: productSearchText(p),
    nameSearch: normalizeSearch(p.title),
    seriesSearch: normalizeSearch(p.series ?? ""),
  };
}

/** Escapes LIKE wildcards so a customer's "%" or "_" matches itself. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
