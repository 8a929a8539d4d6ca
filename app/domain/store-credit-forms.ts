import { z } from "zod";
import { parseEurosToCents } from "./money";

/**
 * The seller's store-credit forms (issue 54; decision 055): a goodwill credit on a customer's
 * page, and the validity of new credits in /admin/settings. The same schemas check the posts.
 */

/** 10 000 € at most per goodwill credit: a typing slip (an extra zero) is refused, not credited. */
const MAX_GOODWILL_CENTS = 10_000_00;

export const goodwillCreditSchema = z.object({
  intent: z.literal("goodwill"),
  amount: z
    .string({ message: "Indiquez un montant." })
    .transform((value, ctx) => {
      const cents = parseEurosToCents(value);
      if (cents === null || cents <= 0) {
        ctx.addIssue({ code: "custom", message: "Indiquez un montant en euros supérieur à 0, par exemple 10 ou 12,50." });
        return z.NEVER;
      }
      if (cents > MAX_GOODWILL_CENTS) {
        ctx.addIssue({ code: "custom", message: "Un geste commercial ne peut pas dépasser 10 000,00 €." });
        return z.NEVER;
      }
      return cents;
    }),
  reason: z.string({ message: "Indiquez le motif." }).trim().min(3, "Indiquez le motif (3 caractères au moins).").max(200, "Le motif ne peut pas dépasser 200 caractères."),
});
export type GoodwillCredit = z.infer<typeof goodwillCreditSchema>;

/** « Durée de validité des avoirs » in months; empty: no end of validity. */
export const storeCreditValiditySchema = z.object({
  validityMonths: z
    .string({ message: "Durée illisible." })
    .trim()
    .transform((value, ctx) => {
      if (value === "") return null;
      if (!/^\d{1,3}$/.test(value) || Number(value) < 1 || Number(value) > 120) {
        ctx.addIssue({ code: "custom", message: "Indiquez un nombre de mois entre 1 et 120, ou laissez vide pour des avoirs sans fin de validité." });
        return z.NEVER;
      }
      return Number(value);
    }),
});
