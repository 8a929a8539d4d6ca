import { ArrowLeft, Mail, PackageCheck, RotateCcw, Undo2 } from "lucide-react";
import { type ReactNode, useRef, useState } from "react";
import { data, Link, useFetcher } from "react-router";
import { type ActionToast, useActionToast } from "~/components/admin/use-action-toast";
import { OrderStatusBadge, OrderSummary } from "~/components/orders/order-summary";
import { formatParisDateTime } from "~/domain/paris-time";
import { Alert } from "~/components/ui/alert";
import { ConfirmDialog } from "~/components/ui/alert-dialog";
import { Badge } from "~/components/ui/badge";
import { Button, buttonVariants } from "~/components/ui/button";
import { Field, controlClass } from "~/components/ui/field";
import { FormField } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import type { OrderStatus, RefundReason } from "~/domain/catalog-values";
import { formatEuros } from "~/domain/money";
import type { TimelineEntry } from "~/domain/order-timeline";
import { CARRIER_IDS, CARRIER_LABELS, type CarrierId, PROVIDER_LABELS, availableActions, canDo, shipOrderSchema } from "~/domain/order-workflow";
import { OUTBOX_STATUS_LABELS, OUTBOX_STATUS_TONES } from "~/domain/outbox";
import { WITHDRAWAL_SOURCE_LABELS, refundDeadline, requestedLabel, withdrawnLineLabel } from "~/domain/withdrawal";
import { useFormValidation } from "~/lib/use-form-validation";
import { cn } from "~/lib/utils";
import { type AdminOrder, type OrderActionResult, cancelAndRefundOrder, getAdminOrder, refundPartOfAdminOrder, retryOrderRefund, shipOrder } from "~/services/admin-orders.server";
import { PartialRefundAction } from "~/components/admin/partial-refund-dialog";
import { useDialogAnswer } from "~/components/admin/use-dialog-answer";
import { OrderRefunds } from "~/components/orders/order-refunds";
import { ExternalAnchor, OrderTimeline } from "~/components/orders/order-timeline";
import { webhookDepsFrom } from "~/services/payment-webhooks.server";
import { refundAdminWithdrawal } from "~/services/withdrawal-refund.server";
import { WithdrawalReturnAction } from "~/components/admin/withdrawal-return-dialog";
import { requireAdmin } from "~/services/session.server";
import type { Route } from "./+types/order";
import { readForm } from "~/lib/request-input.server";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const order = await getAdminOrder(context.db, params.number);
  if (!order) throw data(null, { status: 404 });
  return order;
}

export type OrderActionAnswer = ActionToast & { fieldErrors?: Record<string, string | undefined> };

/** Ship, cancel and refund, retry a refund: each checked against the order's status on the server. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context, "api");
  const form = Object.fromEntries(await readForm(request));
  const deps = webhookDepsFrom(context);
  let result: OrderActionResult;
  if (form.intent === "ship") result = await shipOrder(context.db, params.number, form, admin.id, deps);
  else if (form.intent === "refund") result = await cancelAndRefundOrder(context.db, context.payments, params.number, admin.id, deps);
  else if (form.intent === "partial-refund") result = await refundPartOfAdminOrder(context.db, context.payments, params.number, form, admin.id, deps);
  else if (form.intent === "withdrawal-refund") result = await refundAdminWithdrawal(context.db, context.payments, params.number, form, admin.id, deps);
  else if (form.intent === "retry-refund") result = await retryOrderRefund(context.db, context.payments, params.number, admin.id, deps);
  else return data<OrderActionAnswer>({ ok: false, toast: { title: "Erreur", description: "Requête invalide." } }, { status: 400 });
  if (result.ok) context.kickMail();
  else if (result.status === 502) context.logger.warn({ order: params.number }, "admin: refund failed at the payment provider");
  const answer: OrderActionAnswer = { ok: result.ok, toast: { title: result.title, description: result.message }, ...(!result.ok && result.fieldErrors ? { fieldErrors: result.fieldErrors } : {}) };
  return data(answer, { status: result.status });
}

export const meta: Route.MetaFunction = ({ data: loaderData }) => [{ title: loaderData ? `Commande ${loaderData.order.number}` : "Commande introuvable" }];

const REFUND_REASON_LABELS: Record<RefundReason, string> = {
  late_payment: "Paiement arrivé après la fin de la réservation",
  seller_cancel: "Annulée par le vendeur",
  withdrawal: "Rétractation du client",
  drop_limit: "Limite par client de la sortie dépassée (même adresse de livraison)",
  preorder_shortage: "Précommande non servie : livraison du distributeur réduite",
};

/** One order for the seller: lines, customer, delivery, payment, shipment, history and actions. */
export default function AdminOrder({ loaderData }: Route.ComponentProps) {
  const { order, status, customer, payment, shipment, withdrawal, timeline, refunds, refundable } = loaderData;
  return (
    <section>
      <Link to="/admin/orders" className={buttonVariants({ variant: "ghost", size: "sm", className: "-ml-3 h-11" })}>
        <ArrowLeft aria-hidden="true" /> Toutes les commandes
      </Link>
      <div className="mt-2 flex flex-wrap items-start justify-between gap-4">
        <div>
          <div className="flex flex-wrap items-center gap-3">
            <h1 className="tabular text-2xl font-extrabold tracking-tight sm:text-3xl">Commande {order.number}</h1>
            <OrderStatusBadge status={status} />
          </div>
          <p className="mt-1 text-sm text-muted-foreground">
            Passée le {formatParisDateTime(order.createdAt)} · {formatEuros(order.totalCents)}
          </p>
        </div>
        <OrderActions number={order.number} status={status} refundable={refundable} provider={payment.provider} withdrawal={withdrawal} />
      </div>

      {withdrawal ? <WithdrawalNotice number={order.number} withdrawal={withdrawal} status={status} shippingCents={refundable.shippingCents + refundable.insuranceCents} /> : null}

      {status === "refund_pending" ? (
        <Alert tone="error" title="Remboursement en attente" className="mt-6">
          Le prestataire de paiement n'a pas encore remboursé cette commande. Un nouvel essai est fait automatiquement toutes les 5 minutes&nbsp;; vous pouvez aussi réessayer maintenant.
        </Alert>
      ) : null}

      {/* Phones: lines, then customer, payment and shipment, then the history; wide screens: side by side. */}
      <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem] lg:grid-rows-[auto_1fr]">
        <div className="min-w-0 lg:col-start-1">
          <OrderSummary order={order} />
          {refunds.length > 0 ? <OrderRefunds orderId={order.id} orderTotalCents={order.totalCents} refunds={refunds} /> : null}
        </div>
        <div className="flex flex-col gap-6 lg:col-start-2 lg:row-span-2 lg:row-start-1 lg:self-start">
          <Card title="Client">
            <Details
              rows={[
                ["Nom", customer.name ?? customer.accountName ?? "Non renseigné"],
                ["E-mail", customer.email ?? customer.accountEmail ?? "Non renseigné"],
                [
                  "Compte",
                  customer.userId ? (
                    <Link to={`/admin/users/${encodeURIComponent(customer.userId)}`} className="font-medium text-accent hover:underline">
                      {customer.accountName ?? "Voir le compte"}
                    </Link>
                  ) : (
                    "Commande sans compte (invité)"
                  ),
                ],
              ]}
            />
          </Card>
          <Card title="Paiement">
            <Details
              rows={[
                ["Prestataire", PROVIDER_LABELS[payment.provider] ?? payment.provider],
                ["Référence du paiement", payment.reference ? <Code>{payment.reference}</Code> : "—"],
                ...(payment.refundReason ? [["Motif du remboursement", REFUND_REASON_LABELS[payment.refundReason]] as [string, ReactNode]] : []),
                ...(payment.refundReference ? [["Référence du remboursement", <Code key="r">{payment.refundReference}</Code>] as [string, ReactNode]] : []),
                ...(payment.refundedAt ? [["Remboursée le", formatParisDateTime(payment.refundedAt)] as [string, ReactNode]] : []),
              ]}
            />
          </Card>
          <Card title="Expédition">
            {shipment.shippedAt ? (
              <Details
                rows={[
                  ["Transporteur", shipment.carrierLabel ?? "—"],
                  ["Numéro de suivi", shipment.trackingNumber ? <Code>{shipment.trackingNumber}</Code> : "—"],
                  ["Expédiée le", formatParisDateTime(shipment.shippedAt)],
                  ...(shipment.trackingUrl ? [["Suivi", <ExternalAnchor key="t" href={shipment.trackingUrl}>Suivre le colis</ExternalAnchor>] as [string, ReactNode]] : []),
                ]}
              />
            ) : (
              <p className="text-sm text-muted-foreground">{canDo("ship", status, { withdrawn: holdsOrder(withdrawal) }) ? "À expédier." : "Non expédiée."}</p>
            )}
          </Card>
        </div>
        <div className="min-w-0 lg:col-start-1 lg:self-start">
          <OrderTimeline entries={timeline} extra={(entry) => <TimelineEmails entry={entry} />} />
        </div>
      </div>
    </section>
  );
}

const WITHDRAWAL_TODO: Partial<Record<OrderStatus, string>> = {
  paid: "La commande n'est pas expédiée : ne l'expédiez pas, annulez-la et remboursez-la.",
  shipped: "Le client vous renvoie les articles : vous pouvez attendre de les recevoir, ou la preuve de leur envoi, pour le rembourser.",
};

/** A withdrawal not refunded yet holds the order (no shipping); once refunded, what is left of it may ship. */
const holdsOrder = (withdrawal: AdminOrder["withdrawal"]) => withdrawal !== null && withdrawal.refund === null;

/** Whether the seller refunds the withdrawal itself (its articles): a shipped order, or a paid one withdrawn in part. */
const refundsWithdrawal = (withdrawal: AdminOrder["withdrawal"], status: OrderStatus) =>
  withdrawal !== null && withdrawal.refund === null && (status === "shipped" || (status === "paid" && !withdrawal.whole));

/** The customer withdrew: when, how, which articles, and what the seller must do (refund within 14 days of the request). */
function WithdrawalNotice({ number, withdrawal, status, shippingCents }: { number: string; withdrawal: NonNullable<AdminOrder["withdrawal"]>; status: OrderStatus; shippingCents: number }) {
  const refunded = withdrawal.refund?.status === "refunded" || (withdrawal.refund === null && status === "refunded");
  const todo = withdrawal.refund ? null : status === "paid" && !withdrawal.whole ? "La commande n'est pas expédiée : n'expédiez pas ces articles et remboursez-les ; le reste pourra partir ensuite." : WITHDRAWAL_TODO[status];
  const deadline = refundDeadline(withdrawal.requestedAt);
  return (
    <Alert tone={refunded ? "success" : "info"} title={requestedLabel(withdrawal.requestedAt)} className="mt-6 border-2">
      <p>
        Le client ({withdrawal.email}) s'est rétracté {WITHDRAWAL_SOURCE_LABELS[withdrawal.source]} et a reçu un accusé de réception par e-mail.
      </p>
      {withdrawal.customerName ? (
        <p className="mt-1 [overflow-wrap:anywhere]">
          Nom indiqué dans la rétractation&nbsp;: <span className="font-semibold text-foreground">{withdrawal.customerName}</span>
        </p>
      ) : null}
      <p className="mt-2 font-medium text-foreground">{withdrawal.whole ? "Articles retirés : toute la commande" : "Articles retirés (une partie de la commande)"}</p>
      <ul className="mt-1 list-disc pl-5" aria-label="Articles de la rétractation">
        {withdrawal.lines.map((line) => (
          <li key={line.orderItemId} className="[overflow-wrap:anywhere]">
            {withdrawnLineLabel(line)}
          </li>
        ))}
      </ul>
      {withdrawal.receivedAt ? <p className="mt-2">Retour reçu le {formatParisDateTime(withdrawal.receivedAt)}.</p> : null}
      {withdrawal.refund ? (
        <p className="mt-1 font-medium text-foreground">
          {withdrawal.refund.status === "refunded"
            ? `Remboursement fait${withdrawal.refund.refundedAt ? ` le ${formatParisDateTime(withdrawal.refund.refundedAt)}` : ""} : ${formatEuros(withdrawal.refund.amountCents)} (à faire avant le ${deadline}).`
            : `Remboursement de ${formatEuros(withdrawal.refund.amountCents)} en attente du prestataire de paiement (à faire avant le ${deadline}).`}
        </p>
      ) : refunded ? (
        <p className="mt-1 font-medium text-foreground">Commande remboursée.</p>
      ) : todo ? (
        <p className="mt-1 font-medium text-foreground">
          {todo} Remboursement à faire au plus tard le {deadline}.
        </p>
      ) : null}
      {refundsWithdrawal(withdrawal, status) ? (
        <div className="mt-3">
          <WithdrawalReturnAction number={number} withdrawal={withdrawal} shipped={status === "shipped"} shippingCents={shippingCents} />
        </div>
      ) : null}
    </Alert>
  );
}

function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="rounded-2xl border border-border bg-card p-5">
      <h2 className="text-lg font-bold">{title}</h2>
      <div className="mt-3">{children}</div>
    </section>
  );
}

function Details({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="flex flex-col gap-2 text-sm">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt className="text-muted-foreground">{label}</dt>
          <dd className="font-medium [overflow-wrap:anywhere]">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Code({ children }: { children: ReactNode }) {
  return <code className="tabular rounded bg-muted px-1.5 py-0.5 text-xs">{children}</code>;
}

/** The e-mails a step of the history queued, each opening its copy in the outbox. */
function TimelineEmails({ entry }: { entry: TimelineEntry }) {
  if (entry.emails.length === 0) return null;
  return (
    <ul className="mt-2 flex flex-col gap-2">
      {entry.emails.map((email) => (
        <li key={email.id} className="flex items-start gap-2">
          <Mail className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          <span className="min-w-0 [overflow-wrap:anywhere]">
            <Link to={`/admin/emails/${email.id}`} className="font-medium text-accent hover:underline">
              {email.subject}
            </Link>{" "}
            <span className="text-muted-foreground">à {email.to}</span>{" "}
            <Badge tone={OUTBOX_STATUS_TONES[email.status]}>{OUTBOX_STATUS_LABELS[email.status]}</Badge>
          </span>
        </li>
      ))}
    </ul>
  );
}

// ---------------------------------------------------------------------------------------------
// Actions

function OrderActions({ number, status, refundable, provider, withdrawal }: { number: string; status: OrderStatus; refundable: AdminOrder["refundable"]; provider: string; withdrawal: AdminOrder["withdrawal"] }) {
  // A paid order withdrawn in part is refunded from its withdrawal's notice, not cancelled whole.
  const actions = availableActions(status, { withdrawn: holdsOrder(withdrawal) }).filter((action) => !(action === "cancelRefund" && refundsWithdrawal(withdrawal, status)));
  // Part of a paid or shipped order, while something is left to give back.
  const partly = (status === "paid" || status === "shipped") && refundable.totalCents > 0;
  if (actions.length === 0 && !partly) return null;
  return (
    <div className="flex flex-wrap gap-2">
      {actions.includes("ship") ? <ShipAction number={number} /> : null}
      {partly ? <PartialRefundAction number={number} refundable={refundable} /> : null}
      {actions.includes("cancelRefund") ? <RefundAction number={number} totalCents={refundable.totalCents} provider={provider} /> : null}
      {actions.includes("retryRefund") ? <RetryRefundAction /> : null}
    </div>
  );
}

function ShipAction({ number }: { number: string }) {
  const [open, setOpen] = useState(false);
  const [carrier, setCarrier] = useState<CarrierId | "">("");
  const fetcher = useFetcher<OrderActionAnswer>();
  const form = useRef<HTMLFormElement>(null);
  const { errors, onSubmit, onChange } = useFormValidation(shipOrderSchema, fetcher.data?.fieldErrors);
  useDialogAnswer(fetcher.data, setOpen);
  const busy = fetcher.state !== "idle";
  return (
    <>
      <Button onClick={() => setOpen(true)}>
        <PackageCheck aria-hidden="true" /> Marquer comme expédiée
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title="Marquer comme expédiée"
        description={`Commande ${number}\u00a0: le client recevra un e-mail avec le transporteur, le numéro de suivi et le lien pour suivre son colis.`}
        confirmLabel={busy ? "Enregistrement..." : "Marquer comme expédiée"}
        confirmVariant="primary"
        busy={busy}
        onConfirm={() => form.current?.requestSubmit()}
      >
        <fetcher.Form ref={form} method="post" noValidate onSubmit={onSubmit} onChange={onChange} className="mt-4 flex flex-col gap-4">
          <input type="hidden" name="intent" value="ship" />
          <Field label="Transporteur" error={errors.carrier} required>
            {(props) => (
              <select {...props} name="carrier" value={carrier} onChange={(event) => setCarrier(event.target.value as CarrierId | "")} className={cn(controlClass, "h-11")}>
                <option value="">Choisir un transporteur</option>
                {CARRIER_IDS.map((id) => (
                  <option key={id} value={id}>
                    {CARRIER_LABELS[id]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Numéro de suivi" error={errors.trackingNumber} hint={"Lettres, chiffres et tirets\u00a0; les espaces sont retirés."} required>
            {(props) => <Input {...props} name="trackingNumber" autoComplete="off" spellCheck={false} />}
          </Field>
          {carrier === "autre" ? (
            <FormField label="Lien de suivi (facultatif)" name="trackingUrl" type="url" inputMode="url" placeholder="https://" error={errors.trackingUrl} />
          ) : null}
        </fetcher.Form>
      </ConfirmDialog>
    </>
  );
}

function RefundAction({ number, totalCents, provider }: { number: string; totalCents: number; provider: string }) {
  const [open, setOpen] = useState(false);
  const fetcher = useFetcher<OrderActionAnswer>();
  useDialogAnswer(fetcher.data, setOpen);
  const busy = fetcher.state !== "idle";
  return (
    <>
      <Button variant="outline" className="text-destructive hover:text-destructive" onClick={() => setOpen(true)}>
        <Undo2 aria-hidden="true" /> Annuler et rembourser
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={"Annuler et rembourser\u00a0?"}
        description={`La commande ${number} sera annulée\u00a0: ${formatEuros(totalCents)} seront remboursés au client via ${PROVIDER_LABELS[provider] ?? provider}, les articles remis en stock, et le client prévenu par e-mail. Cette action est irréversible.`}
        cancelLabel="Retour"
        confirmLabel={busy ? "Remboursement..." : "Annuler et rembourser"}
        busy={busy}
        onConfirm={() => void fetcher.submit({ intent: "refund" }, { method: "post" })}
      />
    </>
  );
}

function RetryRefundAction() {
  const fetcher = useFetcher<OrderActionAnswer>();
  useActionToast(fetcher.data);
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value="retry-refund" />
      <Button type="submit" variant="outline" disabled={fetcher.state !== "idle"}>
        <RotateCcw aria-hidden="true" /> {fetcher.state !== "idle" ? "Remboursement..." : "Réessayer le remboursement"}
      </Button>
    </fetcher.Form>
  );
}
