import { useEffect } from "react";
import { data } from "react-router";
import { ConfirmStep, DoneStep, LookupStep, RefusedStep, STEP_HEADING_ID, WithdrawalSteps } from "~/components/orders/withdrawal-flow";
import { PRIVATE_PAGE_CACHE_CONTROL, formPageHeaders } from "~/lib/http";
import { pageMeta, seoRoot } from "~/lib/seo";
import { getViewer, isSameOriginPost } from "~/services/session.server";
import { withdrawalDepsFrom, withdrawalPageView, withdrawalPost } from "~/services/withdrawal.server";
import type { Route } from "./+types/withdrawal";
import { readForm } from "~/lib/request-input.server";

/**
 * /retractation, the withdrawal function (Directive (EU) 2023/2673): a signed-in customer comes
 * from one of their orders (?commande=NUMBER) straight to its confirmation; a guest gives the
 * order number and its e-mail first. "Confirmer la rétractation" records it and e-mails the
 * acknowledgement with the date and time. Private: the page depends on who asks.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await getViewer(request, context);
  const number = new URL(request.url).searchParams.get("commande") ?? "";
  const view = await withdrawalPageView(context.db, viewer, number);
  return { view, orderPrefix: context.checkout.orderPrefix, signedIn: viewer !== null };
}

export async function action({ request, context }: Route.ActionArgs) {
  if (!isSameOriginPost(request, context.publicUrl)) throw data(null, { status: 403 });
  const form = Object.fromEntries(await readForm(request));
  const viewer = await getViewer(request, context);
  const result = await withdrawalPost(withdrawalDepsFrom(context), { form, viewer, clientIp: context.clientIp });
  if (result.created) {
    context.kickMail();
    context.logger.info({ order: result.view.step === "done" ? result.view.receipt.number : null }, "withdrawal: requested");
  }
  const headers = result.retryAfterMs ? { "Retry-After": String(Math.ceil(result.retryAfterMs / 1000)) } : undefined;
  return data(result.view, { status: result.status, headers });
}

export function headers(args: Route.HeadersArgs) {
  const headers = formPageHeaders(args);
  headers.set("Cache-Control", PRIVATE_PAGE_CACHE_CONTROL);
  return headers;
}

export const meta: Route.MetaFunction = ({ matches }) => {
  const root = seoRoot(matches);
  return pageMeta(root, {
    title: `Rétractation | ${root.shop.name}`,
    description: "Se rétracter d'une commande : votre numéro de commande et votre e-mail suffisent. Accusé de réception immédiat par e-mail.",
    path: "/retractation",
    noindex: true,
  });
};

export default function Withdrawal({ loaderData, actionData }: Route.ComponentProps) {
  const { orderPrefix, signedIn } = loaderData;
  const view = actionData ?? loaderData.view;

  // After each post, the new step's heading takes the focus: screen readers hear where they are.
  useEffect(() => {
    if (actionData) document.getElementById(STEP_HEADING_ID)?.focus();
  }, [actionData]);

  return (
    <div className="mx-auto max-w-2xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-extrabold tracking-tight">Se rétracter d'une commande</h1>
      <p className="mt-2 text-muted-foreground">
        Vous disposez de 14 jours à compter de la réception de vos articles pour vous rétracter, sans avoir à donner de motif. Votre demande est enregistrée
        immédiatement et confirmée par e-mail.
      </p>
      <div className="mt-6">
        <WithdrawalSteps step={view.step} />
      </div>
      <div className="mt-6">
        {view.step === "form" ? (
          <LookupStep view={view} orderPrefix={orderPrefix} signedIn={signedIn} />
        ) : view.step === "confirm" ? (
          <ConfirmStep view={view} />
        ) : view.step === "refused" ? (
          <RefusedStep view={view} />
        ) : (
          <DoneStep receipt={view.receipt} signedIn={signedIn} />
        )}
      </div>
    </div>
  );
}
