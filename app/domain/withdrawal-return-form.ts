import { z } from "zod";
import { optionalEuros, refundReason } from "./partial-refund-form";

/**
 * The seller's « Marquer le retour reçu » (and « Rembourser la rétractation ») form, checked by
 * the browser and again by the server: per article withdrawn `restock:<order item id>` ("on": put
 * back in stock), and an optional deduction for depreciation (L221-23: the articles handled beyond
 * what was needed to judge them) with its reason, which the buyer reads. The articles and the
 * delivery come from the withdrawal itself, never from the form.
 */

export const withdrawalReturnFormSchema = z
  .object({
    deduction: optionalEuros("2,00"),
    reason: refundReason,
  })
  .catchall(z.string())
  .superRefine((form, ctx) => {
    if (form.deduction > 0 && !form.reason) ctx.addIssue({ code: "custom", path: ["reason"], message: "Indiquez le motif de la déduction (l'état de l'article retourné)." });
  });

export type WithdrawalReturnForm = z.infer<typeof withdrawalReturnFormSchema>;
