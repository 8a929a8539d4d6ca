import { type FormEvent, useRef, useState } from "react";
import type { z } from "zod";
import { type FieldErrors, fieldErrors } from "~/domain/field-errors";

/**
 * A form's schema, or a function that imports it. The public pages import theirs: zod and the
 * schemas (about 25 KB) then load with the first keystroke or submit, not with the page
 * (issue 13's 100 KB budget); a visitor who only reads never downloads them.
 */
export type SchemaSource = z.ZodType | (() => Promise<z.ZodType>);

/**
 * Checks a form with the same zod schema its action uses before it is sent, so mistakes show
 * at once; the server checks again whatever arrives. Without JavaScript the server alone does.
 */
export function useFormValidation(source: SchemaSource, serverErrors: FieldErrors | undefined, options: { revalidateOnChange?: boolean } = {}) {
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null);
  // Set by a refused submit, cleared by an accepted one: until then, revalidateOnChange applies.
  const [refused, setRefused] = useState(false);
  const [submittedServerErrors, setSubmittedServerErrors] = useState(serverErrors);
  // A ref, not state: a submit held for the schema is sent again as soon as it arrives.
  const schema = useRef<z.ZodType | null>(typeof source === "function" ? null : source);
  const loading = useRef<Promise<z.ZodType> | null>(null);
  // New server errors replace what the browser found.
  if (serverErrors !== submittedServerErrors) {
    setSubmittedServerErrors(serverErrors);
    setClientErrors(null);
  }
  const errors = clientErrors ?? serverErrors ?? {};

  function load(): Promise<z.ZodType> {
    if (schema.current) return Promise.resolve(schema.current);
    loading.current ??= (source as () => Promise<z.ZodType>)().then(
      (loaded) => (schema.current = loaded),
      (error: unknown) => {
        loading.current = null; // a later keystroke or submit tries again
        throw error;
      },
    );
    return loading.current;
  }

  /** Validates the form; shows the errors and focuses the first field in error when refused. */
  function check(form: HTMLFormElement, checkWith: z.ZodType): boolean {
    const result = checkWith.safeParse(Object.fromEntries(new FormData(form)));
    setRefused(!result.success);
    if (result.success) {
      setClientErrors({});
      return true;
    }
    const found = fieldErrors(result.error);
    setClientErrors(found);
    const first = Object.keys(found)[0];
    if (first) (form.elements.namedItem(first) as HTMLElement | null)?.focus();
    return false;
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const form = event.currentTarget;
    if (schema.current) {
      if (!check(form, schema.current)) event.preventDefault();
      return;
    }
    // Not loaded yet (a submit before any keystroke): held until it is, then checked and sent
    // again. If it cannot load (offline), the form goes to the server, which checks it.
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    load().then(
      (loaded) => {
        if (check(form, loaded)) form.requestSubmit(submitter);
      },
      () => form.requestSubmit(submitter),
    );
  }

  /**
   * A field's error disappears as soon as it is edited (SPEC.md section 5). With
   * revalidateOnChange ("validated on submit, then on change": the contact forms), once a submit
   * was refused the edited field is checked again at each change, its error coming and going.
   */
  function onChange(event: FormEvent<HTMLFormElement>) {
    if (!schema.current) void load().catch(() => {});
    const name = (event.target as HTMLInputElement).name;
    if (!name) return;
    if (options.revalidateOnChange && (refused || serverErrors) && schema.current) {
      const result = schema.current.safeParse(Object.fromEntries(new FormData(event.currentTarget)));
      const message = result.success ? undefined : fieldErrors(result.error)[name];
      if (message !== errors[name]) setClientErrors({ ...errors, [name]: message });
      return;
    }
    if (errors[name]) setClientErrors({ ...errors, [name]: undefined });
  }

  return { errors, onSubmit, onChange };
}
