import { sliceText } from "./text-rules";
import { ADMIN_STATUS_LABELS } from "./admin-product-list";
import { CONDITION_LABELS, RARITY_LABELS } from "./catalog-values";
import { formatEuros } from "./money";
import { formatParisDateTime, formatParisShortDateTime } from "./paris-time";
import { LOGGED_PRODUCT_FIELDS, type LoggedProductField, type LoggedValue, type ProductChanges } from "./product-changes";
import { intParam } from "./query-params";

/**
 * How the admin reads the action log (table product_admin): the Journal at /admin/journal and
 * the CSV import's preview. Field names and stored values (cents, enum keys, ISO dates) become
 * French labels and French-formatted values. Pure: no database, no React.
 */

export type AdminLogAction = "ajout" | "modification" | "suppression";

export const ADMIN_ACTION_LABELS: Record<AdminLogAction, string> = { ajout: "Ajout", modification: "Modification", suppression: "Suppression" };
export const ADMIN_ACTION_TONES = { ajout: "success", modification: "info", suppression: "destructive" } as const satisfies Record<AdminLogAction, string>;

export const LOG_FIELD_LABELS: Record<LoggedProductField, string> = {
  title: "Nom",
  description: "Description",
  priceCents: "Prix",
  stock: "Stock",
  status: "Statut",
  category: "Catégorie",
  subCategory: "Sous-catégorie",
  cardType: "Type de carte",
  featured: "Mis en avant",
  dropTime: "Date de lancement",
  imagePath: "Image principale",
  additionalImages: "Images supplémentaires",
  series: "Série",
  rarity: "Rareté",
  condition: "État",
  compareAtCents: "Prix barré",
  weightGrams: "Poids",
  vatRateBp: "Taux de TVA",
  vatScheme: "Régime de TVA",
  safetyProfileId: "Marque (sécurité)",
  manufacturerName: "Fabricant",
  manufacturerAddress: "Adresse du fabricant",
  manufacturerEmail: "E-mail du fabricant",
  manufacturerOutsideEu: "Fabricant hors UE",
  euRepName: "Personne responsable UE",
  euRepAddress: "Adresse de la personne responsable UE",
  euRepEmail: "E-mail de la personne responsable UE",
  ean: "EAN",
  manufacturerReference: "Référence du fabricant",
  safetyWarnings: "Avertissements",
  labelImagePath: "Photo de l'étiquette",
  pegiRating: "Âge PEGI",
  pegiDescriptors: "Descripteurs PEGI",
  archivedAt: "Archivé",
};

const VAT_SCHEME_LABELS: Record<string, string> = { normal: "Normal", margin: "Bien d'occasion (régime de la marge)" };

export const CARD_TYPE_LABELS: Record<string, string> = { recent: "Récente", vintage: "Vintage" };

/** What an empty value (null, "", no images) reads as. */
export const EMPTY_VALUE = "(vide)";

const integer = new Intl.NumberFormat("fr-FR");

/** A field's label; a field the log may hold one day but this list lacks keeps its own name. */
export function logFieldLabel(field: string): string {
  return (LOG_FIELD_LABELS as Record<string, string>)[field] ?? field;
}

function formatInstant(value: string | number | boolean): string | null {
  const instant = new Date(typeof value === "boolean" ? NaN : value);
  return Number.isNaN(instant.getTime()) ? null : formatParisDateTime(instant);
}

const labelled = (labels: Record<string, string>, value: string | number | boolean) => labels[String(value)] ?? String(value);

/** One stored value as the admin reads it: "12,99 €", "En ligne", "Oui", "21 novembre 2026 à 18:00"… */
export function formatLogValue(field: string, value: LoggedValue | undefined): string {
  if (field === "archivedAt") {
    if (value === null || value === undefined || value === "") return "Non";
    const when = typeof value === "object" ? null : formatInstant(value);
    return when ? `Oui, le ${when}` : "Oui";
  }
  if (value === null || value === undefined || value === "") return EMPTY_VALUE;
  if (Array.isArray(value)) return value.length === 0 ? EMPTY_VALUE : value.join(", ");
  switch (field) {
    case "priceCents":
    case "compareAtCents":
      return typeof value === "number" ? formatEuros(value) : String(value);
    case "weightGrams":
      return typeof value === "number" ? `${integer.format(value)}\u00a0g` : String(value);
    case "vatRateBp":
      return typeof value === "number" ? `${String(value / 100).replace(".", ",")}\u00a0%` : String(value);
    case "vatScheme":
      return labelled(VAT_SCHEME_LABELS, value);
    case "safetyProfileId":
      return typeof value === "number" ? `Fiche n° ${value}` : String(value);
    case "stock":
      return typeof value === "number" ? integer.format(value) : String(value);
    case "status":
      return labelled(ADMIN_STATUS_LABELS, value);
    case "cardType":
      return labelled(CARD_TYPE_LABELS, value);
    case "rarity":
      return labelled(RARITY_LABELS, value);
    case "condition":
      return labelled(CONDITION_LABELS, value);
    case "featured":
      return value === true ? "Oui" : value === false ? "Non" : String(value);
    case "dropTime":
      return formatInstant(value) ?? String(value);
    default:
      return String(value);
  }
}

/** Text longer than this is cut in lists (the full text stays reachable). */
export const LOG_VALUE_PREVIEW_LENGTH = 120;

/** `text` cut at a word boundary near `max` characters, with "…"; unchanged when short enough. */
export function truncateText(text: string, max = LOG_VALUE_PREVIEW_LENGTH): string {
  if (text.length <= max) return text;
  const cut = sliceText(text, max);
  // The cut falls between two words already when the next character is a space.
  const space = /\s/.test(text[max]!) ? max : cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

export type LogChangeLine = { field: string; label: string; before: string; after: string };

/**
 * How an entry's changes read:
 * - "changed": each field "Champ : avant → après" (an edit, an archive);
 * - "created": every value set on a new product, "Champ : valeur" (before is always empty);
 * - "deleted": every value the removed product had, "Champ : valeur" (after is always empty).
 */
export type LogChangeMode = "changed" | "created" | "deleted";

/** The changed fields in the form's order, labelled and formatted; unknown fields last. */
export function logChangeLines(changes: ProductChanges | Record<string, { before: LoggedValue; after: LoggedValue }>): LogChangeLine[] {
  const entries = Object.entries(changes as Record<string, { before: LoggedValue; after: LoggedValue } | undefined>);
  const rank = (field: string) => {
    const i = (LOGGED_PRODUCT_FIELDS as readonly string[]).indexOf(field);
    return i === -1 ? LOGGED_PRODUCT_FIELDS.length : i;
  };
  return entries
    .filter((entry): entry is [string, { before: LoggedValue; after: LoggedValue }] => entry[1] !== undefined && entry[1] !== null)
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([field, change]) => ({
      field,
      label: logFieldLabel(field),
      before: formatLogValue(field, change.before),
      after: formatLogValue(field, change.after),
    }));
}

const isEmpty = (value: LoggedValue | undefined) => value === null || value === undefined || value === "" || (Array.isArray(value) && value.length === 0);

export function logChangeMode(action: AdminLogAction, changes: ProductChanges): LogChangeMode {
  const all = Object.values(changes).filter((change) => change !== undefined);
  if (action === "ajout" && all.every((change) => isEmpty(change.before))) return "created";
  if (action === "suppression" && all.length > 0 && all.every((change) => isEmpty(change.after))) return "deleted";
  return "changed";
}

/** "Champ : avant → après" (French spacing: a no-break space before the colon). */
export function changeLineText(line: LogChangeLine, mode: LogChangeMode = "changed"): string {
  const value = mode === "created" ? line.after : mode === "deleted" ? line.before : `${line.before} → ${line.after}`;
  return `${line.label}\u00a0: ${value}`;
}

/** The journal's date column: "21/11/2026 18:00", Paris time. */
export function formatLogDate(instant: Date | string): string {
  const date = new Date(instant);
  return Number.isNaN(date.getTime()) ? "" : formatParisShortDateTime(date);
}

// ---------------------------------------------------------------------------------------------
// The Journal's URL: ?product={id}&page={n}

export type JournalQuery = { productId: number | null; page: number };

export function parseJournalQuery(params: URLSearchParams): JournalQuery {
  const product = intParam(params.get("product"), { min: 1, max: 2_147_483_647 }, 0);
  return { productId: product === 0 ? null : product, page: intParam(params.get("page"), { min: 1, max: 100_000 }, 1) };
}

/** The URL of a Journal state; the defaults are left out, so the full journal is `/admin/journal`. */
export function journalHref(query: JournalQuery): string {
  const params = new URLSearchParams();
  if (query.productId !== null) params.set("product", String(query.productId));
  if (query.page > 1) params.set("page", String(query.page));
  const search = params.toString();
  return search ? `/admin/journal?${search}` : "/admin/journal";
}

/** "3 actions enregistrées" */
export function actionCountText(total: number): string {
  return total === 0 ? "Aucune action" : `${integer.format(total)} action${total > 1 ? "s" : ""} enregistrée${total > 1 ? "s" : ""}`;
}

// ---------------------------------------------------------------------------------------------
// The CSV import's preview and result

export const IMPORT_ROW_ACTION_LABELS = { create: "Création", update: "Mise à jour", unchanged: "Inchangé" } as const;

/** "Import appliqué : 2 créés, 1 mis à jour." */
export function importAppliedText(created: number, updated: number): string {
  return `Import appliqué\u00a0: ${created} créé${created > 1 ? "s" : ""}, ${updated} mis à jour.`;
}
