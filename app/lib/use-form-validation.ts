import { type FormEvent, useState } from "react";
import type { z } from "zod";
import { type FieldErrors, fieldErrors } from "~/domain/auth-forms";

/**
 * Checks a form with the same zod schema its action uses before it is sent, so mistakes show
 * at once; the server checks again whatever arrives. Without JavaScript the server alone does.
 */
export function useFormValidation(schema: z.ZodType, serverErrors: FieldErrors | undefined, options: { revalidateOnChange?: boolean } = {}) {
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null);
  // Set by a refused submit, cleared by an accepted one: until then, revalidateOnChange applies.
  const [refused, setRefused] = useState(false);
  const [submittedServerErrors, setSubmittedServerErrors] = useState(serverErrors);
  // New server errors replace what the browser found.
  if (serverErrors !== submittedServerErrors) {
    setSubmittedServerErrors(serverErrors);
    setClientErrors(null);
  }
  const errors = clientErrors ?? serverErrors ?? {};

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const values = Object.fromEntries(new FormData(event.currentTarget));
    const result = schema.safeParse(values);
    setRefused(!result.success);
    if (result.success) {
      setClientErrors({});
      return;
    }
    event.preventDefault();
    const found = fieldErrors(result.error);
    setClientErrors(found);
    const first = Object.keys(found)[0];
    if (first) (event.currentTarget.elements.namedItem(first) as HTMLElement | null)?.focus();
  }

  /**
   * A field's error disappears as soon as it is edited (SPEC.md section 5). With
   * revalidateOnChange ("validated on submit, then on change": the contact forms), once a submit
   * was refused the edited field is checked again at each change, its error coming and going.
   */
  function onChange(event: FormEvent<HTMLFormElement>) {
    const name = (event.target as HTMLInputElement).name;
    if (!name) return;
    if (options.revalidateOnChange && (refused || serverErrors)) {
      const result = schema.safeParse(Object.fromEntries(new FormData(event.currentTarget)));
      const message = result.success ? undefined : fieldErrors(result.error)[name];
      if (message !== errors[name]) setClientErrors({ ...errors, [name]: message });
      return;
    }
    if (errors[name]) setClientErrors({ ...errors, [name]: undefined });
  }

  return { errors, onSubmit, onChange };
}
