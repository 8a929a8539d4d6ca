import { CsvError as CsvParseError, parse } from "csv-parse/sync";
import {
  PRODUCT_FORM_FIELDS,
  type ProductFormField,
  type ProductFormInput,
  type ProductFormValues,
  productFieldErrors,
  productFormInputOf,
  productFormSchema,
  vatRateText,
} from "./product-form";
import { brandKey, type SafetyProfileSummary } from "./safety-profile";

/**
 * The catalogue as CSV (RFC 4180) for a spreadsheet: export with every product field, import
 * that creates (no id) or updates (id) through the product form's schema. Line numbers are the
 * spreadsheet's row numbers: the header is line 1, a multi-line cell stays one line.
 */

/** The shipping, VAT, product-safety and PEGI columns (issues 37 and 52): see KEPT_WHEN_ABSENT. */
const DETAIL_COLUMNS = [
  "compare_at_price",
  "weight_grams",
  "vat_rate",
  "margin_scheme",
  "safety_brand",
  "manufacturer_name",
  "manufacturer_address",
  "manufacturer_email",
  "ean",
  "safety_warnings",
  "manufacturer_outside_eu",
  "eu_rep_name",
  "eu_rep_address",
  "eu_rep_email",
  "manufacturer_reference",
  "label_image_path",
  "pegi_rating",
  "pegi_descriptors",
] as const;

export const CATALOG_CSV_COLUMNS = [
  "id",
  "title",
  "description",
  "price",
  "stock",
  "stock_exported",
  "status",
  "category",
  "sub_category",
  "card_type",
  "series",
  "rarity",
  "condition",
  "featured",
  "drop_time",
  "image_path",
  "additional_images",
  ...DETAIL_COLUMNS,
  "created_at",
  "updated_at",
] as const;
export type CatalogCsvColumn = (typeof CATALOG_CSV_COLUMNS)[number];

/** Written by the export for the reader; the import ignores them (the shop sets them). */
const EXPORT_ONLY: readonly CatalogCsvColumn[] = ["created_at", "updated_at"];
/**
 * Read when there, not required: a file made by hand has no stock as exported, and a file exported
 * before the shipping, VAT and product-safety columns existed has none of them: a product it updates
 * keeps its values for a column the file lacks (an empty cell, in a file that has the column, is the
 * default: the category's weight and rate, the brand's safety values, no former price).
 */
const KEPT_WHEN_ABSENT: readonly CatalogCsvColumn[] = DETAIL_COLUMNS;
const OPTIONAL: readonly CatalogCsvColumn[] = [...EXPORT_ONLY, "stock_exported", ...KEPT_WHEN_ABSENT];
export const MAX_IMPORT_ROWS = 5000;

export type CsvError = { line: number; message: string };

// ---------------------------------------------------------------------------------------------
// RFC 4180

const BOM = "\uFEFF";

function quote(cell: string, delimiter: string): string {
  // Edge spaces are quoted too: a spreadsheet would otherwise trim them.
  return /["\r\n]/.test(cell) || cell.includes(delimiter) || cell !== cell.trim() ? `"${cell.replace(/"/g, '""')}"` : cell;
}

/** CSV text with a UTF-8 BOM (Excel then reads the accents right) and CRLF line ends. */
export function serializeCsv(rows: readonly (readonly string[])[], delimiter: ";" | "," = ";"): string {
  return BOM + rows.map((row) => row.map((cell) => quote(cell, delimiter)).join(delimiter)).join("\r\n") + "\r\n";
}

/** `;` (French Excel) or `,`: whichever the header line, outside quotes, holds more of. */
export function detectDelimiter(text: string): ";" | "," {
  let semicolons = 0;
  let commas = 0;
  let quoted = false;
  for (const char of text.replace(/^\uFEFF/, "")) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === "\n" || char === "\r")) break;
    else if (!quoted && char === ";") semicolons++;
    else if (!quoted && char === ",") commas++;
  }
  return semicolons > commas ? ";" : ",";
}

export type CsvRecord = { line: number; cells: string[] };

/** What csv-parse's error codes mean for a seller, for the quotes misplaced in a spreadsheet's file. */
const QUOTE_ERRORS: Record<string, string> = {
  CSV_INVALID_CLOSING_QUOTE: "guillemet mal placé (une cellule entre guillemets doit finir au guillemet)",
  INVALID_OPENING_QUOTE: "guillemet mal placé (mettez la cellule entre guillemets et doublez ses guillemets)",
  CSV_QUOTE_NOT_CLOSED: "guillemet non fermé",
};

/**
 * Records of a CSV text (BOM dropped, CRLF, LF or CR), read by csv-parse; blank records are
 * skipped. Each record's line is its number among all records, blank ones included (csv-parse
 * numbers empty lines too, when it does not skip them): the spreadsheet's row number.
 */
export function parseCsv(text: string): { ok: true; records: CsvRecord[] } | { ok: false; error: CsvError } {
  const records: CsvRecord[] = [];
  try {
    parse(text, {
      bom: true,
      delimiter: detectDelimiter(text),
      record_delimiter: ["\r\n", "\n", "\r"],
      relax_column_count: true,
      skip_empty_lines: false,
      on_record: (cells, { records: line }) => {
        if (cells.some((value) => value.trim() !== "")) records.push({ line, cells });
        return null; // kept here, with its line
      },
    });
  } catch (error) {
    const message = error instanceof CsvParseError ? QUOTE_ERRORS[error.code] : undefined;
    if (!message) throw error;
    // The records read in full before the faulty one.
    const line = Number((error as CsvParseError).records) + 1;
    return { ok: false, error: { line, message: `Ligne ${line} : ${message}` } };
  }
  return { ok: true, records };
}

/**
 * Windows-1252's bytes 0x80–0x9F (€ ‚ ƒ „ … † ‡ ˆ ‰ Š ‹ Œ Ž ‘ ’ “ ” • – — ˜ ™ š › œ ž Ÿ), which
 * Node's TextDecoder("windows-1252") reads as Latin-1's invisible control characters: French
 * Excel's apostrophes, dashes, œ and € came out as U+0080–U+009F. The 5 unassigned bytes stay
 * as they are (the WHATWG table does the same).
 */
const WINDOWS_1252_HIGH: Record<number, number> = {
  0x80: 0x20ac, 0x82: 0x201a, 0x83: 0x0192, 0x84: 0x201e, 0x85: 0x2026, 0x86: 0x2020, 0x87: 0x2021, 0x88: 0x02c6,
  0x89: 0x2030, 0x8a: 0x0160, 0x8b: 0x2039, 0x8c: 0x0152, 0x8e: 0x017d, 0x91: 0x2018, 0x92: 0x2019, 0x93: 0x201c,
  0x94: 0x201d, 0x95: 0x2022, 0x96: 0x2013, 0x97: 0x2014, 0x98: 0x02dc, 0x99: 0x2122, 0x9a: 0x0161, 0x9b: 0x203a,
  0x9c: 0x0153, 0x9e: 0x017e, 0x9f: 0x0178,
};

/** An import file's text: UTF-8, else Windows-1252 (what French Excel writes); null for a binary file. */
export function decodeCsvBytes(bytes: Uint8Array): string | null {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    text = new TextDecoder("windows-1252").decode(bytes).replace(/[\u0080-\u009f]/g, (c) => String.fromCharCode(WINDOWS_1252_HIGH[c.charCodeAt(0)] ?? c.charCodeAt(0)));
  }
  return text.includes("\u0000") ? null : text;
}

// ---------------------------------------------------------------------------------------------
// Catalogue rows

/** A products row as far as the export goes. */
type StoredProduct = Parameters<typeof productFormInputOf>[0];
export type CatalogCsvProduct = StoredProduct & { id: number; createdAt: Date; updatedAt: Date };

/** A brand safety profile (safety_brand holds the brand, the form the id; its values complete a row's). */
export type CsvSafetyProfile = SafetyProfileSummary;

const FORM_FIELD_OF: Partial<Record<CatalogCsvColumn, ProductFormField>> = {
  title: "name",
  description: "description",
  price: "price",
  stock: "stock",
  status: "status",
  category: "category",
  sub_category: "subCategory",
  card_type: "cardType",
  series: "series",
  rarity: "rarity",
  condition: "condition",
  featured: "featured",
  image_path: "image",
  additional_images: "additionalImages",
  compare_at_price: "compareAt",
  weight_grams: "weight",
  vat_rate: "vatRate",
  margin_scheme: "marginScheme",
  safety_brand: "safetyProfile",
  manufacturer_name: "manufacturerName",
  manufacturer_address: "manufacturerAddress",
  manufacturer_email: "manufacturerEmail",
  ean: "ean",
  safety_warnings: "safetyWarnings",
  manufacturer_outside_eu: "manufacturerOutsideEu",
  eu_rep_name: "euRepName",
  eu_rep_address: "euRepAddress",
  eu_rep_email: "euRepEmail",
  manufacturer_reference: "manufacturerReference",
  label_image_path: "labelImage",
  pegi_rating: "pegiRating",
  pegi_descriptors: "pegiDescriptors",
};

const COLUMN_OF = Object.fromEntries(
  [...Object.entries(FORM_FIELD_OF), ["drop_time", "launchDate"], ["drop_time", "launchTime"]].map(([column, field]) => [field, column]),
) as Record<ProductFormField, CatalogCsvColumn>;

/** Between the images of additional_images and the descriptors of pegi_descriptors. */
const LIST_SEPARATOR = "|";

/**
 * A spreadsheet runs a cell that starts with = + - @ (or a tab or carriage return before them)
 * as a formula: `=HYPERLINK(…)` in a product name would run on the seller's computer when the
 * export is opened (CSV injection). Such a cell leaves with an apostrophe in front, as OWASP
 * advises, and so does one that starts with an apostrophe, so the import can take exactly one
 * off (fromSpreadsheetText) and every name comes back as it was.
 */
export function toSpreadsheetText(cell: string): string {
  return /^[=+\-@\t\r']/.test(cell) ? `'${cell}` : cell;
}

export function fromSpreadsheetText(cell: string): string {
  return cell.startsWith("'") ? cell.slice(1) : cell;
}

/**
 * One product as export cells, in CATALOG_CSV_COLUMNS order; price in euros with a decimal comma
 * ("12,50"), as French Excel reads a number in a file separated by semicolons (a dot made it
 * text, or a date); the import reads both.
 */
export function catalogCsvCells(product: CatalogCsvProduct, profiles: readonly CsvSafetyProfile[] = []): string[] {
  const form = productFormInputOf(product);
  const cells: Record<CatalogCsvColumn, string> = {
    id: String(product.id),
    title: form.name,
    description: form.description,
    price: form.price,
    stock: form.stock,
    // What the stock was when the file was written: the import adds the difference the seller
    // typed to the stock of the moment, so units sold since are not put back on sale.
    stock_exported: form.stock,
    status: form.status,
    category: form.category,
    sub_category: form.subCategory,
    card_type: form.cardType,
    series: form.series,
    rarity: form.rarity,
    condition: form.condition,
    featured: product.featured ? "oui" : "non",
    // Paris wall time, as the form shows it.
    drop_time: form.launchDate && `${form.launchDate} ${form.launchTime}`,
    image_path: form.image,
    additional_images: [form.additionalImages].flat().join(LIST_SEPARATOR),
    compare_at_price: form.compareAt,
    weight_grams: form.weight,
    vat_rate: vatRateText(product.vatRateBp),
    margin_scheme: product.vatScheme === "margin" ? "oui" : "non",
    safety_brand: profiles.find((profile) => profile.id === product.safetyProfileId)?.brand ?? "",
    manufacturer_name: form.manufacturerName,
    manufacturer_address: form.manufacturerAddress,
    manufacturer_email: form.manufacturerEmail,
    ean: form.ean,
    safety_warnings: form.safetyWarnings,
    manufacturer_outside_eu: form.manufacturerOutsideEu,
    eu_rep_name: form.euRepName,
    eu_rep_address: form.euRepAddress,
    eu_rep_email: form.euRepEmail,
    manufacturer_reference: form.manufacturerReference,
    label_image_path: form.labelImage,
    pegi_rating: form.pegiRating,
    pegi_descriptors: [form.pegiDescriptors].flat().join(LIST_SEPARATOR),
    created_at: product.createdAt.toISOString(),
    updated_at: product.updatedAt.toISOString(),
  };
  // Every column: a free sub-category (accessories, mangas) holds text as well as a name does.
  return CATALOG_CSV_COLUMNS.map((column) => toSpreadsheetText(cells[column]));
}

export function catalogCsv(products: readonly CatalogCsvProduct[], profiles: readonly CsvSafetyProfile[] = []): string {
  return serializeCsv([[...CATALOG_CSV_COLUMNS], ...products.map((product) => catalogCsvCells(product, profiles))]);
}

/**
 * A data row of an import: the product to update (id) or null to create, its form input (the
 * brand's name in safetyProfile, as the file says it), the stock the export wrote for it (null in
 * a file without that column, or for a new product), and the fields whose column the file lacks.
 */
export type CatalogCsvRow = { line: number; id: number | null; input: ProductFormInput; stockExported: number | null; absent: ProductFormField[] };

/**
 * The rows of an import file, or French errors by line: structure, header, ids (well formed,
 * once each). The values themselves are checked by validateCatalogRow.
 */
export function readCatalogCsv(text: string): { rows: CatalogCsvRow[]; errors: CsvError[] } {
  const parsed = parseCsv(text);
  if (!parsed.ok) return { rows: [], errors: [parsed.error] };
  const [header, ...records] = parsed.records;
  if (!header) return { rows: [], errors: [{ line: 1, message: "Ligne 1 : le fichier est vide" }] };

  const errors: CsvError[] = [];
  const names = header.cells.map((name) => name.trim().toLowerCase());
  const columns: (CatalogCsvColumn | null)[] = names.map((name) => ((CATALOG_CSV_COLUMNS as readonly string[]).includes(name) ? (name as CatalogCsvColumn) : null));
  names.forEach((name, i) => {
    if (name !== "" && columns[i] === null) errors.push({ line: header.line, message: `Ligne ${header.line} : colonne inconnue « ${name} »` });
    if (name !== "" && names.indexOf(name) !== i) errors.push({ line: header.line, message: `Ligne ${header.line} : colonne « ${name} » en double` });
  });
  for (const column of CATALOG_CSV_COLUMNS) {
    if (!OPTIONAL.includes(column) && !columns.includes(column)) {
      errors.push({ line: header.line, message: `Ligne ${header.line} : colonne manquante « ${column} »` });
    }
  }
  if (records.length > MAX_IMPORT_ROWS) {
    errors.push({ line: header.line, message: `Le fichier dépasse ${MAX_IMPORT_ROWS} produits : importez-le en plusieurs fois` });
  }
  if (errors.length > 0) return { rows: [], errors };

  const rows: CatalogCsvRow[] = [];
  const firstLineOfId = new Map<number, number>();
  for (const record of records) {
    const cell = (column: CatalogCsvColumn) => fromSpreadsheetText((record.cells[columns.indexOf(column)] ?? "").trim());
    if (record.cells.length > header.cells.length && record.cells.slice(header.cells.length).some((value) => value.trim() !== "")) {
      errors.push({ line: record.line, message: `Ligne ${record.line} : plus de cellules que de colonnes` });
      continue;
    }
    const idText = cell("id");
    let id: number | null = null;
    if (idText !== "") {
      id = /^\d{1,10}$/.test(idText) ? Number(idText) : NaN;
      if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) {
        errors.push({ line: record.line, message: `Ligne ${record.line} : identifiant invalide « ${idText} » (colonne id)` });
        continue;
      }
      const seen = firstLineOfId.get(id);
      if (seen !== undefined) {
        errors.push({ line: record.line, message: `Ligne ${record.line} : le produit ${id} figure déjà ligne ${seen}` });
        continue;
      }
      firstLineOfId.set(id, record.line);
    }
    const exportedText = columns.includes("stock_exported") ? cell("stock_exported") : "";
    const stockExported = exportedText === "" || id === null ? null : /^\d{1,9}$/.test(exportedText) ? Number(exportedText) : NaN;
    if (Number.isNaN(stockExported)) {
      errors.push({ line: record.line, message: `Ligne ${record.line} : stock exporté invalide « ${exportedText} » : laissez la valeur de l'export (colonne stock_exported)` });
      continue;
    }
    const [launchDate = "", launchTime = ""] = cell("drop_time").split(/[ T]+/);
    const input: ProductFormInput = { launchDate, launchTime };
    const absent: ProductFormField[] = [];
    for (const [column, field] of Object.entries(FORM_FIELD_OF) as [CatalogCsvColumn, ProductFormField][]) {
      if (!columns.includes(column)) absent.push(field);
      else if (field === "additionalImages" || field === "pegiDescriptors") input[field] = cell(column).split(LIST_SEPARATOR);
      else input[field] = cell(column);
    }
    rows.push({ line: record.line, id, input, stockExported, absent });
  }
  return { rows, errors };
}

/**
 * The stock an import writes for a product the export wrote with `exported` units, now at
 * `current`, where the file says `typed`. Units sold since the export must not go back on sale,
 * and a file imported twice must not add its restock twice: the stock moves only from the stock
 * exported, or is already what the file says. Otherwise the seller exports again.
 */
export function stockFromImport(current: number, typed: number, exported: number | null): { ok: true; stock: number } | { ok: false; message: string } {
  if (exported === null || current === exported || current === typed) return { ok: true, stock: typed };
  if (typed === exported) return { ok: true, stock: current };
  return { ok: false, message: `le stock a changé depuis l'export (${exported} → ${current}) : exportez le catalogue à nouveau, ou laissez le stock exporté` };
}

/**
 * A row checked by the product form's schema; errors read "Ligne N : message (colonne x)".
 * `currentDropTime` is the updated product's launch (see productFormSchema); `current` the
 * updated product, whose values stay for the columns the file lacks; `safetyProfiles` the brands
 * safety_brand may name (any case).
 */
export function validateCatalogRow(
  row: CatalogCsvRow,
  options: { now: Date; currentDropTime?: Date | null; current?: StoredProduct | null; safetyProfiles?: readonly CsvSafetyProfile[] },
): { ok: true; values: ProductFormValues } | { ok: false; errors: CsvError[] } {
  const profiles = options.safetyProfiles ?? [];
  const input: ProductFormInput = { ...row.input };
  const kept = options.current ? productFormInputOf(options.current) : null;
  for (const field of row.absent) {
    if (field === "additionalImages") continue;
    if (field === "pegiDescriptors") input.pegiDescriptors = kept?.pegiDescriptors ?? [];
    else input[field] = kept?.[field] ?? "";
  }
  const errors: CsvError[] = [];
  const brand = row.absent.includes("safetyProfile") ? "" : (input.safetyProfile ?? "");
  if (brand !== "") {
    const profile = profiles.find((candidate) => brandKey(candidate.brand) === brandKey(brand));
    input.safetyProfile = profile ? String(profile.id) : "";
    if (!profile) {
      errors.push({ line: row.line, message: `Ligne ${row.line} : marque inconnue « ${brand} » : créez-la dans Sécurité des produits ou laissez la cellule vide (colonne safety_brand)` });
    }
  }
  const parsed = productFormSchema({ ...options, safetyProfiles: profiles }).safeParse(input);
  if (parsed.success && errors.length === 0) return { ok: true, values: parsed.data };
  const fieldErrors = parsed.success ? {} : productFieldErrors(parsed.error);
  for (const field of PRODUCT_FORM_FIELDS) {
    const message = fieldErrors[field];
    if (message) errors.push({ line: row.line, message: `Ligne ${row.line} : ${message} (colonne ${COLUMN_OF[field]})` });
  }
  return { ok: false, errors };
}
