/**
 * The legal identity of the company behind the shop: what the law makes /legal publish
 * (LCEN article 1-1, formerly 6 III, and article 19; Code de la consommation L221-5, D211-1,
 * L616-1): its fields, labels and texts, for the pages. Their rules are in
 * shop-identity-schema.ts, so zod stays out of /legal's JavaScript. Every field may be left
 * empty while the seller gathers it: an empty field is "missing", listed in the admin and
 * marked on /legal, never a silent blank.
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
// Number checks

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

/** The identity as published: every field a string, empty when not given yet. */
export type LegalIdentity = Record<IdentityKey, string>;
/** What a form posts or the configuration gives: strings, some perhaps absent. */
export type LegalIdentityInput = Partial<Record<IdentityKey, string | undefined>>;

export const EMPTY_IDENTITY = Object.fromEntries(IDENTITY_KEYS.map((key) => [key, ""])) as LegalIdentity;

export function isPlaceholder(key: IdentityKey, value: unknown): boolean {
  return typeof value === "string" && (IDENTITY_PLACEHOLDERS[key]?.includes(value.trim()) ?? false);
}

/** The values with the shipped examples taken out, as if they had not been given. */
export function withoutPlaceholders(values: LegalIdentityInput): LegalIdentityInput {
  return Object.fromEntries(IDENTITY_KEYS.map((key) => [key, isPlaceholder(key, values[key]) ? "" : values[key]]));
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
