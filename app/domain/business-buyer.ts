import { austria, belgium, bulgaria, checkVAT, croatia, cyprus, czechRepublic, denmark, estonia, finland, france, germany, greece, hungary, ireland, italy, latvia, lithuania, luxembourg, malta, netherlands, poland, portugal, romania, slovakiaRepublic, slovenia, spain, sweden } from "jsvat";
import { z } from "zod";

/**
 * A professional buyer (issue 53): the company an "Achat professionnel" is invoiced to. Absent
 * on a consumer's order, whose invoice stays as it is.
 */
export type BusinessBuyer = {
  companyName: string;
  /** 9 digits, Luhn-checked (INSEE); null for a company established in another member state. */
  siren: string | null;
  /** Intra-EU VAT number, upper case without spaces (FR40303265045); null when the buyer has none. */
  vatNumber: string | null;
};

/** The 27 member states' VAT number rules (format and, where the state has one, check digits), from jsvat. */
const EU_VAT_RULES = [austria, belgium, bulgaria, croatia, cyprus, czechRepublic, denmark, estonia, finland, france, germany, greece, hungary, ireland, italy, latvia, lithuania, luxembourg, malta, netherlands, poland, portugal, romania, slovakiaRepublic, slovenia, spain, sweden];

/** Spaces, dots and dashes as people type them out: "362 521 879", "FR 40-303.265.045". */
export function compactIdentifier(value: string): string {
  return value.replace(/[\s.\-\u00a0\u202f]/g, "").toUpperCase();
}

/**
 * A SIREN: 9 digits whose Luhn sum is a multiple of 10. La Poste's (356 000 000) is the one
 * number INSEE gave outside the rule; its establishments are checked otherwise (SIRET).
 */
export function isValidSiren(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  if (value === "356000000") return true;
  let sum = 0;
  for (let i = 0; i < 9; i++) {
    let digit = Number(value[8 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

/**
 * An intra-EU VAT number's country (ISO code, Greece's EL read as GR) when its format and check
 * digits hold for that member state (the French key: (12 + 3 × (SIREN mod 97)) mod 97), else
 * null. Whether the number is live is VIES's to say: the seller's duty (docs/decisions).
 */
export function vatNumberCountry(value: string): string | null {
  const result = checkVAT(value, EU_VAT_RULES);
  return result.isValid ? (result.country?.isoCode.short ?? null) : null;
}

/** The SIREN inside a French VAT number (its last 9 digits). */
export function sirenOfFrenchVatNumber(vatNumber: string): string | null {
  return /^FR[0-9A-Z]{2}(\d{9})$/.exec(vatNumber)?.[1] ?? null;
}

export const BUSINESS_MESSAGES = {
  companyName: "Indiquez la raison sociale de l'entreprise.",
  siren: "Numéro SIREN invalide : 9 chiffres, vérifiez-le sur votre extrait Kbis ou avis de situation.",
  sirenRequired: "Indiquez le numéro SIREN de l'entreprise (9 chiffres).",
  vatNumber: "Numéro de TVA intracommunautaire invalide : vérifiez le code pays et les chiffres.",
  vatNumberSiren: "Le numéro de TVA ne correspond pas au numéro SIREN indiqué.",
} as const;

/**
 * The "Achat professionnel" fields, browser and server: a company name, a SIREN for a French
 * company (required when the billing country is France), an optional VAT number checked by its
 * format and key, and for a French one, its SIREN the one given.
 */
export function businessBuyerSchema(billingCountry: () => string) {
  return z
    .object({
      companyName: z.string().trim().min(1, BUSINESS_MESSAGES.companyName).max(120, BUSINESS_MESSAGES.companyName),
      siren: z.string().max(30).transform(compactIdentifier),
      vatNumber: z.string().max(30).transform(compactIdentifier),
    })
    .superRefine((values, ctx) => {
      const french = billingCountry() === "FR";
      if (values.siren === "" && french) ctx.addIssue({ code: "custom", path: ["siren"], message: BUSINESS_MESSAGES.sirenRequired });
      else if (values.siren !== "" && !isValidSiren(values.siren)) ctx.addIssue({ code: "custom", path: ["siren"], message: BUSINESS_MESSAGES.siren });
      if (values.vatNumber === "") return;
      if (vatNumberCountry(values.vatNumber) === null) ctx.addIssue({ code: "custom", path: ["vatNumber"], message: BUSINESS_MESSAGES.vatNumber });
      else {
        const inside = sirenOfFrenchVatNumber(values.vatNumber);
        if (inside !== null && values.siren !== "" && inside !== values.siren) ctx.addIssue({ code: "custom", path: ["vatNumber"], message: BUSINESS_MESSAGES.vatNumberSiren });
      }
    })
    .transform((values): BusinessBuyer => ({ companyName: values.companyName, siren: values.siren || null, vatNumber: values.vatNumber || null }));
}
