import { type SQL, and, count, eq, ilike, inArray, or, sql } from "drizzle-orm";
import { orders, outboxEmails, users, withdrawalRequests } from "~/db/schema";
import type { Db, Tx } from "~/db/types";
import { fieldErrors } from "~/domain/auth-forms";
import { CANCELLATION_REFUND_REASONS, type OrderStatus, type RefundReason } from "~/domain/catalog-values";
import { ORDER_PAGE_SIZE, type AdminOrderQuery } from "~/domain/admin-order-list";
import { orderShippedEmail } from "~/domain/order-emails";
import { type TimelineEntry, buildTimeline, emailIdsOf } from "~/domain/order-timeline";
import type { OrderView } from "~/domain/order-view";
import {
  ORDER_NOT_FOUND,
  type OrderAction,
  REFUND_PROVIDER_FAILED,
  carrierLabel,
  otherProviderMessage,
  refusalMessage,
  shipOrderSchema,
  shipmentOf,
} from "~/domain/order-workflow";
import { escapeLike } from "~/domain/search";
import { formatEuros } from "~/domain/money";
import { queueEmail } from "./mail.server";
import { type OrderListPage, type OrderListRow, type ShipmentView, getOrderView, listOrderPage, orderEventsOf, recordOrderEvent, shipmentViewOf, timelineOrderOf, toOrderViews } from "./orders.server";
import { type RefundView, refundView } from "~/domain/refund-view";
import type { WebhookDeps } from "./payment-webhooks.server";
import type { PaymentProvider } from "./payments/types";
import { completeRefund } from "./refunds.server";
import { priorRefunds, refundPartOfOrder, refundableOrder, returnUnrefundedUnits } from "./partial-refunds.server";
import { refundableRest } from "~/domain/partial-refund";
import { partialRefundFormSchema, refundRequestOf } from "~/domain/partial-refund-form";
import { type OrderWithdrawal, getOrderWithdrawal } from "./withdrawal.server";

/**
 * The seller's orders: the list (search, status, pages in SQL), one order with its timeline,
 * and the actions "Marquer comme expédiée", "Annuler et rembourser" and a refund's retry. Each
 * action claims the order with a conditional UPDATE … WHERE status = <expected> RETURNING, in one
 * transaction with what it causes (stock, timeline, e-mail): two clicks act once.
 */

/** SQL twin of canDo's withdrawn rule (domain/order-workflow): a withdrawn order is not to ship. */
// A withdrawal not yet refunded holds the order; once its articles are refunded (a part of a paid order), the rest may ship.
const notWithdrawn = sql`not exists (select 1 from ${withdrawalRequests} where ${withdrawalRequests.orderId} = ${orders.id} and ${withdrawalRequests.refundId} is null)`;

/** Paid orders waiting to be shipped (the sidebar's count). */
export async function countOrdersToShip(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(orders).where(and(eq(orders.status, "paid"), notWithdrawn));
  return row?.n ?? 0;
}

// ---------------------------------------------------------------------------------------------
// The list

export type AdminOrderRow = OrderListRow;

export type AdminOrderPage = OrderListPage & { toShip: number };

function orderFilter(query: AdminOrderQuery): SQL | undefined {
  const pattern = query.q ? `%${escapeLike(query.q)}%` : null;
  return and(
    pattern
      ? or(ilike(orders.number, pattern), ilike(orders.customerEmail, pattern), ilike(orders.customerName, pattern), ilike(users.name, pattern), ilike(users.email, pattern))
      : undefined,
    query.status ? eq(orders.status, query.status) : undefined,
  );
}

/** Newest first, 20 a page; a page past the end shows the last one. */
export async function listAdminOrders(db: Db, query: AdminOrderQuery): Promise<AdminOrderPage> {
  const toShip = countOrdersToShip(db);
  const list = await listOrderPage(db, orderFilter(query), query.page, ORDER_PAGE_SIZE);
  return { ...list, toShip: await toShip };
}

// ---------------------------------------------------------------------------------------------
// One order

export type AdminOrder = {
  order: OrderView;
  status: OrderStatus;
  customer: { name: string | null; email: string | null; userId: string | null; accountName: string | null; accountEmail: string | null };
  payment: { provider: string; reference: string | null; refundReference: string | null; refundReason: RefundReason | null; refundedAt: string | null };
  shipment: ShipmentView;
  /** The customer's withdrawal, if they asked (shown at the top of the page). */
  withdrawal: OrderWithdrawal | null;
  timeline: TimelineEntry[];
  /** Each refund, whole or partial, oldest first. */
  refunds: AdminRefund[];
  /** What is left to refund: per article its units, the delivery, the signature delivery, the money. */
  refundable: { lines: { id: string; name: string; quantity: number; left: number; unitPriceCents: number }[]; shippingCents: number; insuranceCents: number; totalCents: number };
};

export type AdminRefund = RefundView & { lastError: string | null };

const iso = (date: Date | null) => date?.toISOString() ?? null;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An order by its number with everything the order page shows; null when there is none. */
export async function getAdminOrder(db: Db, number: string): Promise<AdminOrder | null> {
  if (number.length > 40) return null;
  const [found] = await db
    .select({ order: orders, accountName: users.name, accountEmail: users.email })
    .from(orders)
    .leftJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.number, number));
  if (!found) return null;
  const { order: row } = found;
  const [[view], withdrawal, events] = await Promise.all([toOrderViews(db, [row]), getOrderWithdrawal(db, row.id), orderEventsOf(db, row.id)]);
  const emailIds = events.flatMap((event) => emailIdsOf(event.details)).filter((id) => UUID.test(id));
  const emails =
    emailIds.length > 0
      ? await db.select({ id: outboxEmails.id, subject: outboxEmails.subject, to: outboxEmails.to, status: outboxEmails.status }).from(outboxEmails).where(inArray(outboxEmails.id, emailIds))
      : [];
  const timeline = buildTimeline(timelineOrderOf(row), events, emails);
  const [refundable, prior] = await Promise.all([refundableOrder(db, row), priorRefunds(db, row.id)]);
  const rest = refundableRest(refundable, prior);
  return {
    refunds: prior.map((refund) => ({ ...refundView(refund, { restockNotes: true }), lastError: refund.lastError })),
    refundable: {
      lines: refundable.lines.map((line) => ({ id: line.orderItemId, name: line.name, quantity: line.quantity, left: rest.units.get(line.orderItemId) ?? 0, unitPriceCents: line.unitPriceCents })),
      shippingCents: rest.shippingCents,
      insuranceCents: rest.insuranceCents,
      totalCents: rest.totalCents,
    },
    order: view!,
    status: row.status,
    customer: { name: row.customerName, email: row.customerEmail, userId: row.userId, accountName: found.accountName, accountEmail: found.accountEmail },
    payment: { provider: row.paymentProvider, reference: row.paymentReference, refundReference: row.refundReference, refundReason: row.refundReason, refundedAt: iso(row.refundedAt) },
    shipment: shipmentViewOf(row),
    withdrawal,
    timeline,
  };
}

// ---------------------------------------------------------------------------------------------
// Actions

export type OrderActionResult =
  | { ok: true; status: 200; title: string; message: string }
  | { ok: false; status: 400 | 404 | 409 | 502; title: string; message: string; fieldErrors?: Record<string, string | undefined> };

export type OrderActionDeps = WebhookDeps;

/** The answer when the claim found nothing: no such order (404), or its status forbids it (409). */
async function refused(db: Db | Tx, number: string, action: OrderAction): Promise<OrderActionResult> {
  const [current] = await db.select({ id: orders.id, status: orders.status }).from(orders).where(eq(orders.number, number));
  if (!current) return { ok: false, status: 404, title: "Commande introuvable", message: ORDER_NOT_FOUND };
  const withdrawn = action === "ship" && current.status === "paid" && (await getOrderWithdrawal(db, current.id)) !== null;
  return { ok: false, status: 409, title: "Action impossible", message: refusalMessage(action, current.status, { withdrawn }) };
}

/**
 * "Marquer comme expédiée": from paid only. In one transaction the order turns shipped with its
 * carrier, tracking number and link, the timeline records who did it, and the customer's e-mail
 * with the tracking number is queued. A second shipment finds no paid order: 409, nothing sent.
 */
export async function shipOrder(db: Db, number: string, form: unknown, actorId: string, deps: OrderActionDeps): Promise<OrderActionResult> {
  const parsed = shipOrderSchema.safeParse(form);
  if (!parsed.success) {
    return { ok: false, status: 400, title: "Expédition non enregistrée", message: "Vérifiez le transporteur et le numéro de suivi.", fieldErrors: fieldErrors(parsed.error) };
  }
  const shipment = shipmentOf(parsed.data);
  const now = deps.now?.() ?? new Date();
  return db.transaction(async (tx): Promise<OrderActionResult> => {
    const [claimed] = await tx
      .update(orders)
      .set({ status: "shipped", ...shipment, shippedAt: now, updatedAt: now })
      .where(and(eq(orders.number, number), eq(orders.status, "paid"), notWithdrawn))
      .returning({ id: orders.id, userId: orders.userId });
    if (!claimed) return refused(tx, number, "ship");
    const view = (await getOrderView(tx, claimed.id))!;
    const label = carrierLabel(shipment.carrier)!;
    const emailIds: string[] = [];
    if (view.customerEmail) {
      const orderUrl = claimed.userId ? `${deps.shop.publicUrl}/account/orders/${encodeURIComponent(view.number)}` : null;
      const content = orderShippedEmail({ shop: deps.shop, order: view, shipment: { ...shipment, carrierLabel: label }, orderUrl });
      emailIds.push((await queueEmail(tx, { to: view.customerEmail, kind: "order-shipped", content })).id);
    }
    await recordOrderEvent(tx, { orderId: claimed.id, type: "shipped", details: { ...shipment, emailIds }, actorId, at: now });
    return {
      ok: true,
      status: 200,
      title: "Commande expédiée",
      message: view.customerEmail
        ? `Le numéro de suivi ${shipment.trackingNumber} (${label}) part par e-mail à ${view.customerEmail}.`
        : `Aucune adresse e-mail pour ce client\u00a0: transmettez-lui le numéro de suivi ${shipment.trackingNumber} vous-même.`,
    };
  });
}

function refundAnswer(outcome: Awaited<ReturnType<typeof completeRefund>>, totalCents: number, restocked: boolean): OrderActionResult {
  if (outcome.outcome === "failed") return { ok: false, status: 502, title: "Remboursement en attente", message: REFUND_PROVIDER_FAILED };
  const restock = restocked ? ", articles remis en stock" : "";
  return { ok: true, status: 200, title: "Commande remboursée", message: `${formatEuros(totalCents)} remboursés au client${restock}. Il a été prévenu par e-mail.` };
}

/**
 * "Annuler et rembourser": from paid only. One transaction claims the order (paid →
 * refund_pending, refund_reason seller_cancel, or withdrawal when the customer withdrew from
 * it: their e-mail then acknowledges their withdrawal, not a cancellation by the shop), puts
 * its units back and records the cancellation; then the provider refunds it (services/refunds.server.ts). If the provider
 * fails, the order stays refund_pending: the sweeper, or the seller's retry, finishes it.
 */
export async function cancelAndRefundOrder(db: Db, provider: PaymentProvider, number: string, actorId: string, deps: OrderActionDeps): Promise<OrderActionResult> {
  const [current] = await db.select({ status: orders.status, provider: orders.paymentProvider }).from(orders).where(eq(orders.number, number));
  if (current?.status === "paid" && current.provider !== provider.name) {
    return { ok: false, status: 409, title: "Action impossible", message: otherProviderMessage(current.provider) };
  }
  const now = deps.now?.() ?? new Date();
  const claimed = await db.transaction(async (tx) => {
    const withdrawn = sql<boolean>`exists (select 1 from ${withdrawalRequests} where ${withdrawalRequests.orderId} = ${orders.id})`;
    const [order] = await tx
      .update(orders)
      .set({ status: "refund_pending", refundReason: sql`case when ${withdrawn} then 'withdrawal' else 'seller_cancel' end`, updatedAt: now })
      .where(and(eq(orders.number, number), eq(orders.status, "paid")))
      .returning({ id: orders.id, totalCents: orders.totalCents, reason: orders.refundReason });
    if (!order) return null;
    await returnUnrefundedUnits(tx, order.id, now);
    await recordOrderEvent(tx, { orderId: order.id, type: "cancelled", details: { reason: order.reason }, actorId, at: now });
    return order;
  });
  if (!claimed) return refused(db, number, "cancelRefund");
  return refundAnswer(await completeRefund(db, provider, claimed.id, deps, { actorId }), claimed.totalCents, true);
}

/**
 * "Rembourser une partie": the form checked by its schema, the order by its number and provider;
 * then services/partial-refunds.server.ts prices it, refuses what is not left, refunds it.
 */
export async function refundPartOfAdminOrder(db: Db, provider: PaymentProvider, number: string, form: unknown, actorId: string, deps: OrderActionDeps): Promise<OrderActionResult> {
  const parsed = partialRefundFormSchema.safeParse(form);
  if (!parsed.success) {
    return { ok: false, status: 400, title: "Remboursement non effectué", message: "Vérifiez les champs signalés.", fieldErrors: fieldErrors(parsed.error) };
  }
  const [order] = await db.select({ id: orders.id, provider: orders.paymentProvider }).from(orders).where(eq(orders.number, number));
  if (!order) return { ok: false, status: 404, title: "Commande introuvable", message: ORDER_NOT_FOUND };
  if (order.provider !== provider.name) return { ok: false, status: 409, title: "Action impossible", message: otherProviderMessage(order.provider) };
  const { requestKey, request } = refundRequestOf(parsed.data);
  const result = await refundPartOfOrder(db, provider, { orderId: order.id, requestKey, request, actorId }, deps);
  if (!result.ok) {
    if (result.status === 502) return { ok: false, status: 502, title: "Remboursement en attente", message: REFUND_PROVIDER_FAILED };
    return { ok: false, status: result.status, title: "Remboursement non effectué", message: result.message, fieldErrors: { form: result.message } };
  }
  const note = result.refund.creditNoteNumber ? ` Avoir ${result.refund.creditNoteNumber}.` : "";
  return {
    ok: true,
    status: 200,
    title: result.closesOrder ? "Commande remboursée" : "Remboursement effectué",
    message: `${formatEuros(result.refund.amountCents)} remboursés au client, prévenu par e-mail.${note}`,
  };
}

/** "Réessayer le remboursement" for an order left refund_pending by a provider failure. */
export async function retryOrderRefund(db: Db, provider: PaymentProvider, number: string, actorId: string, deps: OrderActionDeps): Promise<OrderActionResult> {
  const [order] = await db
    .select({ id: orders.id, totalCents: orders.totalCents, refundReason: orders.refundReason, provider: orders.paymentProvider })
    .from(orders)
    .where(and(eq(orders.number, number), eq(orders.status, "refund_pending")));
  if (!order) return refused(db, number, "retryRefund");
  if (order.provider !== provider.name) return { ok: false, status: 409, title: "Action impossible", message: otherProviderMessage(order.provider) };
  const outcome = await completeRefund(db, provider, order.id, deps, { actorId });
  const restocked = (CANCELLATION_REFUND_REASONS as readonly (RefundReason | null)[]).includes(order.refundReason);
  return refundAnswer(outcome, order.totalCents, restocked);
}
