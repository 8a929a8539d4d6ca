import { z } from "zod";
export { ALERT_CONSENT_TEXT } from "./stock-alert-consent";

/**
 * "Prévenez-moi" (issue 39, point 4): the form's schema, shared by the browser and the server,
 * and the consent it records. zod only: this file ships to the browser.
 */

export const ALERT_EMAIL_INVALID = "Merci d'entrer une adresse email valide";
export const ALERT_CONSENT_MISSING = "Cochez la case pour accepter de recevoir cet e-mail.";

export const stockAlertSchema = z.object({
  email: z.string({ message: ALERT_EMAIL_INVALID }).trim().toLowerCase().max(254, ALERT_EMAIL_INVALID).pipe(z.email({ message: ALERT_EMAIL_INVALID })),
  consent: z.literal("on", { message: ALERT_CONSENT_MISSING }),
});

/** The same answer whether the address was known or not (nobody learns who waits for what). */
export const ALERT_REQUESTED = "Vérifiez votre boîte de réception : un e-mail vous demande de confirmer l'alerte.";
