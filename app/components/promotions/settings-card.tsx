import type { ReactNode } from "react";
import { useFetcher } from "react-router";
import type { z } from "zod";
import { useActionToast } from "~/components/admin/use-action-toast";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { toast } from "~/components/ui/toaster";
import type { FieldErrors } from "~/domain/auth-forms";
import type { SettingStatus } from "~/domain/site-content";
import { useFormValidation } from "~/lib/use-form-validation";

/** What the promotions page's action answers for one card. */
export type SettingsAnswer = { ok: boolean; toast: { title: string; description?: string }; fieldErrors?: FieldErrors };

export const INVALID_FORM_TOAST = { title: "Formulaire incomplet", description: "Veuillez corriger les erreurs dans le formulaire." };

/**
 * One card of the promotions page: its own form (posted with `intent`), checked in the browser
 * with the schema the action uses, saved without leaving the page, answered by a toast.
 */
export function SettingsCard({
  intent,
  title,
  description,
  status,
  schema,
  submitLabel,
  children,
}: {
  intent: string;
  title: string;
  description: string;
  status: SettingStatus;
  schema: z.ZodType;
  submitLabel: string;
  children: (errors: FieldErrors) => ReactNode;
}) {
  const fetcher = useFetcher<SettingsAnswer>();
  useActionToast(fetcher.data);
  const form = useFormValidation(schema, fetcher.data?.fieldErrors);
  const busy = fetcher.state !== "idle";
  const titleId = `${intent}-title`;
  return (
    <section aria-labelledby={titleId} className="rounded-2xl border border-border bg-card p-5">
      <div className="flex items-center justify-between gap-3">
        <h2 id={titleId} className="text-lg font-bold">
          {title}
        </h2>
        <Badge tone={status.tone}>{status.label}</Badge>
      </div>
      <p className="mt-1 text-sm text-muted-foreground">{description}</p>
      <fetcher.Form
        method="post"
        noValidate
        className="mt-5 flex flex-col gap-4"
        onChange={form.onChange}
        onSubmit={(event) => {
          form.onSubmit(event);
          if (event.defaultPrevented) toast.error(INVALID_FORM_TOAST.title, { description: INVALID_FORM_TOAST.description });
        }}
      >
        <input type="hidden" name="intent" value={intent} />
        {children(form.errors)}
        <div className="flex justify-end">
          <Button type="submit" disabled={busy}>
            {busy ? "Enregistrement..." : submitLabel}
          </Button>
        </div>
      </fetcher.Form>
    </section>
  );
}
