import type { FieldErrors } from "./field-errors";
import { checkImageFile } from "./image-upload";

/**
 * The contact form and the buy-back form (SPEC.md sections 2 and 5): their limits, answers and
 * photo rules. The schemas are in contact-form-schemas.ts.
 */

export const NAME_MAX = 100;
export const MESSAGE_MAX = 5000;
export const PHONE_MAX = 30;
export const EMAIL_MAX = 254;

/** What a form sent back to itself after a refusal without JavaScript (files are never echoed). */
export type SubmittedValues = Partial<Record<"lastName" | "firstName" | "email" | "phone" | "message", string>>;

/** The submitted text fields, cut to their maxima, to refill a form the server refused. */
export function submittedValues(form: FormData): SubmittedValues {
  const values: SubmittedValues = {};
  for (const field of ["lastName", "firstName", "email", "phone", "message"] as const) {
    const value = form.get(field);
    if (typeof value === "string") values[field] = value.slice(0, field === "message" ? MESSAGE_MAX : NAME_MAX);
  }
  return values;
}

/** What /contact and /rachat answer, to a fetcher (JavaScript) and to a plain form post alike. */
export type InboxFormAnswer =
  | { ok: true }
  | { ok: false; failure: { title: string; description: string }; fieldErrors?: FieldErrors; values: SubmittedValues };

/** SPEC.md section 8: the toasts of the two forms. */
export const SEND_FAILED = { title: "Erreur", description: "Un problème est survenu lors de l'envoi. Merci de réessayer." };
export const SENT_TOASTS = {
  contact: { title: "Message envoyé !", description: "Merci pour votre message, nous vous répondrons très bientôt." },
  rachat: { title: "Demande de rachat envoyée !", description: "Nous vous répondrons par e-mail ou par message sur les réseaux sociaux." },
} as const;

/**
 * A field real visitors never see nor fill (hidden, out of the tab order, no autofill): a
 * robot that fills every field gives itself away.
 */
export const HONEYPOT_FIELD = "website";

export function honeypotMessage(shopEmail: string): string {
  const otherWay = shopEmail ? `écrivez-nous directement à ${shopEmail}` : "rechargez la page et envoyez-le de nouveau";
  return `Envoi refusé : le formulaire semble avoir été rempli par un robot. Si vous êtes une personne, ${otherWay}.`;
}

export const MAX_BUYBACK_PHOTOS = 5;
export const PHOTOS_FIELD = "photos";
export const TOO_MANY_PHOTOS = `Vous pouvez joindre ${MAX_BUYBACK_PHOTOS} photos au maximum.`;

/**
 * The photos after another pick: the ones already chosen, then the new ones, a file picked twice
 * kept once (same name, size and date). A browser's file control replaces its files on each
 * pick; a customer adding photos from two folders expects both.
 */
export function addPhotoFiles<F extends { name: string; size: number; lastModified: number }>(chosen: readonly F[], picked: readonly F[]): F[] {
  const key = (file: F) => `${file.name}\u0000${file.size}\u0000${file.lastModified}`;
  const seen = new Set(chosen.map(key));
  const photos = [...chosen];
  for (const file of picked) {
    if (seen.has(key(file))) continue;
    seen.add(key(file));
    photos.push(file);
  }
  return photos;
}

/**
 * The browser's look at the chosen photos (count, then each file as for product images): the
 * French message to show, or null. An empty file input sends one nameless empty file: not a photo.
 */
export function checkPhotoFiles(files: readonly { name: string; type: string; size: number }[]): string | null {
  const chosen = files.filter((file) => file.size > 0 || file.name !== "");
  if (chosen.length > MAX_BUYBACK_PHOTOS) return TOO_MANY_PHOTOS;
  for (const file of chosen) {
    const refused = checkImageFile(file);
    if (refused) return chosen.length > 1 ? `${file.name} : ${refused}` : refused;
  }
  return null;
}
