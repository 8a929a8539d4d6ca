import { z } from "zod";
import { EMAIL_MAX } from "./contact-forms";
import { ORDER_NUMBER_PATTERN } from "./order-number";
import { orderNumberExample } from "./withdrawal";

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
