import { ArrowLeft } from "lucide-react";
import { data, Form, Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button, buttonVariants } from "~/components/ui/button";
import { OUTBOX_STATUS_LABELS, OUTBOX_STATUS_TONES } from "~/domain/outbox";
import { cgvFileName, cgvPath } from "~/domain/cgv-snapshot";
import { getCgvSnapshotById } from "~/services/cgv.server";
import { getOutboxEmailForAdmin, retryEmail } from "~/services/mail.server";
import { requireAdmin } from "~/services/session.server";
import type { Route } from "./+types/email";
import { formatParisDateTime } from "~/domain/paris-time";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const email = await getOutboxEmailForAdmin(context.db, params.id);
  if (!email) throw data(null, { status: 404 });
  // The file it carries is made when it is sent, from the CGV version: the same one is read here.
  const cgv = email.cgvSnapshotId ? await getCgvSnapshotById(context.db, email.cgvSnapshotId) : null;
  return { email, attachment: cgv ? { name: cgvFileName(cgv.hash), href: cgvPath(cgv.hash) } : null };
}

/** Puts a failed e-mail back in the queue. */
export async function action({ request, context, params }: Route.ActionArgs) {
  await requireAdmin(request, context, "api");
  const retried = await retryEmail(context.db, params.id);
  if (retried) context.kickMail();
  return { retried };
}

export const meta: Route.MetaFunction = ({ data: loaderData }) => [{ title: loaderData ? `E-mail : ${loaderData.email.subject}` : "E-mail" }];

export default function AdminEmail({ loaderData }: Route.ComponentProps) {
  const { email, attachment } = loaderData;
  return (
    <section>
      <Link to="/admin/emails" className={buttonVariants({ variant: "ghost", size: "sm", className: "-ml-3 h-11" })}>
        <ArrowLeft aria-hidden="true" /> Tous les e-mails
      </Link>
      <h1 className="mt-2 text-2xl font-extrabold tracking-tight [overflow-wrap:anywhere]">{email.subject}</h1>
      <dl className="mt-4 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="text-muted-foreground">Destinataire</dt>
        <dd>{email.to}</dd>
        <dt className="text-muted-foreground">Créé le</dt>
        <dd>{formatParisDateTime(email.createdAt)}</dd>
        <dt className="text-muted-foreground">Statut</dt>
        <dd className="flex flex-wrap items-center gap-2">
          <Badge tone={OUTBOX_STATUS_TONES[email.status]}>{OUTBOX_STATUS_LABELS[email.status]}</Badge>
          {email.attempts > 0 ? <span className="text-muted-foreground">{email.attempts} tentative(s)</span> : null}
        </dd>
        {attachment ? (
          <>
            <dt className="text-muted-foreground">Pièce jointe</dt>
            <dd>
              {/* A file, not a page of the app: a plain link the browser opens itself. */}
              <a href={attachment.href} className="font-medium text-accent underline underline-offset-4">
                {attachment.name}
              </a>
            </dd>
          </>
        ) : null}
        {email.lastError ? (
          <>
            <dt className="text-muted-foreground">Dernière erreur</dt>
            <dd className="break-all">{email.lastError}</dd>
          </>
        ) : null}
      </dl>
      {email.status === "failed" ? (
        <Form method="post" className="mt-4">
          <Button type="submit" variant="outline">
            Réessayer l'envoi
          </Button>
        </Form>
      ) : null}
      {email.linksRedacted ? (
        <p className="mt-6 text-sm text-muted-foreground">
          Les liens de vérification ou de réinitialisation sont masqués une fois l'e-mail envoyé : ils permettraient d'agir au nom du destinataire.
        </p>
      ) : null}
      <h2 className="mt-8 text-lg font-bold">Aperçu</h2>
      {/* The e-mail's HTML, isolated: no scripts, no access to this page. */}
      <iframe title={`Aperçu de l'e-mail ${email.subject}`} srcDoc={email.html} sandbox="" className="mt-3 h-[32rem] w-full rounded-2xl border border-border bg-white" />
      <h2 className="mt-8 text-lg font-bold">Version texte</h2>
      <pre data-testid="email-text" className="mt-3 whitespace-pre-wrap [overflow-wrap:anywhere] rounded-2xl border border-border bg-card p-4 text-sm">
        {email.text}
      </pre>
    </section>
  );
}
