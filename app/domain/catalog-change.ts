/**
 * A change announced by the database on the catalog_changes channel (see the trigger in
 * drizzle/0002). "site" is site content (banner, messages); "resync" is sent by the server
 * itself when it may have missed notifications (lost PostgreSQL connection). An update with
 * `stock` changed the product's stock alone, to that value (drizzle/0013). "orders": an order
 * was placed, paid, shipped or refunded (drizzle/0024); only the admin's pages listen to it, and
 * it says nothing of which order.
 */
export type CatalogChange =
  | { op: "insert" | "delete"; id: number }
  | { op: "update"; id: number; stock?: number }
  | { op: "site" }
  | { op: "resync" }
  | { op: "orders" };

/** A change of the catalogue's own rows (a product): what pages, caches and the stock gate follow. */
export type ProductChange = Extract<CatalogChange, { id: number }>;

export function isProductChange(change: CatalogChange): change is ProductChange {
  return "id" in change;
}

export const CATALOG_CHANNEL = "catalog_changes";

export function parseCatalogChange(payload: string): CatalogChange | null {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const { op, id, stock } = value as { op?: unknown; id?: unknown; stock?: unknown };
  if (op === "site" || op === "resync" || op === "orders") return { op };
  if (!Number.isSafeInteger(id)) return null;
  if (op === "update") return Number.isSafeInteger(stock) ? { op, id: id as number, stock: stock as number } : { op, id: id as number };
  if (op === "insert" || op === "delete") return { op, id: id as number };
  return null;
}
