import { BellRing } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { Button } from "~/components/ui/button";
import { FormField } from "~/components/ui/form-field";
import { ALERT_CONSENT_TEXT } from "~/domain/stock-alert-consent";
import { fieldErrors, type FieldErrors } from "~/domain/field-errors";

/** The form's schema (zod), imported with the first submit (decision 023). */
const loadSchema = () => import("~/domain/stock-alerts").then((alerts) => alerts.stockAlertSchema);

/**
 * "Prévenez-moi" on a product sold out or not on sale yet: an address and an explicit consent;
 * the server sends a confirmation e-mail (double opt-in) and answers the same for everyone.
 */
export function StockAlertForm({ productId }: { productId: number }) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [answer, setAnswer] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const consentId = useId();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    try {
      // Not loaded (offline, say): the server checks the same schema.
      const parsed = (await loadSchema().catch(() => null))?.safeParse(Object.fromEntries(form));
      if (parsed && !parsed.success) {
        setErrors(fieldErrors(parsed.error));
        return;
      }
      setErrors({});
      const response = await fetch(`/api/alerts/${productId}`, { method: "POST", body: new URLSearchParams(form as unknown as Record<string, string>) });
      const body = (await response.json().catch(() => null)) as { message?: string; error?: string; fieldErrors?: FieldErrors } | null;
      if (response.ok) setAnswer({ ok: true, text: body?.message ?? "" });
      else if (body?.fieldErrors) setErrors(body.fieldErrors);
      else setAnswer({ ok: false, text: body?.error ?? "L'alerte n'a pas pu être enregistrée. Réessayez dans un instant." });
    } catch {
      setAnswer({ ok: false, text: "L'alerte n'a pas pu être enregistrée. Réessayez dans un instant." });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby={`alert-title-${productId}`} className="flex flex-col gap-3 rounded-2xl border border-border bg-card p-4 text-left" data-testid="stock-alert">
      <h2 id={`alert-title-${productId}`} className="flex items-center gap-2 text-lg font-bold">
        <BellRing className="size-5" aria-hidden="true" /> Prévenez-moi
      </h2>
      {answer?.ok ? (
        <p role="status" className="text-sm font-semibold text-success">
          {answer.text}
        </p>
      ) : (
        <form method="post" action={`/api/alerts/${productId}`} noValidate onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-3">
          <FormField label="Adresse e-mail" name="email" type="email" autoComplete="email" inputMode="email" required error={errors.email} />
          <div className="flex flex-col gap-1">
            <label htmlFor={consentId} className="flex items-start gap-2 text-sm">
              <input
                id={consentId}
                type="checkbox"
                name="consent"
                className="mt-0.5 size-5 shrink-0 accent-primary"
                aria-invalid={errors.consent ? true : undefined}
                aria-describedby={errors.consent ? `${consentId}-error` : undefined}
              />
              {ALERT_CONSENT_TEXT}
            </label>
            {errors.consent ? (
              <p id={`${consentId}-error`} className="text-sm font-medium text-destructive">
                {errors.consent}
              </p>
            ) : null}
          </div>
          <Button type="submit" variant="outline" disabled={busy}>
            {busy ? "Envoi…" : "M'avertir par e-mail"}
          </Button>
          {answer && !answer.ok ? (
            <p role="alert" className="text-sm font-medium text-destructive">
              {answer.text}
            </p>
          ) : null}
        </form>
      )}
    </section>
  );
}
