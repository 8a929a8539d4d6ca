import { MailX } from "lucide-react";
import { data, Form, Link, useLocation, useNavigation } from "react-router";
import { AuthCard } from "~/components/account/auth-card";
import { Button, buttonVariants } from "~/components/ui/button";
import { ONE_CLICK_POST_BODY, OPTIONAL_EMAILS, type OptionalEmailKind } from "~/domain/email-choices";
import { formPageHeaders } from "~/lib/http";
import { readForm } from "~/lib/request-input.server";
import { emailChoicesOf, readUnsubscribeToken, setEmailChoice } from "~/services/email-choices.server";
import type { Route } from "./+types/unsubscribe";

/**
 * /desabonnement?jeton=…, the link of every optional e-mail (body and List-Unsubscribe header).
 * RFC 8058: a mail client's one-click button POSTs `List-Unsubscribe=One-Click` here with no
 * cookie and from no page of ours, so neither a session nor a same-origin check applies: the
 * signed token is the proof, and it is all a forger lacks. The answer is the page, never a
 * redirect. A GET only shows the choice (link scanners open links); its button does the POST.
 */
const RESUBSCRIBE = "resubscribe";
const [ONE_CLICK_NAME, ONE_CLICK_VALUE] = ONE_CLICK_POST_BODY.split("=") as [string, string];

type View = { kind: OptionalEmailKind; email: string; subscribed: boolean } | null;

async function viewOf(context: Route.LoaderArgs["context"], request: Request): Promise<{ link: { kind: OptionalEmailKind; email: string } | null; view: View }> {
  const link = readUnsubscribeToken(context.dropSecret, new URL(request.url).searchParams.get("jeton") ?? "");
  if (!link) return { link, view: null };
  return { link, view: { ...link, subscribed: (await emailChoicesOf(context.db, link.email))[link.kind] } };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { view } = await viewOf(context, request);
  return data({ view, done: false }, { status: view ? 200 : 404 });
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const { link } = await viewOf(context, request);
  if (!link) return data({ view: null, done: false }, { status: 404 });
  const resubscribe = form.get("intent") === RESUBSCRIBE;
  if (!resubscribe && form.get(ONE_CLICK_NAME) !== ONE_CLICK_VALUE) throw data("Demande incomplète : utilisez le bouton de la page.", { status: 400 });
  await setEmailChoice(context.db, link.email, link.kind, resubscribe);
  return { view: (await viewOf(context, request)).view, done: true };
}

export const headers = formPageHeaders;

export const meta: Route.MetaFunction = () => [{ title: "Se désinscrire" }, { name: "robots", content: "noindex" }];

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const { view, done } = actionData ?? loaderData;
  const busy = useNavigation().state !== "idle";
  // The token travels in the query string: the buttons post it back.
  const { pathname, search } = useLocation();
  const action = `${pathname}${search}`;
  const kind = view ? OPTIONAL_EMAILS[view.kind] : null;
  return (
    <AuthCard
      title="Se désinscrire"
      description={
        <span className="inline-flex items-center gap-1.5">
          <MailX className="size-3.5" aria-hidden="true" /> {kind?.title ?? "E-mails de la boutique"}
        </span>
      }
      footer={<Link to="/account/notifications">Tous vos choix d'e-mails (compte client)</Link>}
    >
      {!view || !kind ? (
        <p role="alert" className="text-sm">
          Ce lien est invalide. Copiez-le en entier depuis l'e-mail reçu, ou gérez vos e-mails depuis votre compte.
        </p>
      ) : view.subscribed ? (
        <Form method="post" action={action} className="flex flex-col gap-4">
          {done ? (
            <p role="status" className="text-sm font-semibold">
              C'est noté : vous recevez de nouveau {kind.what} à {view.email}.
            </p>
          ) : null}
          <p className="text-sm">
            Ne plus recevoir {kind.what} à <strong className="font-semibold">{view.email}</strong> ? Les e-mails de vos commandes continuent d'arriver.
          </p>
          <input type="hidden" name={ONE_CLICK_NAME} value={ONE_CLICK_VALUE} />
          <Button type="submit" disabled={busy}>
            Me désinscrire
          </Button>
        </Form>
      ) : (
        <Form method="post" action={action} className="flex flex-col gap-4">
          <p role="status" className="text-sm font-semibold">
            {kind.unsubscribed} ({view.email})
          </p>
          <p className="text-sm">Vous avez changé d'avis ?</p>
          <input type="hidden" name="intent" value={RESUBSCRIBE} />
          <Button type="submit" variant="outline" disabled={busy}>
            Me réabonner
          </Button>
          <Link to="/catalog" className={buttonVariants({ variant: "ghost" })}>
            Retour au catalogue
          </Link>
        </Form>
      )}
    </AuthCard>
  );
}
