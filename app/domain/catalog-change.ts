/**
 * A change announced by the database on the catalog_changes channel (see the trigger in
 * drizzle/0002). "site" is site content (banner, messages); "resync" is sent by the server
 * itself when it may have missed notifications (lost PostgreSQL connection).
 */
export type CatalogChange =
  | { op: "insert" | "update" | "delete"; id: number }
  | { op: "site" }
  | { op: "resync" };

export const CATALOG_CHANNEL = "catalog_changes";

export function parseCatalogChange(payload: string): CatalogChange | null {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const { op, id } = value as { op?: unknown; id?: unknown };
  if (op === "site" || op === "resync") return { op };
  if ((op === "insert" || op === "update" || op === "delete") && Number.isSafeInteger(id)) {
    return { op, id: id as number };
  }
  return null;
}
