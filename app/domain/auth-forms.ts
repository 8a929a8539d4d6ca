import { z } from "zod";
import { isCommonPassword } from "./common-passwords";

/** One schema per form, used by the browser and by the server action alike (SPEC.md section 5). */

const email = z.string().trim().toLowerCase().max(254, "Email invalide").pipe(z.email("Email invalide"));

export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 128;

const newPassword = z
  .string()
  .min(PASSWORD_MIN_LENGTH, "Le mot de passe doit contenir au moins 6 caractères")
  .max(PASSWORD_MAX_LENGTH, "Le mot de passe doit contenir au plus 128 caractères")
  .refine((value) => !isCommonPassword(value), "Ce mot de passe est trop courant : choisissez-en un moins facile à deviner");

export const signupSchema = z.object({
  name: z.string().trim().min(2, "Le nom doit contenir au moins 2 caractères").max(100, "Le nom doit contenir au plus 100 caractères"),
  email,
  password: newPassword,
});

export const loginSchema = z.object({
  email: z.string().trim().toLowerCase().min(1, "L'email est obligatoire").max(254),
  password: z.string().min(1, "Le mot de passe est obligatoire").max(PASSWORD_MAX_LENGTH),
});

export const forgotPasswordSchema = z.object({ email });

export const resetPasswordSchema = z
  .object({
    token: z.string().min(1).max(200),
    password: newPassword,
    confirm: z.string(),
  })
  .refine((value) => value.password === value.confirm, { path: ["confirm"], message: "Les deux mots de passe ne correspondent pas" });

export type FieldErrors = Partial<Record<string, string>>;

/** The first message of each field, for the form to show beside it. */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "form");
    errors[field] ??= issue.message;
  }
  return errors;
}
