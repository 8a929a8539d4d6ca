import { normalizeSearch } from "./search";

/** "Dracaufeu Holo – Set de Base" → "dracaufeu-holo-set-de-base" (at most 60 characters). */
export function productSlug(name: string): string {
  return normalizeSearch(name)
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
}

/** The canonical path of a product page: /product/{id}-{slug}. */
export function productPath(p: { id: number; name: string }): string {
  const slug = productSlug(p.name);
  return slug ? `/product/${p.id}-${slug}` : `/product/${p.id}`;
}

/** Reads the id of /product/{id} and /product/{id}-{slug}; null for anything else. */
export function parseProductParam(param: string | undefined): number | null {
  const match = /^(\d{1,9})(?:-[a-z0-9-]*)?$/.exec(param ?? "");
  if (!match) return null;
  const id = Number(match[1]);
  return id > 0 ? id : null;
}
