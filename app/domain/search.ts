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

/** The stored search column of a product: name, series and description, normalised. */
export function productSearchText(p: { title: string; series?: string | null; description?: string | null }): string {
  return normalizeSearch([p.title, p.series ?? "", p.description ?? ""].join(" "));
}

/** Escapes LIKE wildcards so a customer's "%" or "_" matches itself. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
