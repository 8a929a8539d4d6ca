import { and, asc, inArray, isNull } from "drizzle-orm";
import { type ProductRow, products } from "~/db/schema";
import type { Db, Tx } from "~/db/types";
import { catalogCsv, type CsvError, readCatalogCsv, stockFromImport, validateCatalogRow } from "~/domain/catalog-csv";
import { type ProductChanges, productChanges } from "~/domain/product-changes";
import type { ProductFormValues } from "~/domain/product-form";
import { insertProductLogged, updateProductLogged } from "./product-admin.server";
import { safetyProfileChoices } from "./product-safety.server";

/** Every product but the archived ones (kept only for their orders), oldest first; safety_brand names the brand. */
export async function exportCatalogCsv(db: Db): Promise<string> {
  const rows = await db.select().from(products).where(isNull(products.archivedAt)).orderBy(asc(products.id));
  return catalogCsv(rows, await safetyProfileChoices(db));
}

export type CatalogImportRow = {
  line: number;
  action: "create" | "update" | "unchanged";
  /** Null for a product to create. */
  id: number | null;
  title: string;
  values: ProductFormValues;
  changes: ProductChanges;
};

export type CatalogImportPreview = {
  create: number;
  update: number;
  /** Rows that match their product already: applying them writes nothing. */
  unchanged: number;
  /** Sorted by line; any error stops the whole import. */
  errors: CsvError[];
  rows: CatalogImportRow[];
};

export type CatalogImportResult = { outcome: "applied"; created: number; updated: number } | { outcome: "invalid"; errors: CsvError[] };

/**
 * How an import checks image keys: a key the seller typed must be an image this shop stored
 * (as the product form checks an upload's answer); without it, no check (tests of the rows).
 */
export type ImportOptions = { now?: Date; imageExists?: (key: string) => Promise<boolean> };

/** Image keys a row brings that its product does not already show, missing from storage. */
async function missingImageErrors(line: number, values: ProductFormValues, before: ProductRow | null, exists: (key: string) => Promise<boolean>): Promise<CsvError[]> {
  const known = new Set(before ? [before.imagePath, ...before.additionalImages] : []);
  const errors: CsvError[] = [];
  for (const [column, keys] of [["image_path", [values.imagePath]], ["additional_images", values.additionalImages]] as const) {
    for (const key of keys) {
      if (!known.has(key) && !(await exists(key))) errors.push({ line, message: `Ligne ${line} : image introuvable « ${key} » : envoyez-la depuis le formulaire d'un produit (colonne ${column})` });
    }
  }
  return errors;
}

async function planImport(db: Db | Tx, csvText: string, lock: boolean, { now = new Date(), imageExists }: ImportOptions) {
  const read = readCatalogCsv(csvText);
  const errors = [...read.errors];
  const ids = read.rows.flatMap((row) => (row.id === null ? [] : [row.id]));
  const existing = new Map<number, ProductRow>();
  if (ids.length > 0) {
    const query = db
      .select()
      .from(products)
      .where(and(inArray(products.id, ids), isNull(products.archivedAt)));
    // Applying: the products stay as read until the import commits.
    for (const row of await (lock ? query.for("update") : query)) existing.set(row.id, row);
  }

  const safetyProfiles = read.rows.length > 0 ? await safetyProfileChoices(db) : [];
  const rows: CatalogImportRow[] = [];
  for (const row of read.rows) {
    const before = row.id === null ? null : existing.get(row.id);
    if (before === undefined) {
      errors.push({ line: row.line, message: `Ligne ${row.line} : produit ${row.id} introuvable (colonne id)` });
      continue;
    }
    const checked = validateCatalogRow(row, { now, currentDropTime: before?.dropTime ?? null, current: before, safetyProfiles });
    if (!checked.ok) {
      errors.push(...checked.errors);
      continue;
    }
    const stock = before ? stockFromImport(before.stock, checked.values.stock, row.stockExported) : null;
    if (stock && !stock.ok) {
      errors.push({ line: row.line, message: `Ligne ${row.line} : ${stock.message} (colonne stock)` });
      continue;
    }
    const values = stock ? { ...checked.values, stock: stock.stock } : checked.values;
    const missing = imageExists ? await missingImageErrors(row.line, values, before, imageExists) : [];
    if (missing.length > 0) {
      errors.push(...missing);
      continue;
    }
    const changes = before ? productChanges(before, { ...before, ...values }) : productChanges(null, values);
    const action = !before ? "create" : Object.keys(changes).length > 0 ? "update" : "unchanged";
    rows.push({ line: row.line, action, id: row.id, title: values.title, values, changes });
  }
  errors.sort((a, b) => a.line - b.line);
  const tally = (action: CatalogImportRow["action"]) => rows.filter((row) => row.action === action).length;
  const preview: CatalogImportPreview = { create: tally("create"), update: tally("update"), unchanged: tally("unchanged"), errors, rows };
  return { preview, existing };
}

/** What an import would do, shown before it is applied: rows to create, to update, errors by line. */
export async function previewCatalogImport(db: Db, csvText: string, options: ImportOptions = {}): Promise<CatalogImportPreview> {
  return (await planImport(db, csvText, false, options)).preview;
}

/**
 * Applies an import all or nothing, in one transaction, each row logged as the form logs it
 * (ajout, modification). The file is checked again inside the transaction: the catalogue may
 * have changed since the preview, and any error writes nothing.
 */
export async function applyCatalogImport(db: Db, csvText: string, adminUserId: string, options: ImportOptions = {}): Promise<CatalogImportResult> {
  const now = options.now ?? new Date();
  return db.transaction(async (tx): Promise<CatalogImportResult> => {
    const { preview, existing } = await planImport(tx, csvText, true, { ...options, now });
    if (preview.errors.length > 0) return { outcome: "invalid", errors: preview.errors };
    for (const row of preview.rows) {
      if (row.action === "create") await insertProductLogged(tx, row.values, adminUserId, now);
      else if (row.action === "update") await updateProductLogged(tx, existing.get(row.id!)!, row.values, adminUserId, now);
    }
    return { outcome: "applied", created: preview.create, updated: preview.update };
  });
}
