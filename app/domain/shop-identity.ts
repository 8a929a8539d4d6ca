import { z } from "zod";
import { parseEurosToCents } from "./money";

/**
 * The legal identity of the company behind the shop: what the law makes /legal publish
 * (LCEN article 1-1, formerly 6 III, and article 19; Code de la consommation L221-5, D211-1,
 * L616-1). One schema for the admin form (/admin/settings), the server action and the
 * environment's first values. Every field may be left empty while the seller gathers it: an
 * empty field is "missing", listed in the admin and marked on /legal, never a silent blank.
 */

export const IDENTITY_GROUPS = [
  { id: "company", title: "Société" },
  { id: "contact", title: "Contact" },
  { id: "host", title: "Hébergeur" },
  { id: "mediator", title: "Médiateur" },
] as const;
export type IdentityGroupId = (typeof IDENTITY_GROUPS)[number]["id"];

type FieldSpec = {
  label: string;
  group: IdentityGroupId;
  /** Shown as the input's placeholder: the expected form, not a value. */
  example: string;
  hint?: string;
  /** Takes the whole row of the two-column form. */
  wide?: boolean;
  type?: "email" | "tel" | "url";
};

/** The fields, in the order of the form and of the admin's warning. Labels are unique. */
export const IDENTITY_FIELDS = {
  companyName: { label: "Dénomination sociale", group: "company", example: "Comptoir" },
  legalForm: { label: "Forme juridique", group: "company", example: "SASU", hint: "Par exemple SASU, SAS, SARL ou EURL." },
  shareCapital: { label: "Capital social", group: "company", example: "1 000 €" },
  rcsCity: { label: "Ville du greffe (RCS)", group: "company", example: "Paris" },
  rcsNumber: { label: "Numéro RCS", group: "company", example: "123 456 789", hint: "Les 9 chiffres du SIREN, précédés ou non de la lettre B." },
  siren: { label: "SIREN", group: "company", example: "123 456 789" },
  vatNumber: { label: "Numéro de TVA intracommunautaire", group: "company", example: "FR 12 123456789", wide: true },
  address: { label: "Adresse du siège social", group: "contact", example: "12 rue des Collectionneurs, 75011 Paris", wide: true },
  email: { label: "E-mail de contact", group: "contact", example: "contact@ma-boutique.fr", type: "email" },
  phone: { label: "Téléphone", group: "contact", example: "01 23 45 67 89", type: "tel" },
  publicationDirector: { label: "Directeur ou directrice de la publication", group: "contact", example: "Prénom Nom", wide: true },
  hostName: { label: "Nom de l'hébergeur", group: "host", example: "OVH SAS" },
  hostPhone: { label: "Téléphone de l'hébergeur", group: "host", example: "09 72 10 10 07", type: "tel" },
  hostAddress: { label: "Adresse de l'hébergeur", group: "host", example: "2 rue Kellermann, 59100 Roubaix", wide: true },
  mediatorName: { label: "Nom du médiateur", group: "mediator", example: "Nom de l'organisme de médiation" },
  mediatorUrl: { label: "Site internet du médiateur", group: "mediator", example: "https://www.mediateur.example.fr", type: "url" },
} satisfies Record<string, FieldSpec>;

export type IdentityKey = keyof typeof IDENTITY_FIELDS;
export const IDENTITY_KEYS = Object.keys(IDENTITY_FIELDS) as IdentityKey[];
export const identityField = (key: IdentityKey): FieldSpec => IDENTITY_FIELDS[key];

/**
 * Values shipped as examples (the first .env.example, the first defaults): a shop configured
 * with them has not given its identity yet, so they count as missing, like an empty field.
 */
export const IDENTITY_PLACEHOLDERS: Partial<Record<IdentityKey, readonly string[]>> = {
  companyName: ["Comptoir SASU"],
  siren: ["000 000 000"],
  address: ["1 rue de l'Exemple, 75001 Paris, France"],
  hostName: ["Hébergeur à renseigner (LEGAL_HOST)", "Hébergeur à renseigner"],
  email: ["contact@comptoir.example"],
};

export const DEFAULT_LEGAL_FORM = "SASU";

const LEGAL_FORM_NAMES: Record<string, string> = {
  SASU: "société par actions simplifiée unipersonnelle",
  SAS: "société par actions simplifiée",
  SARL: "société à responsabilité limitée",
  EURL: "entreprise unipersonnelle à responsabilité limitée",
  SA: "société anonyme",
  SNC: "société en nom collectif",
};

/** "SASU" → "société par actions simplifiée unipersonnelle (SASU)"; another form as written. */
export function legalFormLabel(form: string): string {
  const name = LEGAL_FORM_NAMES[form.trim().toUpperCase()];
  return name ? `${name} (${form.trim().toUpperCase()})` : form;
}

// ---------------------------------------------------------------------------------------------
// Validation

// PostgreSQL text cannot hold NUL; nobody types other control characters in these fields.
const CONTROL = /\p{Cc}/u;
const SPACES = /[\s.-]/g;

/** Trimmed text, empty allowed; a field missing from a post reads as empty. */
function text(max: number) {
  return z
    .string({ error: "Ce champ doit être du texte" })
    .trim()
    .max(max, `Ce champ doit contenir au plus ${max} caractères`)
    .refine((value) => !CONTROL.test(value), "Ce champ contient des caractères non autorisés")
    .default("");
}

/** The French SIREN check digit (Luhn). */
export function isValidSiren(digits: string): boolean {
  if (!/^\d{9}$/.test(digits) || digits === "000000000") return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) {
    let digit = Number(digits[8 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

/** The numeric key of a French VAT number: (12 + 3 × (SIREN mod 97)) mod 97. */
export function frenchVatKey(siren: string): string {
  return String((12 + 3 * (Number(siren) % 97)) % 97).padStart(2, "0");
}

const groupSiren = (digits: string) => `${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6)}`;
const digitsOf = (value: string) => value.replace(/\D/g, "");

const SIREN_INVALID = "Le SIREN compte 9 chiffres (ex. 123 456 789)\u00a0: vérifiez-le";
const siren = text(20).transform((value, ctx) => {
  if (value === "") return "";
  const digits = value.replace(SPACES, "");
  if (!isValidSiren(digits)) {
    ctx.addIssue({ code: "custom", message: SIREN_INVALID });
    return z.NEVER;
  }
  return groupSiren(digits);
});

const RCS_INVALID = "Le numéro RCS reprend les 9 chiffres du SIREN (ex. 123 456 789 ou B 123 456 789)";
const rcsNumber = text(30).transform((value, ctx) => {
  if (value === "") return "";
  const match = /^([A-D]?)(\d{9})$/.exec(value.replace(SPACES, "").toUpperCase());
  if (!match) {
    ctx.addIssue({ code: "custom", message: RCS_INVALID });
    return z.NEVER;
  }
  return `${match[1] ? `${match[1]} ` : ""}${groupSiren(match[2]!)}`;
});

const VAT_INVALID = "Le numéro de TVA s'écrit FR suivi de 11 caractères\u00a0: la clé puis le SIREN (ex. FR 12 123456789)";
const vatNumber = text(30).transform((value, ctx) => {
  if (value === "") return "";
  const compact = value.replace(SPACES, "").toUpperCase();
  const match = /^FR([0-9A-HJ-NP-Z]{2})(\d{9})$/.exec(compact);
  if (!match) {
    ctx.addIssue({ code: "custom", message: VAT_INVALID });
    return z.NEVER;
  }
  const [, key, number] = match as unknown as [string, string, string];
  if (/^\d{2}$/.test(key) && key !== frenchVatKey(number)) {
    ctx.addIssue({ code: "custom", message: "La clé de ce numéro de TVA ne correspond pas au SIREN qu'il contient\u00a0: vérifiez-le" });
    return z.NEVER;
  }
  return compact;
});

const EMAIL_INVALID = "Adresse e-mail invalide (ex. contact@ma-boutique.fr)";
const email = text(254)
  .transform((value) => value.toLowerCase())
  .refine((value) => value === "" || z.email().safeParse(value).success, EMAIL_INVALID);

const PHONE_INVALID = "Numéro de téléphone invalide (ex. 01 23 45 67 89 ou +33 1 23 45 67 89)";
const phone = text(30).refine((value) => {
  if (value === "") return true;
  const digits = digitsOf(value).length;
  // Short service numbers (some hosts publish a 4-digit one) are numbers too.
  return /^\+?[0-9][0-9 .\-()]*$/.test(value) && digits >= 4 && digits <= 15;
}, PHONE_INVALID);

const URL_INVALID = "Adresse de site invalide (ex. https://www.mediateur.fr)";
const url = text(300).transform((value, ctx) => {
  if (value === "") return "";
  // "www.example.fr" is how people copy an address: https is implied.
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(value) ? value : `https://${value}`;
  try {
    const parsed = new URL(withScheme);
    if ((parsed.protocol === "https:" || parsed.protocol === "http:") && parsed.hostname.includes(".") && !parsed.username && !parsed.password) return parsed.href;
  } catch {
    // Reported below.
  }
  ctx.addIssue({ code: "custom", message: URL_INVALID });
  return z.NEVER;
});

const CAPITAL_INVALID = "Indiquez le capital en euros (ex. 1 000 €)";
const wholeEuros = new Intl.NumberFormat("fr-FR", { style: "currency", currency: "EUR", maximumFractionDigits: 0 });
const euros = new Intl.NumberFormat("fr-FR", { style: "currency", currency: "EUR" });
const shareCapital = text(40).transform((value, ctx) => {
  if (value === "") return "";
  const cents = parseEurosToCents(value.replace(/euros?|eur/i, ""));
  if (cents === null || cents <= 0) {
    ctx.addIssue({ code: "custom", message: CAPITAL_INVALID });
    return z.NEVER;
  }
  return cents % 100 === 0 ? wholeEuros.format(cents / 100) : euros.format(cents / 100);
});

/** Each field on its own: how a stored or configured value is read back. */
export const IDENTITY_FIELD_SCHEMAS = {
  companyName: text(200),
  legalForm: text(80),
  shareCapital,
  rcsCity: text(80),
  rcsNumber,
  siren,
  vatNumber,
  address: text(300),
  email,
  phone,
  publicationDirector: text(120),
  hostName: text(200),
  hostPhone: phone,
  hostAddress: text(300),
  mediatorName: text(200),
  mediatorUrl: url,
} satisfies Record<IdentityKey, z.ZodType>;

/** The form's and the action's schema: every field, and the numbers that must agree. */
export const legalIdentitySchema = z.object(IDENTITY_FIELD_SCHEMAS).superRefine((identity, ctx) => {
  const sirenDigits = digitsOf(identity.siren);
  if (!sirenDigits) return;
  if (identity.rcsNumber && digitsOf(identity.rcsNumber) !== sirenDigits) {
    ctx.addIssue({ code: "custom", path: ["rcsNumber"], message: "Le numéro RCS doit reprendre le SIREN" });
  }
  if (identity.vatNumber && identity.vatNumber.slice(4) !== sirenDigits) {
    ctx.addIssue({ code: "custom", path: ["vatNumber"], message: "Le numéro de TVA doit contenir le SIREN" });
  }
});

export type LegalIdentity = z.output<typeof legalIdentitySchema>;
/** What a form posts or the configuration gives: strings, some perhaps absent. */
export type LegalIdentityInput = Partial<Record<IdentityKey, string | undefined>>;

export const EMPTY_IDENTITY = Object.fromEntries(IDENTITY_KEYS.map((key) => [key, ""])) as LegalIdentity;

function isPlaceholder(key: IdentityKey, value: unknown): boolean {
  return typeof value === "string" && (IDENTITY_PLACEHOLDERS[key]?.includes(value.trim()) ?? false);
}

/** The values with the shipped examples taken out, as if they had not been given. */
export function withoutPlaceholders(values: LegalIdentityInput): LegalIdentityInput {
  return Object.fromEntries(IDENTITY_KEYS.map((key) => [key, isPlaceholder(key, values[key]) ? "" : values[key]]));
}

/** A value to publish: read with its field's rules; an example value or a bad one reads as empty. */
function readField(key: IdentityKey, raw: unknown): string {
  if (isPlaceholder(key, raw)) return "";
  const parsed = IDENTITY_FIELD_SCHEMAS[key].safeParse(raw);
  return parsed.success && !isPlaceholder(key, parsed.data) ? parsed.data : "";
}

/**
 * The identity to use: each field as stored (empty included: the seller emptied it), else its
 * configured first value. Whatever the row holds, only valid values come out, so a URL or an
 * address read here is safe to put in a link.
 */
export function resolveIdentity(stored: unknown, defaults: LegalIdentityInput): LegalIdentity {
  const source = stored !== null && typeof stored === "object" ? (stored as Record<string, unknown>) : {};
  return Object.fromEntries(IDENTITY_KEYS.map((key) => [key, readField(key, Object.hasOwn(source, key) ? source[key] : defaults[key])])) as LegalIdentity;
}

/** The fields still to give, in form order: what the admin warns about and /legal marks. */
export function missingIdentityFields(identity: LegalIdentity): IdentityKey[] {
  return IDENTITY_KEYS.filter((key) => identity[key] === "");
}

/** The last change of the published texts (their wording): /legal shows the later of this and the identity's. */
export const LEGAL_TEXTS_REVISED_AT = new Date("2026-11-23T00:00:00+01:00");

export function legalPageDate(identityUpdatedAt: Date | null): Date {
  return identityUpdatedAt && identityUpdatedAt > LEGAL_TEXTS_REVISED_AT ? identityUpdatedAt : LEGAL_TEXTS_REVISED_AT;
}

const longDate = new Intl.DateTimeFormat("fr-FR", { day: "numeric", month: "long", year: "numeric", timeZone: "Europe/Paris" });

/** "23 novembre 2026", in Paris. */
export function formatLegalDate(date: Date): string {
  return longDate.format(date);
}
