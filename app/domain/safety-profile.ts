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

/** The values a profile holds; an empty address or e-mail is not known yet. */
export type SafetyProfileValues = { manufacturerName: string; postalAddress: string; email: string; warnings: string };
export type SafetyProfileSummary = SafetyProfileValues & { id: number; brand: string };

/** The per-product overrides (null: the brand's value). */
export type SafetyOverrides = {
  manufacturerName?: string | null;
  manufacturerAddress?: string | null;
  manufacturerEmail?: string | null;
  safetyWarnings?: string | null;
  ean?: string | null;
};

/** What the law asks that a profile lacks, in the admin's words: empty when complete. */
export function missingSafetyFields(values: { manufacturerName: string | null; postalAddress: string | null; email: string | null }): string[] {
  const missing: string[] = [];
  if (!values.manufacturerName?.trim()) missing.push("fabricant");
  if (!values.postalAddress?.trim()) missing.push("adresse postale");
  if (!values.email?.trim()) missing.push("e-mail");
  return missing;
}

/** What a product page shows under "Sécurité du produit"; null where neither the product nor its brand says. */
export type ProductSafety = {
  manufacturerName: string | null;
  postalAddress: string | null;
  email: string | null;
  ean: string | null;
  warnings: string | null;
};

const given = (value: string | null | undefined) => (value && value.trim() !== "" ? value.trim() : null);

/** The product's own values first, else its brand profile's. */
export function productSafety(product: SafetyOverrides, profile: SafetyProfileValues | null | undefined): ProductSafety {
  return {
    manufacturerName: given(product.manufacturerName) ?? given(profile?.manufacturerName),
    postalAddress: given(product.manufacturerAddress) ?? given(profile?.postalAddress),
    email: given(product.manufacturerEmail) ?? given(profile?.email),
    ean: given(product.ean),
    warnings: given(product.safetyWarnings) ?? given(profile?.warnings),
  };
}

// ---------------------------------------------------------------------------------------------
// The profile form (/admin/product-safety): one schema for the browser and the action

export const SAFETY_PROFILE_FIELDS = ["brand", "manufacturerName", "postalAddress", "email", "warnings"] as const;
export type SafetyProfileField = (typeof SAFETY_PROFILE_FIELDS)[number];
export type SafetyProfileInput = Partial<Record<SafetyProfileField, string>>;
export type SafetyProfileFormValues = { brand: string } & SafetyProfileValues;

const text = z.string({ error: "Valeur invalide" }).optional().transform((value) => (value ?? "").trim());

/** A line of text (a name, a brand): visible, within its length, without control characters. */
function checkLine(value: string, label: string, max: number, required: boolean): string | null {
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
  .object({ brand: text, manufacturerName: text, postalAddress: text, email: text, warnings: text })
  .transform((raw, ctx): SafetyProfileFormValues => {
    const fail = (field: SafetyProfileField, message: string | null) => message && ctx.addIssue({ code: "custom", path: [field], message });
    fail("brand", checkLine(raw.brand, "La marque", BRAND_MAX_LENGTH, true));
    fail("manufacturerName", checkLine(raw.manufacturerName, "Le nom du fabricant", MANUFACTURER_NAME_MAX_LENGTH, true));
    fail("postalAddress", checkLines(raw.postalAddress, "L'adresse postale", POSTAL_ADDRESS_MAX_LENGTH));
    fail("email", checkEmail(raw.email.toLowerCase()));
    fail("warnings", checkLines(raw.warnings, "Le texte des avertissements", WARNINGS_MAX_LENGTH));
    return { brand: raw.brand, manufacturerName: raw.manufacturerName, postalAddress: lines(raw.postalAddress), email: raw.email.toLowerCase(), warnings: lines(raw.warnings) };
  });

/** Brands compare without case or edge spaces ("pokémon" is "Pokémon"), for the CSV and duplicates. */
export function brandKey(brand: string): string {
  return brand.trim().toLocaleLowerCase("fr-FR");
}
