import { z } from "zod";
import { EMAIL_MAX } from "./contact-forms";
import { ORDER_NUMBER_PATTERN } from "./order-number";
import { hasForbiddenCharacters, visibleLength } from "./text-rules";
import { WITHDRAWAL_NAME_MAX, orderNumberExample } from "./withdrawal";

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
