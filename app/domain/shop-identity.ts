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
  legalForm: { label: "Forme juridique", group: "company", example: "SASU" },
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

/** How the form asks an entrepreneur individuel: a person's name, an establishment, an optional RCS. */
const EI_FIELDS: Partial<Record<IdentityKey, Partial<FieldSpec>>> = {
  companyName: {
    label: "Nom de l'entrepreneur (nom ou nom d'usage)",
    example: "Jeanne Martin",
    hint: "Les pages, factures et e-mails l'écrivent suivi de «\u00a0EI\u00a0» (art. R526-27 du Code de commerce).",
  },
  address: { label: "Adresse de l'établissement" },
  rcsCity: { hint: "Vendeur immatriculé au RCS (commerçant)\u00a0: la ville du greffe. Sinon, laissez vide\u00a0: le RNE suffit." },
  rcsNumber: { hint: "Avec la ville du greffe, ou vide si vous n'êtes immatriculé qu'au RNE." },
};

/** A field as the form asks it for the chosen legal form. */
export function identityFieldFor(key: IdentityKey, legalForm: string): FieldSpec {
  return legalFormCode(legalForm) === "EI" ? { ...IDENTITY_FIELDS[key], ...EI_FIELDS[key] } : IDENTITY_FIELDS[key];
}

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

/**
 * The legal forms the identity knows (issue 52). `capital`: a company, with a share capital to
 * publish (art. R123-238 Code de commerce); the entrepreneur individuel has none and publishes
 * their name followed by "EI" (loi n° 2022-172, art. R526-27 Code de commerce).
 */
const LEGAL_FORMS = {
  EI: { name: "entrepreneur individuel", capital: false },
  EURL: { name: "entreprise unipersonnelle à responsabilité limitée", capital: true },
  SARL: { name: "société à responsabilité limitée", capital: true },
  SAS: { name: "société par actions simplifiée", capital: true },
  SASU: { name: "société par actions simplifiée unipersonnelle", capital: true },
  SA: { name: "société anonyme", capital: true },
  SNC: { name: "société en nom collectif", capital: true },
} as const;
export type LegalFormCode = keyof typeof LEGAL_FORMS;

/** What the identity form offers, in this order (SA and SNC stay readable, not offered). */
export const OFFERED_LEGAL_FORMS: readonly { code: LegalFormCode; label: string }[] = [
  { code: "EI", label: "EI – entrepreneur individuel" },
  { code: "EURL", label: "EURL" },
  { code: "SARL", label: "SARL" },
  { code: "SAS", label: "SAS" },
  { code: "SASU", label: "SASU" },
];

/** How sellers write the entrepreneur individuel's form: all read as "EI". */
const EI_ALIASES = /^(ei|e\.i\.|entrepreneur individuel|entreprise individuelle|micro[- ]?entrepreneur|micro[- ]?entreprise|auto[- ]?entrepreneur)$/i;

/** "sasu" → "SASU", "micro-entrepreneur" → "EI"; null for a form the shop does not know. */
export function legalFormCode(form: string): LegalFormCode | null {
  const trimmed = form.trim();
  if (EI_ALIASES.test(trimmed)) return "EI";
  const upper = trimmed.toUpperCase();
  return Object.hasOwn(LEGAL_FORMS, upper) ? (upper as LegalFormCode) : null;
}

export const isIndividualEntrepreneur = (identity: Pick<LegalIdentity, "legalForm">) => legalFormCode(identity.legalForm) === "EI";

/** "SASU" → "société par actions simplifiée unipersonnelle (SASU)"; another form as written. */
export function legalFormLabel(form: string): string {
  const code = legalFormCode(form);
  return code ? `${LEGAL_FORMS[code].name} (${code})` : form;
}

/**
 * The fields the chosen form must publish, in form order: what the admin and the checklist
 * count as missing. An entrepreneur individuel has no capital; their RCS registration (a
 * trader's) is optional, the RNE holding every entrepreneur since 2023; their intra-EU VAT
 * number too (under the franchise of art. 293 B CGI there is often none). An unknown or empty
 * form asks for everything, as a company.
 */
export function requiredIdentityFields(legalForm: string): IdentityKey[] {
  if (legalFormCode(legalForm) !== "EI") return IDENTITY_KEYS;
  const optional: IdentityKey[] = ["shareCapital", "rcsCity", "rcsNumber", "vatNumber"];
  return IDENTITY_KEYS.filter((key) => !optional.includes(key));
}

/** Whether the form has a share capital to ask for and print. */
export const formHasCapital = (legalForm: string) => legalFormCode(legalForm) !== "EI";

/** The name as documents print it: an entrepreneur individuel's followed by "EI", unless they wrote it. */
export function sellerName(identity: Pick<LegalIdentity, "companyName" | "legalForm">): string {
  const name = identity.companyName.trim();
  if (!name || !isIndividualEntrepreneur(identity) || /(^|\s)(EI|entrepreneur individuel)(\s|$)/i.test(name)) return name;
  return `${name} EI`;
}

/**
 * The seller's designation line, given parts only (never ", ,"): "Comptoir, société par actions
 * simplifiée (SAS), au capital de 1 000 €"; "Jeanne Martin EI".
 */
export function sellerDesignation(identity: Pick<LegalIdentity, "companyName" | "legalForm" | "shareCapital">): string {
  if (isIndividualEntrepreneur(identity)) return sellerName(identity);
  return joinGiven([identity.companyName, identity.legalForm ? legalFormLabel(identity.legalForm) : "", identity.shareCapital ? `au capital de ${identity.shareCapital}` : ""]);
}

export const RNE_REGISTRATION = "Registre national des entreprises (RNE)";

/**
 * Where the seller is registered, given parts only: "RCS Lyon B 123 456 782"; an entrepreneur
 * individuel without RCS registration is in the RNE (with a SIREN); "" while nothing is given.
 */
export function sellerRegistration(identity: Pick<LegalIdentity, "legalForm" | "rcsCity" | "rcsNumber" | "siren">): string {
  const rcs = [identity.rcsCity ? `RCS ${identity.rcsCity}` : "", identity.rcsNumber].filter(Boolean).join(" ");
  if (rcs) return rcs;
  return isIndividualEntrepreneur(identity) && identity.siren ? RNE_REGISTRATION : "";
}

/** "Comptoir, 12 rue …, contact@…": the parts given, in order, never an empty one between commas. */
export const joinGiven = (parts: readonly string[], separator = ", ") => parts.map((part) => part.trim()).filter(Boolean).join(separator);

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

/** The fields the chosen form still has to give, in form order: what the admin warns about and /legal marks. */
export function missingIdentityFields(identity: LegalIdentity): IdentityKey[] {
  return requiredIdentityFields(identity.legalForm).filter((key) => identity[key] === "");
}

/** The last change of the published texts (their wording): /legal shows the later of this and the identity's. */
export const LEGAL_TEXTS_REVISED_AT = new Date("2026-11-23T00:00:00+01:00");

export function legalPageDate(identityUpdatedAt: Date | null): Date {
  return identityUpdatedAt && identityUpdatedAt > LEGAL_TEXTS_REVISED_AT ? identityUpdatedAt : LEGAL_TEXTS_REVISED_AT;
}
