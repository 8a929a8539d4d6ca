import { z } from "zod";
import { EMAIL_MAX, MESSAGE_MAX, NAME_MAX, PHONE_MAX } from "./contact-forms";
import { hasForbiddenCharacters } from "./text-rules";

/**
 * The schemas of the contact form and the buy-back form (SPEC.md sections 2 and 5): one each,
 * used by the browser before sending and by the server on whatever arrives. Text is trimmed;
 * the maxima keep a pasted novel or a script's flood out of the inbox with a French message.
 * Apart from contact-forms.ts so the pages load zod only when a visitor starts typing
 * (decision 023).
 */

const EMAIL_INVALID = "Merci d'entrer une adresse email valide";
const PHONE_INVALID = "Merci d'entrer un numéro de téléphone valide";

// A message keeps its line breaks and tabs, nothing else invisible.
const KEPT_CONTROLS = new Set(["\t", "\n", "\r"]);
const hasStrayControl = (value: string) => [...value.matchAll(/\p{Cc}/gu)].some(([c]) => !KEPT_CONTROLS.has(c));

// A field missing from the post (a script's) reads as empty: the same French message.
function name(what: "Le nom" | "Le prénom") {
  const short = `${what} doit contenir au moins 2 caractères`;
  return z
    .string({ error: short })
    .trim()
    .min(2, short)
    .max(NAME_MAX, `${what} doit contenir au plus ${NAME_MAX} caractères`)
    .refine((value) => !hasForbiddenCharacters(value), `${what} contient des caractères non autorisés`);
}

function longText(what: "Le message" | "La description") {
  const short = `${what} doit contenir au moins 10 caractères`;
  return z
    .string({ error: short })
    .trim()
    .min(10, short)
    .max(MESSAGE_MAX, `${what} doit contenir au plus 5\u00a0000 caractères`)
    .refine((value) => !hasStrayControl(value), `${what} contient des caractères non autorisés`);
}

const email = z.string({ error: EMAIL_INVALID }).trim().toLowerCase().max(EMAIL_MAX, EMAIL_INVALID).pipe(z.email(EMAIL_INVALID));

/** "06 12 34 56 78", "+33 6 12 34 56 78", "06.12.34.56.78", "06-12-34-56-78". */
const phone = z
  .string({ error: PHONE_INVALID })
  .trim()
  .min(10, PHONE_INVALID)
  .max(PHONE_MAX, PHONE_INVALID)
  .regex(/^\+?[0-9][0-9 ./-]*$/, PHONE_INVALID);

export const contactSchema = z.object({
  lastName: name("Le nom"),
  firstName: name("Le prénom"),
  email,
  message: longText("Le message"),
});

export const buybackSchema = z.object({
  lastName: name("Le nom"),
  firstName: name("Le prénom"),
  email,
  phone,
  message: longText("La description"),
});

export type ContactForm = z.infer<typeof contactSchema>;
export type BuybackForm = z.infer<typeof buybackSchema>;
