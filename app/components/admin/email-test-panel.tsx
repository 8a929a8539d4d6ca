import { LoaderCircle, Mail, MailCheck, Package, Send } from "lucide-react";
import { type FormEvent, type ReactNode, useEffect, useMemo, useRef } from "react";
import { Form, Link, useFormAction, useNavigation } from "react-router";
import { Alert } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { useActionToast } from "./use-action-toast";
import {
  EMAIL_LABELS,
  type EmailTestAnswer,
  type EmailTestResult,
  TEST_EMAIL_STATUS_LABELS,
  TEST_EMAIL_STATUS_TONES,
  type TestEmailOutcome,
  emailTestToast,
} from "~/domain/email-test";
import { formatEuros } from "~/domain/money";
import { cn } from "~/lib/utils";

export type EmailTestSetup = {
  delivery: "smtp" | "outbox";
  recipients: Record<keyof typeof EMAIL_LABELS, string>;
};

const card = "rounded-2xl border border-border bg-card p-5 sm:p-6";

/**
 * The order e-mail test (SPEC.md section 2, Test-email page), shown at /admin/test-email and at
 * /test-email: one button, then each e-mail's status, recipient, id and error, and the test
 * order. A plain form post: it works without JavaScript; with it, the toasts of SPEC.md too.
 */
export function EmailTestPanel({ setup, answer }: { setup: EmailTestSetup; answer: EmailTestAnswer | undefined }) {
  const navigation = useNavigation();
  const formAction = useFormAction();
  const busy = navigation.state === "submitting" && navigation.formAction === formAction;
  // Set on the first submit, before React disables the button: a double click runs one test.
  const started = useRef(false);
  useEffect(() => {
    if (navigation.state === "idle") started.current = false;
  }, [navigation.state]);
  const region = useRef<HTMLDivElement>(null);

  const message = useMemo(() => (answer ? emailTestToast(answer) : undefined), [answer]);
  useActionToast(message);
  // The answer takes the focus: a screen reader reads it, the keyboard goes on from there.
  useEffect(() => {
    if (answer) region.current?.focus();
  }, [answer]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (started.current) event.preventDefault();
    started.current = true;
  }

  return (
    <section aria-labelledby="email-test-title">
      <h1 id="email-test-title" className="text-3xl font-extrabold tracking-tight">
        Test des e-mails de commande
      </h1>
      <p className="mt-1 max-w-3xl text-sm text-muted-foreground">
        Une commande de test est préparée (jamais enregistrée&nbsp;: ni commande, ni stock, ni chiffres des clients ne changent), puis sa confirmation client
        et sa notification vendeur partent par le vrai chemin d'envoi de la boutique.
      </p>

      <div className={cn(card, "mt-6")}>
        <h2 className="flex items-center gap-2 text-lg font-bold">
          <Mail className="size-5 text-accent" aria-hidden="true" /> Envoi
        </h2>
        <p className="mt-2 text-sm text-muted-foreground">
          {setup.delivery === "smtp"
            ? "Relais SMTP configuré (SMTP_URL)\u00a0: les deux e-mails partent tout de suite, et la réponse du relais s'affiche ci-dessous."
            : "Pas de relais SMTP (SMTP_URL)\u00a0: les deux e-mails sont mis en file d'attente dans la boîte d'envoi, comme tous les e-mails de la boutique."}
        </p>
        <dl className="mt-4 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
          {(Object.keys(EMAIL_LABELS) as (keyof typeof EMAIL_LABELS)[]).map((key) => (
            <div key={key} className="contents">
              <dt className="text-muted-foreground">{EMAIL_LABELS[key]}</dt>
              <dd className="mb-2 [overflow-wrap:anywhere] sm:mb-0">{setup.recipients[key]}</dd>
            </div>
          ))}
        </dl>
        <Form method="post" className="mt-5" onSubmit={onSubmit}>
          <Button type="submit" disabled={busy} aria-describedby="email-test-note">
            {busy ? <LoaderCircle className="animate-spin motion-reduce:animate-none" aria-hidden="true" /> : <Send aria-hidden="true" />}
            {busy ? "Test en cours..." : "Tester les e-mails de commande"}
          </Button>
          <p id="email-test-note" className="mt-2 text-xs text-muted-foreground">
            Deux e-mails par test, un test toutes les quelques secondes au plus.
          </p>
        </Form>
      </div>

      <div ref={region} tabIndex={-1} aria-live="polite" className="mt-8 space-y-6 outline-none">
        {answer && message ? <Outcome answer={answer} message={message} /> : null}
      </div>
    </section>
  );
}

function Outcome({ answer, message }: { answer: EmailTestAnswer; message: ReturnType<typeof emailTestToast> }) {
  return (
    <>
      <Alert tone={message.ok ? "success" : "error"} title={message.toast.title}>
        <p className="break-words">{message.toast.description}</p>
        {message.ok || answer.kind === "refused" ? null : <p className="mt-1">Consultez les journaux du serveur pour plus de détails.</p>}
      </Alert>
      {answer.kind === "result" ? <Result result={answer.result} /> : null}
    </>
  );
}

function Result({ result }: { result: EmailTestResult }) {
  const { orderNumber, totalCents, items } = result.orderDetails;
  return (
    <>
      <div className="grid gap-6 md:grid-cols-2">
        <EmailBox title={EMAIL_LABELS.confirmationEmail} outcome={result.confirmationEmail} />
        <EmailBox title={EMAIL_LABELS.notificationEmail} outcome={result.notificationEmail} />
      </div>
      <section aria-labelledby="test-order-title" className={card}>
        <h2 id="test-order-title" className="flex items-center gap-2 text-lg font-bold">
          <Package className="size-5 text-accent" aria-hidden="true" /> Commande de test
        </h2>
        <dl className="mt-4 grid grid-cols-1 gap-3 sm:grid-cols-3">
          <Figure label="Numéro" value={orderNumber} />
          <Figure label="Total" value={formatEuros(totalCents)} />
          <Figure label="Articles" value={String(items)} />
        </dl>
      </section>
    </>
  );
}

function EmailBox({ title, outcome }: { title: string; outcome: TestEmailOutcome }) {
  const id = `email-${outcome.outboxId}`;
  return (
    <section aria-labelledby={id} className={card}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={id} className="flex items-center gap-2 text-lg font-bold">
          <MailCheck className="size-5 text-accent" aria-hidden="true" /> {title}
        </h2>
        <Badge tone={TEST_EMAIL_STATUS_TONES[outcome.status]}>{TEST_EMAIL_STATUS_LABELS[outcome.status]}</Badge>
      </div>
      <dl className="mt-4 space-y-3 text-sm">
        <Row label="Destinataire">{outcome.sentTo}</Row>
        <Row label={outcome.status === "sent" ? "Identifiant du message" : "Identifiant (boîte d'envoi)"}>
          <span className="font-mono text-xs break-all">{outcome.id}</span>
        </Row>
        {outcome.error ? <Row label="Erreur">{outcome.error}</Row> : null}
      </dl>
      <Link to={`/admin/emails/${outcome.outboxId}`} className="mt-3 inline-flex min-h-11 items-center text-sm font-medium text-accent underline-offset-4 hover:underline">
        Voir l'e-mail dans la boîte d'envoi
      </Link>
    </section>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="mt-0.5 [overflow-wrap:anywhere]">{children}</dd>
    </div>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-xl border border-border bg-background/40 px-3 py-3">
      <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
      <dd className="tabular mt-1 text-xl font-extrabold [overflow-wrap:anywhere]">{value}</dd>
    </div>
  );
}
