import { data, Form, useNavigation } from "react-router";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { PREORDER_CANCELLED_TEXT } from "~/domain/preorder-emails";
import { formPageHeaders } from "~/lib/http";
import { webhookDepsFrom } from "~/services/payment-webhooks.server";
import { cancelPreorder, orderOfCancelLink, type PreorderCancelView, preorderCancelSecret, preorderCancelView } from "~/services/preorder-release.server";
import type { Route } from "./+types/preorder-cancel";

/**
 * /precommande/annulation/:token, the link of the e-mail that announces a pre-order's new date:
 * the buyer cancels and is refunded at once, with no account (the signed, expiring token is the
 * proof). Opening the link cancels nothing (mail scanners open links): the button does. A forged
 * link gets a 403, an expired one a 410, as the buy-back offer's.
 */
type PageData = { view: PreorderCancelView | null; error: string | null; done: string | null };

export async function loader({ params, context }: Route.LoaderArgs) {
  context.markPersonal?.();
  const now = new Date();
  const link = orderOfCancelLink(preorderCancelSecret(context.dropSecret), params.token, now);
  if (!link.ok) return data<PageData>({ view: null, error: link.message, done: null }, { status: link.status });
  const view = await preorderCancelView(context.db, link.orderId, now);
  if (!view) return data<PageData>({ view: null, error: "Cette commande n'existe plus.", done: null }, { status: 410 });
  return { view, error: null, done: null } satisfies PageData;
}

export async function action({ params, context }: Route.ActionArgs) {
  context.markPersonal?.();
  const now = new Date();
  const link = orderOfCancelLink(preorderCancelSecret(context.dropSecret), params.token, now);
  if (!link.ok) return data<PageData>({ view: null, error: link.message, done: null }, { status: link.status });
  const result = await cancelPreorder(context.db, context.payments, { orderId: link.orderId, actorId: null }, webhookDepsFrom(context));
  const view = await preorderCancelView(context.db, link.orderId, now);
  if (!result.ok) return data<PageData>({ view, error: result.message, done: null }, { status: result.status });
  context.logger.info({ orderId: link.orderId, outcome: result.outcome }, "pre-order cancelled from the e-mail link");
  return { view, error: null, done: PREORDER_CANCELLED_TEXT } satisfies PageData;
}

export const headers = formPageHeaders;

export const meta: Route.MetaFunction = () => [{ title: "Annuler ma précommande" }, { name: "robots", content: "noindex" }];

export default function PreorderCancelPage({ loaderData, actionData }: Route.ComponentProps) {
  const { view, error, done } = actionData ?? loaderData;
  const busy = useNavigation().state !== "idle";
  return (
    <section className="mx-auto w-full max-w-2xl px-4 py-8 sm:py-12">
      <h1 className="text-2xl font-extrabold tracking-tight sm:text-3xl">Annuler ma précommande</h1>
      {error ? (
        <Alert tone="error" className="mt-6" title={view ? "Annulation impossible" : "Lien refusé"}>
          {error}
        </Alert>
      ) : null}
      {done ? (
        <Alert tone="success" className="mt-6" title="Précommande annulée">
          {done}
        </Alert>
      ) : null}
      {view ? (
        <>
          <p className="mt-4 text-muted-foreground">Commande {view.orderNumber}</p>
          {view.lines.length > 0 ? (
            <Form method="post" className="mt-6 flex flex-col gap-4 rounded-2xl border border-border bg-card p-5">
              <ul className="flex flex-col gap-3 text-sm">
                {view.lines.map((line, index) => (
                  <li key={index}>
                    <span className="font-semibold">
                      {line.units} × {line.name}
                    </span>
                    {line.note ? <span className="block text-muted-foreground">{line.note}</span> : null}
                  </li>
                ))}
              </ul>
              <p className="text-sm">Le prix de ces articles vous est remboursé aussitôt, avec une facture d'avoir.</p>
              <div>
                <Button type="submit" variant="destructive" disabled={busy}>
                  Annuler ma précommande et être remboursé
                </Button>
              </div>
            </Form>
          ) : !done && !error ? (
            <Alert tone="info" className="mt-6" title={view.cancelled ? "Précommande déjà annulée" : "Rien à annuler"}>
              {view.cancelled ? "Cette précommande est déjà annulée et remboursée." : "Cette commande n'a plus de précommande à annuler : la date de sortie est passée."}
            </Alert>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
