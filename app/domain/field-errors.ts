import type { z } from "zod";

/** A form's errors: one message per field, keyed by the field's name ("form" for the whole). */
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
