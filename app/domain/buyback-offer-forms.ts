import { ValidationErrorsIBAN, electronicFormatIBAN, friendlyFormatIBAN, validateIBAN } from "ibantools";
import { z } from "zod";
import { CONDITIONS } from "./catalog-values";
import { parseEurosToCents } from "./money";
import { BONUS_PERCENT_MAX, ID_DOCUMENT_TYPES, OFFER_LINES_MAX, OFFER_LINE_MAX_CENTS, type OfferLine, PAYMENT_MEANS } from "./buyback-offer";

/**
 * The buy-back forms' schemas and the IBAN check (zod and ibantools), apart from
 * ./buyback-offer.ts so that the public offer page's bundle carries neither: the page's form is
 * checked by the server.
 */

const AMOUNT_INVALID = "Merci d'entrer un prix en euros, par exemple 12,50";

const lineSchema = z.object({
  description: z.string().trim().min(2, "Décrivez l'article (au moins 2 caractères)").max(200, "La description doit contenir au plus 200 caractères"),
  condition: z.enum(CONDITIONS, { error: "Choisissez l'état de l'article" }),
  quantity: z.coerce.number({ error: "Indiquez une quantité" }).int("La quantité doit être un nombre entier").min(1, "La quantité doit être au moins 1").max(999, "La quantité ne peut pas dépasser 999"),
  unitPrice: z
    .string()
    .trim()
    .min(1, "Le prix unitaire est obligatoire")
    .transform((value, ctx) => {
      const cents = parseEurosToCents(value);
      if (cents === null) {
        ctx.addIssue({ code: "custom", message: AMOUNT_INVALID });
        return z.NEVER;
      }
      return cents;
    })
    .pipe(z.number().int().min(1, "Le prix doit être supérieur à 0\u00a0€").max(OFFER_LINE_MAX_CENTS, "Le prix ne peut pas dépasser 100\u00a0000\u00a0€")),
});

/**
 * The offer form's fields as flat names (`lines.0.description`…), the way an HTML form sends
 * them; the errors come back under the same names.
 */
export function readOfferLines(fields: Record<string, unknown>): { ok: true; lines: OfferLine[] } | { ok: false; fieldErrors: Record<string, string> } {
  const indexes = [...new Set(Object.keys(fields).flatMap((key) => /^lines\.(\d+)\./.exec(key)?.[1] ?? []))].map(Number).sort((a, b) => a - b);
  const errors: Record<string, string> = {};
  const lines: OfferLine[] = [];
  const filled = indexes.filter((i) => ["description", "unitPrice"].some((name) => String(fields[`lines.${i}.${name}`] ?? "").trim() !== ""));
  if (filled.length === 0) return { ok: false, fieldErrors: { "lines.0.description": "Ajoutez au moins une ligne à l'offre" } };
  if (filled.length > OFFER_LINES_MAX) return { ok: false, fieldErrors: { "lines.0.description": `Une offre compte au plus ${OFFER_LINES_MAX} lignes` } };
  for (const i of filled) {
    const parsed = lineSchema.safeParse({
      description: fields[`lines.${i}.description`] ?? "",
      condition: fields[`lines.${i}.condition`],
      quantity: fields[`lines.${i}.quantity`] ?? "",
      unitPrice: fields[`lines.${i}.unitPrice`] ?? "",
    });
    if (parsed.success) lines.push({ description: parsed.data.description, condition: parsed.data.condition, quantity: parsed.data.quantity, unitPriceCents: parsed.data.unitPrice });
    else for (const issue of parsed.error.issues) errors[`lines.${i}.${String(issue.path[0])}`] ??= issue.message;
  }
  return Object.keys(errors).length > 0 ? { ok: false, fieldErrors: errors } : { ok: true, lines };
}


/** The message for an IBAN the key check refuses, or null when it is valid. */
export function ibanProblem(input: string): string | null {
  const iban = electronicFormatIBAN(input) ?? "";
  if (iban === "") return "L'IBAN est obligatoire";
  const { valid, errorCodes } = validateIBAN(iban);
  if (valid) return null;
  if (errorCodes.includes(ValidationErrorsIBAN.NoIBANCountry)) return "Cet IBAN ne commence pas par un code pays connu (FR76…)";
  if (errorCodes.includes(ValidationErrorsIBAN.WrongBBANLength)) return "Cet IBAN n'a pas la bonne longueur pour son pays";
  if (errorCodes.includes(ValidationErrorsIBAN.WrongIBANChecksum) || errorCodes.includes(ValidationErrorsIBAN.WrongAccountBankBranchChecksum)) {
    return "Cet IBAN contient une erreur (sa clé de contrôle ne correspond pas) : vérifiez-le";
  }
  return "Cet IBAN n'est pas valide : vérifiez-le";
}

/** "FR76 3000 6000 0112 3456 7890 189". */
export function displayIban(iban: string): string {
  return friendlyFormatIBAN(iban) ?? iban;
}

const ADDRESS_MAX = 300;

/** The customer's answer on the offer page: accepting asks for the payment means and the postal address (the register's). */
export const acceptOfferSchema = z
  .object({
    means: z.enum(PAYMENT_MEANS, { error: "Choisissez comment être payé" }),
    address: z.string().trim().min(10, "Indiquez votre adresse postale complète").max(ADDRESS_MAX, "L'adresse doit contenir au plus 300 caractères"),
    accountHolder: z.string().trim().max(120, "Le titulaire doit contenir au plus 120 caractères").default(""),
    iban: z.string().trim().max(60, "Cet IBAN est trop long").default(""),
  })
  .superRefine((value, ctx) => {
    if (value.means !== "transfer") return;
    if (value.accountHolder.length < 2) ctx.addIssue({ code: "custom", path: ["accountHolder"], message: "Indiquez le titulaire du compte" });
    const problem = ibanProblem(value.iban);
    if (problem) ctx.addIssue({ code: "custom", path: ["iban"], message: problem });
  })
  .transform((value) => ({
    means: value.means,
    address: value.address,
    transfer: value.means === "transfer" ? { accountHolder: value.accountHolder, iban: electronicFormatIBAN(value.iban)! } : null,
  }));
export type AcceptOfferInput = z.output<typeof acceptOfferSchema>;

/** What the seller enters at reception from the seller's identity document (art. R321-3 Code pénal). */
export const receptionSchema = z.object({
  idType: z.enum(ID_DOCUMENT_TYPES, { error: "Choisissez le type de pièce d'identité" }),
  idNumber: z.string().trim().min(4, "Indiquez le numéro de la pièce").max(40, "Le numéro doit contenir au plus 40 caractères"),
  idAuthority: z.string().trim().min(2, "Indiquez l'autorité qui l'a délivrée").max(120, "L'autorité doit contenir au plus 120 caractères"),
  idIssuedOn: z.iso.date("Indiquez la date de délivrance (jj/mm/aaaa)"),
  address: z.string().trim().min(10, "Indiquez l'adresse postale du vendeur").max(ADDRESS_MAX, "L'adresse doit contenir au plus 300 caractères"),
});
export type ReceptionInput = z.output<typeof receptionSchema>;

/** The store-credit bonus the seller grants (/admin/settings, « Rachats »). */
export const buybackSettingsSchema = z.object({
  creditBonusPercent: z.coerce
    .number({ error: "Indiquez un pourcentage" })
    .int("Le bonus doit être un nombre entier de pour cent")
    .min(0, "Le bonus ne peut pas être négatif")
    .max(BONUS_PERCENT_MAX, `Le bonus ne peut pas dépasser ${BONUS_PERCENT_MAX} %`),
});
export type BuybackSettings = z.output<typeof buybackSettingsSchema>;
