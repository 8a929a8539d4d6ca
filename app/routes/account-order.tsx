import { ArrowLeft, CreditCard, Truck } from "lucide-react";
import type { ReactNode } from "react";
import { data, Link } from "react-router";
import { type ActionToast, useActionToast } from "~/components/admin/use-action-toast";
import { OrderOutcomeNotice } from "~/components/orders/order-outcome-notice";
import { OrderStatusBadge, OrderSummary } from "~/components/orders/order-summary";
import { orderOutcome } from "~/domain/order-outcome";
import { formatParisDateTime } from "~/domain/paris-time";
import { CANCEL_PAYMENT_INTENT, PendingPayment } from "~/components/orders/pending-payment";
import { WithdrawalAction } from "~/components/orders/withdrawal-status";
import { PREORDER_CANCEL_INTENT, PreorderCancelAction } from "~/components/orders/preorder-cancel-action";
import { PREORDER_CANCELLED_TEXT } from "~/domain/preorder-emails";
import { webhookDepsFrom } from "~/services/payment-webhooks.server";
import { cancelPreorder, preorderCancelView } from "~/services/preorder-release.server";
import { buttonVariants } from "~/components/ui/button";
import { withdrawalState } from "~/domain/withdrawal";
import { PRIVATE_PAGE_CACHE_CONTROL } from "~/lib/http";
import { readForm } from "~/lib/request-input.server";
import { pageMeta, seoRoot } from "~/lib/seo";
import { cancelCustomerCheckout, pendingPaymentOf } from "~/services/checkout.server";
import { getCustomerOrder } from "~/services/orders.server";
import { getCustomerOrderDetail } from "~/services/customer-orders.server";
import { OrderRefunds } from "~/components/orders/order-refunds";
import { ExternalAnchor, OrderTimeline } from "~/components/orders/order-timeline";
import { formatEuros } from "~/domain/money";
import { requireViewer } from "~/services/session.server";
import { customerWithdrawalDate } from "~/services/withdrawal.server";
import type { Route } from "./+types/account-order";

/**
 * One of the signed-in customer's orders, all of it: status and timeline, tracking, documents,
 * withdrawal, refunds, store credit used, delivery. Anybody else's number answers 404.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const viewer = await requireViewer(request, context);
  const detail = await getCustomerOrderDetail(context.db, viewer.id, params.number);
  if (!detail) throw data(null, { status: 404 });
  const { order } = detail;
  // A paid pre-order can be cancelled until its release (decision 062).
  const preorderCancel = order.status === "paid" ? await preorderCancelView(context.db, order.id, new Date()) : null;
  return {
    ...detail,
    preorderLines: preorderCancel?.lines ?? [],
    withdrawalRequestedAt: await customerWithdrawalDate(context.db, viewer.id, order.number),
    pendingPayment: order.status === "pending_payment" ? await pendingPaymentView(context.db, viewer.id, order.number) : null,
  };
}

/** What PendingPayment shows: where to pay and until when (not the order's internal id). */
async function pendingPaymentView(db: Route.LoaderArgs["context"]["db"], userId: string, number: string) {
  const pending = await pendingPaymentOf(db, userId, number);
  return pending && { paymentUrl: pending.paymentUrl, reservedUntil: pending.reservedUntil };
}

/** The customer cancels their unpaid order (PendingPayment's form). */
export async function action({ request, context, params }: Route.ActionArgs) {
  const viewer = await requireViewer(request, context);
  // Someone else's order, or none: 404, as the page answers.
  const order = await getCustomerOrder(context.db, viewer.id, params.number);
  if (!order) throw data(null, { status: 404 });
  const form = await readForm(request);
  if (form.get("intent") === PREORDER_CANCEL_INTENT) {
    const result = await cancelPreorder(context.db, context.payments, { orderId: order.id, actorId: viewer.id }, webhookDepsFrom(context));
    if (!result.ok) return data<ActionToast>({ ok: false, toast: { title: "Précommande non annulée", description: result.message } }, { status: result.status });
    return data<ActionToast>({ ok: true, toast: { title: "Précommande annulée", description: PREORDER_CANCELLED_TEXT } });
  }
  if (form.get("intent") !== CANCEL_PAYMENT_INTENT) {
    return data<ActionToast>({ ok: false, toast: { title: "Erreur", description: "Requête invalide." } }, { status: 400 });
  }
  if (await cancelCustomerCheckout(context.db, context.payments, viewer.id, params.number)) {
    return data<ActionToast>({ ok: true, toast: { title: "Commande annulée", description: "Vos articles sont remis en vente." } });
  }
  return data<ActionToast>({ ok: false, toast: { title: "Commande non annulée", description: "Elle a été payée, ou sa réservation a pris fin, entre-temps." } }, { status: 409 });
}

export function headers() {
  return { "Cache-Control": PRIVATE_PAGE_CACHE_CONTROL };
}

export const meta: Route.MetaFunction = ({ matches, data: loaderData, params }) => {
  const root = seoRoot(matches);
  const title = loaderData ? `Commande ${loaderData.order.number}` : "Commande";
  return pageMeta(root, { title: `${title} | ${root.shop.name}`, description: "Le détail de votre commande.", path: `/account/orders/${encodeURIComponent(params.number)}`, noindex: true });
};

export default function AccountOrder({ loaderData, actionData }: Route.ComponentProps) {
  const { order, shipment, refunds, timeline, preorderLines, withdrawalRequestedAt, pendingPayment } = loaderData;
  useActionToast(actionData);
  const withdrawal = withdrawalState(order.status, withdrawalRequestedAt);
  const outcome = orderOutcome(order);
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
      <Link to="/account/orders" className={buttonVariants({ variant: "ghost", className: "-ml-3" })}>
        <ArrowLeft aria-hidden="true" /> Mes commandes
      </Link>
      <div className="mt-2 flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="tabular text-3xl font-extrabold tracking-tight">Commande {order.number}</h1>
          <p className="mt-1 text-muted-foreground">
            Passée le {formatParisDateTime(order.createdAt)}
            {order.paidAt ? <span className="block text-sm">Payée le {formatParisDateTime(order.paidAt)}</span> : null}
          </p>
        </div>
        <OrderStatusBadge status={order.status} />
      </div>
      {outcome.tone === "refused" || outcome.tone === "ended" ? <OrderOutcomeNotice outcome={outcome} /> : null}
      {pendingPayment ? <PendingPayment {...pendingPayment} /> : null}
      {preorderLines.length > 0 ? <PreorderCancelAction lines={preorderLines} /> : null}
      {withdrawal.kind !== "unavailable" ? (
        <section aria-labelledby="withdrawal-title" className="mt-6 flex flex-col gap-3 rounded-2xl border border-border bg-card p-5 sm:flex-row sm:items-center sm:justify-between">
          <div>
            <h2 id="withdrawal-title" className="font-bold">
              Droit de rétractation
            </h2>
            <p className="mt-1 text-sm text-muted-foreground">
              {withdrawal.kind === "requested"
                ? "Votre demande est enregistrée et un accusé de réception vous a été envoyé par e-mail."
                : "Vous pouvez vous rétracter dans les 14 jours suivant la réception de vos articles, sans donner de motif."}
            </p>
          </div>
          <WithdrawalAction number={order.number} status={order.status} requestedAt={withdrawalRequestedAt} className="shrink-0" />
        </section>
      ) : null}
      {shipment.shippedAt ? (
        <section aria-labelledby="shipment-title" className="mt-6 rounded-2xl border border-border bg-card p-5 text-sm">
          <h2 id="shipment-title" className="flex items-center gap-2 text-lg font-bold">
            <Truck className="size-5" aria-hidden="true" /> Expédition
          </h2>
          <dl className="mt-3 grid gap-x-6 gap-y-2 sm:grid-cols-3">
            <Detail label="Expédiée le">{formatParisDateTime(shipment.shippedAt)}</Detail>
            {shipment.carrierLabel ? <Detail label="Transporteur">{shipment.carrierLabel}</Detail> : null}
            {shipment.trackingNumber ? <Detail label="Numéro de suivi">{shipment.trackingNumber}</Detail> : null}
          </dl>
          {shipment.trackingUrl ? <ExternalAnchor href={shipment.trackingUrl}>Suivre le colis</ExternalAnchor> : null}
        </section>
      ) : null}
      <div className="mt-6">
        <OrderSummary order={order} />
      </div>
      {order.storeCreditCents ? (
        <section aria-labelledby="payment-title" className="mt-6 rounded-2xl border border-border bg-card p-5 text-sm">
          <h2 id="payment-title" className="flex items-center gap-2 text-lg font-bold">
            <CreditCard className="size-5" aria-hidden="true" /> Paiement
          </h2>
          <dl className="mt-3 grid gap-x-6 gap-y-2 sm:grid-cols-2">
            <Detail label="Payé avec votre avoir">{formatEuros(order.storeCreditCents)}</Detail>
            {order.totalCents > order.storeCreditCents ? <Detail label="Payé par carte">{formatEuros(order.totalCents - order.storeCreditCents)}</Detail> : null}
          </dl>
        </section>
      ) : null}
      {refunds.length > 0 ? <OrderRefunds orderId={order.id} orderTotalCents={order.totalCents} refunds={refunds} /> : null}
      <div className="mt-6">
        <OrderTimeline entries={timeline} title="Suivi de la commande" />
      </div>
    </div>
  );
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="tabular font-medium [overflow-wrap:anywhere]">{children}</dd>
    </div>
  );
}
