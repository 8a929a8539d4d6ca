import { z } from "zod";

/**
 * Personal data by e-mail address (/admin/privacy): the address typed by the seller, matched
 * without regard to case, and what the page asks for.
 */
export const PRIVACY_EMAIL_MAX_LENGTH = 254;
export const PRIVACY_EMAIL_INVALID = "Saisissez une adresse e-mail valide.";

/** The address as the database is searched with (trimmed, lower case), or null if it is not one. */
export function normalizePrivacyEmail(input: unknown): string | null {
  if (typeof input !== "string") return null;
  const email = input.trim().toLowerCase();
  if (email.length === 0 || email.length > PRIVACY_EMAIL_MAX_LENGTH) return null;
  return z.email().safeParse(email).success ? email : null;
}

/** The page's two posts: look an address up, or erase what it holds (after a confirmation). */
export const privacyActionSchema = z.object({
  intent: z.enum(["lookup", "erase"], { message: "Action inconnue." }),
  email: z.string({ message: PRIVACY_EMAIL_INVALID }).max(1000, PRIVACY_EMAIL_INVALID),
});

/** The account's erasure is the one on its page: it also ends its sessions and sign-in. */
export const PRIVACY_IS_ACCOUNT = "Cette adresse est celle d'un compte client : effacez ses données depuis sa fiche (Utilisateurs).";
export const PRIVACY_OPEN_ORDER =
  "Cette adresse a une commande en cours (paiement en attente, à expédier ou à rembourser) : traitez-la avant d'effacer ses données.";
export const PRIVACY_NOTHING = "Aucune donnée n'est enregistrée pour cette adresse.";
