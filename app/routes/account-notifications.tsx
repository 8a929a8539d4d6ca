import { ArrowLeft, Lock } from "lucide-react";
import { data, Form, Link, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { SwitchField } from "~/components/ui/switch-field";
import { ALWAYS_SENT_EMAILS, OPTIONAL_EMAIL_KINDS, OPTIONAL_EMAILS, emailChoicesSchema } from "~/domain/email-choices";
import { fieldErrors } from "~/domain/field-errors";
import { PRIVATE_PAGE_CACHE_CONTROL } from "~/lib/http";
import { readForm } from "~/lib/request-input.server";
import { pageMeta, seoRoot } from "~/lib/seo";
import { useFormValidation } from "~/lib/use-form-validation";
import { emailChoicesOf, saveEmailChoices } from "~/services/email-choices.server";
import { isSameOriginPost, requireViewer } from "~/services/session.server";
import type { Route } from "./+types/account-notifications";

/** /account/notifications (issue 56, point 4): every e-mail the customer may get, the optional ones each switchable. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireViewer(request, context);
  return { email: viewer.email, choices: await emailChoicesOf(context.db, viewer.email) };
}

export async function action({ request, context }: Route.ActionArgs) {
  if (!isSameOriginPost(request, context.publicUrl)) throw data("Requête refusée : elle doit venir du site de la boutique.", { status: 403 });
  const viewer = await requireViewer(request, context);
  const parsed = emailChoicesSchema.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) return data({ saved: false as const, errors: fieldErrors(parsed.error) }, { status: 400 });
  await saveEmailChoices(context.db, viewer.email, parsed.data);
  return { saved: true as const, errors: undefined };
}

export function headers() {
  return { "Cache-Control": PRIVATE_PAGE_CACHE_CONTROL };
}

export const meta: Route.MetaFunction = ({ matches }) => {
  const root = seoRoot(matches);
  return pageMeta(root, { title: `Notifications par e-mail | ${root.shop.name}`, description: "Les e-mails que vous recevez.", path: "/account/notifications", noindex: true });
};

export default function AccountNotifications({ loaderData, actionData }: Route.ComponentProps) {
  const { email, choices } = loaderData;
  const busy = useNavigation().state !== "idle";
  const form = useFormValidation(emailChoicesSchema, actionData?.errors);
  const error = Object.values(form.errors).find(Boolean);
  return (
    <div className="mx-auto max-w-2xl px-4 py-10 sm:px-6">
      <Link to="/account" className="inline-flex min-h-11 items-center gap-1.5 text-sm font-medium text-muted-foreground hover:text-foreground">
        <ArrowLeft className="size-4" aria-hidden="true" /> Mon compte
      </Link>
      <h1 className="mt-2 text-3xl font-extrabold tracking-tight">Notifications par e-mail</h1>
      <p className="mt-1 text-muted-foreground">
        Les e-mails envoyés à <strong className="font-semibold text-foreground">{email}</strong>.
      </p>

      <section aria-labelledby="always-title" className="mt-8 rounded-2xl border border-border bg-card p-6">
        <h2 id="always-title" className="text-lg font-bold">
          Toujours envoyés
        </h2>
        <ul className="mt-4 flex flex-col gap-4 text-sm">
          {ALWAYS_SENT_EMAILS.map((kind) => (
            <li key={kind.title} className="flex gap-3">
              <Lock className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
              <div>
                <p className="font-medium">{kind.title}</p>
                <p className="text-muted-foreground">{kind.description}</p>
              </div>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="optional-title" className="mt-6 rounded-2xl border border-border bg-card p-6">
        <h2 id="optional-title" className="text-lg font-bold">
          À votre choix
        </h2>
        <Form method="post" className="mt-4 flex flex-col gap-4" noValidate onSubmit={form.onSubmit} onChange={form.onChange}>
          {OPTIONAL_EMAIL_KINDS.map((kind) => (
            <SwitchField key={kind} name={kind} label={OPTIONAL_EMAILS[kind].title} defaultChecked={choices[kind]} description={OPTIONAL_EMAILS[kind].description} />
          ))}
          {error ? (
            <p role="alert" className="text-sm font-medium text-destructive">
              {error}
            </p>
          ) : null}
          <div className="flex flex-wrap items-center gap-4">
            <Button type="submit" disabled={busy}>
              Enregistrer mes choix
            </Button>
            {actionData?.saved && !busy ? (
              <p role="status" className="text-sm font-medium">
                Vos choix sont enregistrés.
              </p>
            ) : null}
          </div>
        </Form>
      </section>
    </div>
  );
}
