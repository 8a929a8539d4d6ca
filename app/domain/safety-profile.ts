import { z } from "zod";
import { hasForbiddenCharacters, visibleLength } from "./text-rules";

/**
 * Product safety (GPSR, Reg. 2023/988 art. 19): each offer shows the manufacturer's name, postal
 * and electronic address, an identifier and the warnings. The seller keeps them once per brand
 * (a safety profile, /admin/product-safety) and a product may override each value. Pure: the admin
 * page, the product form and the product page read these rules.
 */

export const BRAND_MAX_LENGTH = 100;
export const MANUFACTURER_NAME_MAX_LENGTH = 200;
export const POSTAL_ADDRESS_MAX_LENGTH = 500;
export const EMAIL_MAX_LENGTH = 254;
export const WARNINGS_MAX_LENGTH = 2000;

/**
 * The values a profile holds; an empty address or e-mail is not known yet. A manufacturer
 * established outside the EU also needs its EU responsible person (art. 19 b; Reg. 2019/1020 art. 4).
 */
export type SafetyProfileValues = {
  manufacturerName: string;
  postalAddress: string;
  email: string;
  warnings: string;
  manufacturerOutsideEu: boolean;
  euRepName: string;
  euRepAddress: string;
  euRepEmail: string;
};
export type SafetyProfileSummary = SafetyProfileValues & { id: number; brand: string };

/** The per-product overrides (null: the brand's value). */
export type SafetyOverrides = {
  manufacturerName?: string | null;
  manufacturerAddress?: string | null;
  manufacturerEmail?: string | null;
  manufacturerOutsideEu?: boolean | null;
  euRepName?: string | null;
  euRepAddress?: string | null;
  euRepEmail?: string | null;
  safetyWarnings?: string | null;
  ean?: string | null;
  manufacturerReference?: string | null;
  labelImagePath?: string | null;
};

/** What a product page shows under "Sécurité du produit"; null where neither the product nor its brand says. */
export type ProductSafety = {
  manufacturerName: string | null;
  postalAddress: string | null;
  email: string | null;
  /** Whether the EU responsible person is required (and shown). */
  manufacturerOutsideEu: boolean;
  euRepName: string | null;
  euRepAddress: string | null;
  euRepEmail: string | null;
  /** The identifier: the GTIN/EAN, else the manufacturer's reference (never the shop's own id). */
  ean: string | null;
  manufacturerReference: string | null;
  warnings: string | null;
  /** A picture of the product's label (a storage key), optional. */
  labelImagePath: string | null;
};

const given = (value: string | null | undefined) => (value && value.trim() !== "" ? value.trim() : null);

/** The product's own values first, else its brand profile's. */
export function productSafety(product: SafetyOverrides, profile: SafetyProfileValues | null | undefined): ProductSafety {
  return {
    manufacturerName: given(product.manufacturerName) ?? given(profile?.manufacturerName),
    postalAddress: given(product.manufacturerAddress) ?? given(profile?.postalAddress),
    email: given(product.manufacturerEmail) ?? given(profile?.email),
    manufacturerOutsideEu: product.manufacturerOutsideEu ?? profile?.manufacturerOutsideEu ?? false,
    euRepName: given(product.euRepName) ?? given(profile?.euRepName),
    euRepAddress: given(product.euRepAddress) ?? given(profile?.euRepAddress),
    euRepEmail: given(product.euRepEmail) ?? given(profile?.euRepEmail),
    ean: given(product.ean),
    manufacturerReference: given(product.manufacturerReference),
    warnings: given(product.safetyWarnings) ?? given(profile?.warnings),
    labelImagePath: given(product.labelImagePath),
  };
}

/**
 * What art. 19 asks that neither the product nor its brand gives, in the seller's words: empty
 * when complete. The identifier is the product's own, so a brand profile is checked without it
 * (`identifier: false`). The label's picture is optional (the product's own pictures show it).
 */
export function missingSafetyInformation(safety: ProductSafety, { identifier = true }: { identifier?: boolean } = {}): string[] {
  const missing: string[] = [];
  if (!safety.manufacturerName) missing.push("nom du fabricant");
  if (!safety.postalAddress) missing.push("adresse postale du fabricant");
  if (!safety.email) missing.push("adresse électronique du fabricant");
  if (safety.manufacturerOutsideEu) {
    if (!safety.euRepName) missing.push("nom de la personne responsable dans l'UE");
    if (!safety.euRepAddress) missing.push("adresse postale de la personne responsable dans l'UE");
    if (!safety.euRepEmail) missing.push("adresse électronique de la personne responsable dans l'UE");
  }
  if (identifier && !safety.ean && !safety.manufacturerReference) missing.push("identifiant du produit (EAN ou référence du fabricant)");
  if (!safety.warnings) missing.push("avertissements et informations de sécurité");
  return missing;
}

/** What a brand profile lacks (the admin page and the form's brand select mark it incomplete). */
export function missingSafetyFields(profile: SafetyProfileValues): string[] {
  return missingSafetyInformation(productSafety({}, profile), { identifier: false });
}

/** The refusal of a publication (en_ligne) or a scheduled launch (a_venir), listing what is missing. */
export function safetyPublicationRefusal(missing: readonly string[]): string {
  return `Publication impossible : informations de sécurité manquantes (${missing.join(", ")}). Complétez-les dans « Sécurité du produit » ou la fiche de la marque, ou enregistrez le produit hors ligne.`;
}

/**
 * The age warning most trading card products carry on their packaging. Offered as a starting
 * text for a brand's profile (the seller copies it from the product's own packaging): it is not
 * assumed for any product.
 */
export const TCG_AGE_WARNING_SUGGESTION = "Ne convient pas aux enfants de moins de 3 ans. Petits éléments.";

// ---------------------------------------------------------------------------------------------
// The profile form (/admin/product-safety): one schema for the browser and the action

export const SAFETY_PROFILE_FIELDS = ["brand", "manufacturerName", "postalAddress", "email", "warnings", "manufacturerOutsideEu", "euRepName", "euRepAddress", "euRepEmail"] as const;
export type SafetyProfileField = (typeof SAFETY_PROFILE_FIELDS)[number];
export type SafetyProfileInput = Partial<Record<SafetyProfileField, string>>;
export type SafetyProfileFormValues = { brand: string } & SafetyProfileValues;

const text = z.string({ error: "Valeur invalide" }).optional().transform((value) => (value ?? "").trim());

/** "oui"/"non" as a form's checkbox, select or a spreadsheet writes it; undefined for anything else. */
export function parseYesNo(value: string): boolean | undefined {
  const v = value.trim().toLowerCase();
  if (["on", "true", "1", "oui"].includes(v)) return true;
  if (["", "off", "false", "0", "non"].includes(v)) return false;
  return undefined;
}

/** A line of text (a name, a brand): visible, within its length, without control characters. */
export function checkLine(value: string, label: string, max: number, required: boolean): string | null {
  if (visibleLength(value) === 0) return required ? `${label} est obligatoire` : null;
  if (value.length > max) return `${label} ne peut pas dépasser ${max} caractères`;
  if (hasForbiddenCharacters(value)) return `${label} contient des caractères non autorisés`;
  return null;
}

/** Several lines (an address, warnings): line breaks are fine, other control characters are not. */
export function checkLines(value: string, label: string, max: number): string | null {
  if (value.length > max) return `${label} ne peut pas dépasser ${max} caractères`;
  if (hasForbiddenCharacters(value.replace(/\r\n?|\n/g, " "))) return `${label} contient des caractères non autorisés`;
  return null;
}

const EMAIL = z.email();
/** Line ends as the browser or a spreadsheet sent them (CRLF, CR), stored as LF. */
const lines = (value: string) => value.replace(/\r\n?/g, "\n");

/** An e-mail address as typed (empty allowed), or why not. */
export function checkEmail(value: string, label = "L'e-mail"): string | null {
  if (value === "") return null;
  if (value.length > EMAIL_MAX_LENGTH || !EMAIL.safeParse(value).success) return `${label} n'est pas une adresse valide`;
  return null;
}

export const safetyProfileSchema = z
  .object({ brand: text, manufacturerName: text, postalAddress: text, email: text, warnings: text, manufacturerOutsideEu: text, euRepName: text, euRepAddress: text, euRepEmail: text })
  .transform((raw, ctx): SafetyProfileFormValues => {
    const fail = (field: SafetyProfileField, message: string | null) => message && ctx.addIssue({ code: "custom", path: [field], message });
    fail("brand", checkLine(raw.brand, "La marque", BRAND_MAX_LENGTH, true));
    fail("manufacturerName", checkLine(raw.manufacturerName, "Le nom du fabricant", MANUFACTURER_NAME_MAX_LENGTH, true));
    fail("postalAddress", checkLines(raw.postalAddress, "L'adresse postale", POSTAL_ADDRESS_MAX_LENGTH));
    fail("email", checkEmail(raw.email.toLowerCase()));
    fail("warnings", checkLines(raw.warnings, "Le texte des avertissements", WARNINGS_MAX_LENGTH));
    const outsideEu = parseYesNo(raw.manufacturerOutsideEu);
    if (outsideEu === undefined) fail("manufacturerOutsideEu", "Valeur invalide (oui ou non)");
    fail("euRepName", checkLine(raw.euRepName, "Le nom de la personne responsable", MANUFACTURER_NAME_MAX_LENGTH, false));
    fail("euRepAddress", checkLines(raw.euRepAddress, "L'adresse postale de la personne responsable", POSTAL_ADDRESS_MAX_LENGTH));
    fail("euRepEmail", checkEmail(raw.euRepEmail.toLowerCase(), "L'e-mail de la personne responsable"));
    return {
      brand: raw.brand,
      manufacturerName: raw.manufacturerName,
      postalAddress: lines(raw.postalAddress),
      email: raw.email.toLowerCase(),
      warnings: lines(raw.warnings),
      manufacturerOutsideEu: outsideEu === true,
      euRepName: raw.euRepName,
      euRepAddress: lines(raw.euRepAddress),
      euRepEmail: raw.euRepEmail.toLowerCase(),
    };
  });

/** Brands compare without case or edge spaces ("pokémon" is "Pokémon"), for the CSV and duplicates. */
export function brandKey(brand: string): string {
  return brand.trim().toLocaleLowerCase("fr-FR");
}
