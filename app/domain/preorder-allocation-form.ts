import { z } from "zod";
import { wholeNumber } from "./drop-form";
import { PREORDER_QUANTITY_MAX } from "./preorder-form";

/**
 * The seller's allocation form on /admin/precommandes/:productId (issue 55, decision 061): units
 * received and the rule, previewed then applied. One schema for the browser and the action; zod
 * only (this file ships to the browser). The draw's seed comes from the preview (a hidden field),
 * so that what is applied is what was shown; a draw applied without one is refused.
 */

export const ALLOCATION_RULE_LABELS = {
  order: "Par ordre de précommande",
  draw: "Par tirage au sort (un ticket par client)",
} as const;

export const allocationFormSchema = z
  .object({
    intent: z.enum(["preview", "apply"], { message: "Action inconnue" }),
    received: wholeNumber("Le nombre d'exemplaires reçus", 0, PREORDER_QUANTITY_MAX),
    rule: z.enum(["order", "draw"], { message: "Choisissez la règle de répartition" }),
    seed: z
      .string()
      .trim()
      .optional()
      .transform((value) => value || null)
      .pipe(z.string().regex(/^[0-9a-f]{64}$/, "Le tirage n'est pas valide : prévisualisez à nouveau la répartition").nullable()),
  })
  .superRefine((values, ctx) => {
    if (values.intent === "apply" && values.rule === "draw" && !values.seed) {
      ctx.addIssue({ code: "custom", path: ["seed"], message: "Prévisualisez le tirage avant de l'appliquer" });
    }
  });

export type AllocationFormValues = z.output<typeof allocationFormSchema>;
