import { z } from "zod";
import { parseEurosToCents } from "./money";
import { REFUND_ADJUSTMENT_KINDS, type RefundRequest } from "./partial-refund";

/**
 * The admin's "Rembourser une partie" form, checked by the browser and again by the server with
 * this schema: per article `qty:<line id>` (units to refund) and `restock:<line id>` ("on" to put
 * them back in stock), the delivery and insurance amounts, an optional goodwill amount or
 * deduction with its reason. It says what the seller asks; what that is worth is the server's
 * reckoning (domain/partial-refund.ts).
 */

const MAX_REASON = 200;

/** An optional amount typed in euros ("4,90"), in cents; empty is 0. Shared by the seller's refund forms. */
export function optionalEuros(example: string) {
  return z
    .string()
    .trim()
    .optional()
    .transform((value, ctx) => {
      if (!value) return 0;
      const cents = parseEurosToCents(value);
      if (cents === null || cents > 10_000_000) {
        ctx.addIssue({ code: "custom", message: `Montant invalide (par exemple ${example}).` });
        return z.NEVER;
      }
      return cents;
    });
}

/** The reason of a goodwill amount or a deduction, which the buyer reads. */
export const refundReason = z.string().trim().max(MAX_REASON, `Motif : ${MAX_REASON} caractères au plus.`).optional().default("");

const euros = optionalEuros("4,90");

export const partialRefundFormSchema = z
  .object({
    requestKey: z.string().uuid("Formulaire expiré : rechargez la page."),
    shipping: euros,
    insurance: euros,
    adjustmentKind: z.enum(["", ...REFUND_ADJUSTMENT_KINDS]).optional().default(""),
    adjustmentAmount: euros,
    reason: refundReason,
  })
  .catchall(z.string())
  .superRefine((form, ctx) => {
    for (const [key, value] of Object.entries(form)) {
      if (key.startsWith("qty:") && !/^\d{1,3}$/.test(String(value).trim() || "0")) ctx.addIssue({ code: "custom", path: [key], message: "Quantité invalide." });
    }
    if (form.adjustmentKind && form.adjustmentAmount === 0) ctx.addIssue({ code: "custom", path: ["adjustmentAmount"], message: "Indiquez le montant." });
    if (!form.adjustmentKind && form.adjustmentAmount > 0) ctx.addIssue({ code: "custom", path: ["adjustmentKind"], message: "Choisissez : geste commercial ou déduction pour dépréciation." });
    if (form.adjustmentKind && !form.reason) {
      ctx.addIssue({ code: "custom", path: ["reason"], message: form.adjustmentKind === "goodwill" ? "Indiquez le motif du geste commercial." : "Indiquez le motif de la déduction (l'état de l'article retourné)." });
    }
  });

export type PartialRefundForm = z.infer<typeof partialRefundFormSchema>;

/** The request the form makes: the units per line, the amounts, the adjustment. */
export function refundRequestOf(form: PartialRefundForm): { requestKey: string; request: RefundRequest } {
  const lines = Object.entries(form)
    .filter(([key]) => key.startsWith("qty:"))
    .map(([key, value]) => {
      const orderItemId = key.slice(4);
      return { orderItemId, quantity: Number(String(value).trim() || "0"), restock: form[`restock:${orderItemId}`] === "on" };
    })
    .filter((line) => line.quantity > 0);
  const kind = form.adjustmentKind;
  return {
    requestKey: form.requestKey,
    request: {
      lines,
      shippingCents: form.shipping,
      insuranceCents: form.insurance,
      adjustment: kind ? { kind, cents: form.adjustmentAmount, reason: form.reason } : null,
    },
  };
}
