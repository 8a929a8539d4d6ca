/**
 * What an admin action changed on a product, as the admin log (table product_admin) keeps it:
 * { field: { before, after } } over the fields the Journal shows, in JSON-stable values
 * (dates as ISO strings, no undefined) so what is stored reads back equal.
 */

export const LOGGED_PRODUCT_FIELDS = [
  "title",
  "description",
  "priceCents",
  "stock",
  "status",
  "category",
  "subCategory",
  "cardType",
  "featured",
  "dropTime",
  "imagePath",
  "additionalImages",
  "series",
  "rarity",
  "condition",
  "compareAtCents",
  "weightGrams",
  "vatRateBp",
  "vatScheme",
  "safetyProfileId",
  "manufacturerName",
  "manufacturerAddress",
  "manufacturerEmail",
  "manufacturerOutsideEu",
  "euRepName",
  "euRepAddress",
  "euRepEmail",
  "ean",
  "manufacturerReference",
  "safetyWarnings",
  "labelImagePath",
  "pegiRating",
  "pegiDescriptors",
  // Only an archive sets it: the log then says why the product vanished.
  "archivedAt",
] as const;
export type LoggedProductField = (typeof LOGGED_PRODUCT_FIELDS)[number];

export type LoggedValue = string | number | boolean | string[] | null;
export type FieldChange = { before: LoggedValue; after: LoggedValue };
export type ProductChanges = Partial<Record<LoggedProductField, FieldChange>>;

/** Any product-shaped object; fields it lacks count as null. */
export type LoggedProduct = { [K in LoggedProductField]?: string | number | boolean | Date | readonly string[] | null };

function jsonValue(value: LoggedProduct[LoggedProductField]): LoggedValue {
  if (value === undefined || value === null) return null;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return [...value];
  return value as string | number | boolean;
}

function same(a: LoggedValue, b: LoggedValue): boolean {
  // No images and no list at all read the same in the Journal.
  if (Array.isArray(a) && a.length === 0) a = null;
  if (Array.isArray(b) && b.length === 0) b = null;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => item === b[i]);
  }
  return a === b;
}

/**
 * The fields that differ between two states of a product. `before` is null for a creation and
 * `after` null for a deletion: every field set on the other side is then listed.
 */
export function productChanges(before: LoggedProduct | null, after: LoggedProduct | null): ProductChanges {
  const changes: ProductChanges = {};
  for (const field of LOGGED_PRODUCT_FIELDS) {
    const was = jsonValue(before?.[field]);
    const is = jsonValue(after?.[field]);
    if (!same(was, is)) changes[field] = { before: was, after: is };
  }
  return changes;
}

/** The product as the log keeps it (snapshot column): every logged field, JSON-stable. */
export function productSnapshot(product: LoggedProduct & { id: number; createdAt?: Date }): Record<string, LoggedValue> {
  const snapshot: Record<string, LoggedValue> = { id: product.id };
  for (const field of LOGGED_PRODUCT_FIELDS) snapshot[field] = jsonValue(product[field]);
  if (product.createdAt) snapshot.createdAt = product.createdAt.toISOString();
  return snapshot;
}
