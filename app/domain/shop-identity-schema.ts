import { z } from "zod";
import { CONTROL } from "./text-rules";
import { formatEuros, parseEurosToCents } from "./money";
import {
  IDENTITY_KEYS,
  type IdentityKey,
  type LegalIdentity,
  type LegalIdentityInput,
  formHasCapital,
  frenchVatKey,
  isIndividualEntrepreneur,
  isPlaceholder,
  isValidSiren,
  legalFormCode,
} from "./shop-identity";

/**
 * The rules of the shop's legal identity (shop-identity.ts): one schema for the admin form
 * (/admin/settings), the server action and the environment's first values.
 */

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

const LEGAL_FORM_INVALID = "Choisissez la forme juridique dans la liste (EI, EURL, SARL, SAS ou SASU)";
/** A known form, written as its code ("micro-entrepreneur" → "EI"). */
const legalForm = text(80).transform((value, ctx) => {
  if (value === "") return "";
  const code = legalFormCode(value);
  if (!code) {
    ctx.addIssue({ code: "custom", message: LEGAL_FORM_INVALID });
    return z.NEVER;
  }
  return code;
});

const CAPITAL_INVALID = "Indiquez le capital en euros (ex. 1 000 €)";
/** "0 €" passes here: whether the form allows it is decided with the form (legalIdentitySchema). */
const shareCapital = text(40).transform((value, ctx) => {
  if (value === "") return "";
  const cents = parseEurosToCents(value.replace(/euros?|eur/i, ""));
  if (cents === null || cents < 0) {
    ctx.addIssue({ code: "custom", message: CAPITAL_INVALID });
    return z.NEVER;
  }
  // "1 000 €", "1 000,50 €".
  return cents % 100 === 0 ? formatEuros(cents).replace(",00", "") : formatEuros(cents);
});

export const PLACEHOLDER_REFUSED = "C'est la valeur d'exemple de la boutique\u00a0: indiquez la vôtre";

/** Each field on its own: how a stored or configured value is read back. */
export const IDENTITY_FIELD_SCHEMAS = {
  companyName: text(200),
  legalForm,
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

/** "Une SAS a un capital social…": the refusal names the chosen form. */
export const capitalRequiredMessage = (form: string) =>
  `Une ${legalFormCode(form) ?? "société"} a un capital social d'au moins 1\u00a0€\u00a0: indiquez celui de ses statuts`;
const RCS_PAIR = "Indiquez la ville du greffe et le numéro RCS, ou aucun des deux si vous n'êtes immatriculé qu'au RNE";

/**
 * The form's and the action's schema: every field, the numbers that must agree, and what the
 * legal form decides (a company's capital is at least 1 €; an entrepreneur individuel has none,
 * so a capital posted with EI is dropped rather than published).
 */
export const legalIdentitySchema = z
  .object(IDENTITY_FIELD_SCHEMAS)
  .superRefine((identity, ctx) => {
    // The shipped examples read as "not given" on /legal: saved, they would say "complete" here
    // and "À compléter" there.
    for (const key of IDENTITY_KEYS) {
      if (isPlaceholder(key, identity[key])) ctx.addIssue({ code: "custom", path: [key], message: PLACEHOLDER_REFUSED });
    }
    if (formHasCapital(identity.legalForm) && identity.shareCapital !== "" && Number(digitsOf(identity.shareCapital)) === 0) {
      ctx.addIssue({ code: "custom", path: ["shareCapital"], message: capitalRequiredMessage(identity.legalForm) });
    }
    // A trader EI is registered at the RCS (city and number); others only in the RNE (neither).
    if (isIndividualEntrepreneur(identity) && (identity.rcsCity === "") !== (identity.rcsNumber === "")) {
      ctx.addIssue({ code: "custom", path: [identity.rcsCity === "" ? "rcsCity" : "rcsNumber"], message: RCS_PAIR });
    }
    const sirenDigits = digitsOf(identity.siren);
    if (!sirenDigits) return;
    if (identity.rcsNumber && digitsOf(identity.rcsNumber) !== sirenDigits) {
      ctx.addIssue({ code: "custom", path: ["rcsNumber"], message: "Le numéro RCS doit reprendre le SIREN" });
    }
    if (identity.vatNumber && identity.vatNumber.slice(4) !== sirenDigits) {
      ctx.addIssue({ code: "custom", path: ["vatNumber"], message: "Le numéro de TVA doit contenir le SIREN" });
    }
  })
  .transform((identity): LegalIdentity => (formHasCapital(identity.legalForm) ? identity : { ...identity, shareCapital: "" }));

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
