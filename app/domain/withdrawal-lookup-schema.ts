import { z } from "zod";
import { EMAIL_MAX } from "./contact-forms";
import { ORDER_NUMBER_PATTERN } from "./order-number";
import { hasForbiddenCharacters, visibleLength } from "./text-rules";
import { QUANTITY_FIELD_PREFIX, WITHDRAWAL_NAME_MAX, orderNumberExample, quantityField } from "./withdrawal";

const EMAIL_INVALID = "Merci d'entrer une adresse email valide";

/**
 * Order number and e-mail, as the confirmation e-mail gives them. The number is read in any
 * case and without surrounding spaces; the example in the message uses the shop's prefix.
 * Apart from withdrawal.ts so the page loads zod only when a visitor starts typing (decision 023).
 */
export function withdrawalLookupSchema(orderPrefix: string) {
  const invalidNumber = `Numéro de commande invalide : il s'écrit comme ${orderNumberExample(orderPrefix)}.`;
  return z.object({
    orderNumber: z.string({ error: invalidNumber }).trim().toUpperCase().regex(ORDER_NUMBER_PATTERN, invalidNumber),
    email: z.string({ error: EMAIL_INVALID }).trim().toLowerCase().max(EMAIL_MAX, EMAIL_INVALID).pipe(z.email(EMAIL_INVALID)),
  });
}

export const WITHDRAWAL_NAME_MESSAGES = {
  missing: "Indiquez votre nom et votre prénom (au moins 2 caractères).",
  tooLong: `Le nom doit contenir au plus ${WITHDRAWAL_NAME_MAX} caractères.`,
  forbidden: "Le nom contient des caractères non autorisés.",
} as const;

/**
 * The declaration's name, "Nom du (des) consommateur(s)" of the EU model withdrawal form
 * (Annexe à l'article R221-1): asked with the confirmation button, the same for a signed-in
 * customer (filled in with their account's name) and a guest. Trimmed, inner spaces collapsed;
 * a field missing from the post reads as empty, with the same French message.
 */
export const withdrawalNameSchema = z.object({
  customerName: z
    .string({ error: WITHDRAWAL_NAME_MESSAGES.missing })
    .trim()
    .transform((value) => value.replace(/\s+/gu, " "))
    .refine((value) => visibleLength(value) >= 2, WITHDRAWAL_NAME_MESSAGES.missing)
    .refine((value) => value.length <= WITHDRAWAL_NAME_MAX, WITHDRAWAL_NAME_MESSAGES.tooLong)
    .refine((value) => !hasForbiddenCharacters(value), WITHDRAWAL_NAME_MESSAGES.forbidden),
});

/** An article of the order, as the confirmation offers it: its id, name and the units bought. */
export type WithdrawableLine = { id: string; name: string; quantity: number };


export const WITHDRAWAL_LINES_MESSAGES = {
  none: "Choisissez au moins un article dont vous vous rétractez (une quantité d'au moins 1).",
  unknown: "Un des articles choisis n'appartient pas à cette commande.",
  invalid: (name: string, max: number) => `Quantité invalide pour « ${name} » : indiquez un nombre entier de 0 à ${max}.`,
  tooMany: (name: string, max: number) => `Vous avez acheté ${max} « ${name} » : indiquez au plus ${max}.`,
} as const;

/**
 * The confirmation: the name (withdrawalNameSchema) and, per article of the order, how many
 * units are withdrawn, all by default (a field left out counts as all), 0 to keep it; at least one
 * unit in all. A quantity field naming no article of the order is refused. The browser and the
 * action parse the same post with it; the result's `lines` holds the articles withdrawn (1 unit or more).
 */
export function withdrawalConfirmSchema(orderLines: readonly WithdrawableLine[]) {
  const known = new Set(orderLines.map((line) => quantityField(line.id)));
  return withdrawalNameSchema.loose().transform((value, ctx) => {
    const form = value as Record<string, unknown>;
    for (const key of Object.keys(form)) {
      if (key.startsWith(QUANTITY_FIELD_PREFIX) && !known.has(key)) {
        ctx.addIssue({ code: "custom", path: ["form"], message: WITHDRAWAL_LINES_MESSAGES.unknown });
        return z.NEVER;
      }
    }
    const lines: { orderItemId: string; quantity: number }[] = [];
    let failed = false;
    for (const line of orderLines) {
      const field = quantityField(line.id);
      const raw = form[field];
      const text = raw === undefined ? String(line.quantity) : typeof raw === "string" ? raw.trim() : "";
      const quantity = /^\d{1,6}$/u.test(text) ? Number(text) : Number.NaN;
      if (Number.isNaN(quantity)) {
        ctx.addIssue({ code: "custom", path: [field], message: WITHDRAWAL_LINES_MESSAGES.invalid(line.name, line.quantity) });
        failed = true;
      } else if (quantity > line.quantity) {
        ctx.addIssue({ code: "custom", path: [field], message: WITHDRAWAL_LINES_MESSAGES.tooMany(line.name, line.quantity) });
        failed = true;
      } else if (quantity > 0) lines.push({ orderItemId: line.id, quantity });
    }
    if (failed) return z.NEVER;
    if (lines.length === 0) {
      ctx.addIssue({ code: "custom", path: [orderLines[0] ? quantityField(orderLines[0].id) : "form"], message: WITHDRAWAL_LINES_MESSAGES.none });
      return z.NEVER;
    }
    return { customerName: value.customerName, lines };
  });
}
