import { z } from "zod";
import { parseEurosToCents } from "./money";

/**
 * The seller's « Marquer le retour reçu » (and « Rembourser la rétractation ») form, checked by
 * the browser and again by the server: per article withdrawn `restock:<order item id>` ("on": put
 * back in stock), and an optional deduction for depreciation (L221-23: the articles handled beyond
 * what was needed to judge them) with its reason, which the buyer reads. The articles and the
 * delivery come from the withdrawal itself, never from the form.
 */

const MAX_REASON = 200;

export const withdrawalReturnFormSchema = z
  .object({
    deduction: z
      .string()
      .trim()
      .optional()
      .transform((value, ctx) => {
        if (!value) return 0;
        const cents = parseEurosToCents(value);
        if (cents === null || cents > 10_000_000) {
          ctx.addIssue({ code: "custom", message: "Montant invalide (par exemple 2,00)." });
          return z.NEVER;
        }
        return cents;
      }),
    reason: z.string().trim().max(MAX_REASON, `Motif : ${MAX_REASON} caractères au plus.`).optional().default(""),
  })
  .catchall(z.string())
  .superRefine((form, ctx) => {
    if (form.deduction > 0 && !form.reason) ctx.addIssue({ code: "custom", path: ["reason"], message: "Indiquez le motif de la déduction (l'état de l'article retourné)." });
  });

export type WithdrawalReturnForm = z.infer<typeof withdrawalReturnFormSchema>;
