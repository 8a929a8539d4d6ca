import { z } from "zod";
import { hasForbiddenCharacters, visibleLength } from "./text-rules";
import { isCommonPassword } from "./common-passwords";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./password-rules";

export { type FieldErrors, fieldErrors } from "./field-errors";
export { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./password-rules";

/** One schema per form, used by the browser and by the server action alike (SPEC.md section 5). */

// Each field names what it expects even when a script leaves it out or sends a file instead.
const email = z.string({ message: "Email invalide" }).trim().toLowerCase().max(254, "Email invalide").pipe(z.email("Email invalide"));

/** What a login too long to be an account's gets: the same answer as a wrong password. */
export const WRONG_LOGIN = "Email ou mot de passe incorrect.";
/** A new password on the list of common or breached ones (the form's short list, the server's full one). */
export const COMMON_PASSWORD = "Ce mot de passe est trop courant : choisissez-en un moins facile à deviner";
const TOO_SHORT = `Le mot de passe doit contenir au moins ${PASSWORD_MIN_LENGTH} caractères`;
export const INVALID_RESET_LINK = "Ce lien de réinitialisation est invalide ou a expiré. Demandez-en un nouveau.";

const newPassword = z
  .string({ message: TOO_SHORT })
  .min(PASSWORD_MIN_LENGTH, TOO_SHORT)
  .max(PASSWORD_MAX_LENGTH, "Le mot de passe doit contenir au plus 128 caractères")
  // The browser's check, on a short list; the server checks the full one as well
  // (commonPasswordErrors in app/services/auth-actions.server.ts).
  .refine((value) => !isCommonPassword(value), COMMON_PASSWORD);

export const signupSchema = z.object({
  name: z
    .string({ message: "Le nom doit contenir au moins 2 caractères" })
    .trim()
    .max(100, "Le nom doit contenir au plus 100 caractères")
    .refine((value) => visibleLength(value) >= 2, "Le nom doit contenir au moins 2 caractères")
    .refine((value) => !hasForbiddenCharacters(value), "Le nom contient des caractères non autorisés"),
  email,
  password: newPassword,
});

export const loginSchema = z.object({
  email: z.string({ message: "L'email est obligatoire" }).trim().toLowerCase().min(1, "L'email est obligatoire").max(254, WRONG_LOGIN),
  password: z.string({ message: "Le mot de passe est obligatoire" }).min(1, "Le mot de passe est obligatoire").max(PASSWORD_MAX_LENGTH, WRONG_LOGIN),
});

export const forgotPasswordSchema = z.object({ email });

export const resetPasswordSchema = z
  .object({
    token: z.string({ message: INVALID_RESET_LINK }).min(1, INVALID_RESET_LINK).max(200, INVALID_RESET_LINK),
    password: newPassword,
    confirm: z.string({ message: "Les deux mots de passe ne correspondent pas" }),
  })
  .refine((value) => value.password === value.confirm, { path: ["confirm"], message: "Les deux mots de passe ne correspondent pas" });
