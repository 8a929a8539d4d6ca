import { and, asc, eq } from "drizzle-orm";
import { orders } from "~/db/schema";
import type { Db, Tx } from "~/db/types";
import type { RefundReason } from "~/domain/catalog-values";
import { dropLimitRefundEmail, latePaymentRefundEmail, orderCancelledRefundEmail, preorderShortageRefundEmail, sellerLatePaymentEmail, withdrawalRefundEmail } from "~/domain/order-emails";
import type { OrderView } from "~/domain/order-view";
import { queueEmail } from "./mail.server";
import { getOrderView, recordOrderEvent } from "./orders.server";
import { finishRefund, pendingWholeRefund } from "./partial-refunds.server";
import type { WebhookDeps } from "./payment-webhooks.server";
import type { PaymentProvider } from "./payments/types";

/**
 * Refunds. An order reaches refund_pending in the transaction that decides it (a payment that
 * came after its stock was gone, or the seller's "Annuler et rembourser"), with its
 * refund_reason; the money then goes back here, outside any transaction (an HTTP call to the
 * provider must not hold row locks), with the idempotency key `refund:{order id}`: however many
 * times this runs (the action, the sweeper's retries, both at once), the provider refunds once
 * and the order turns refunded once.
 */

export type RefundOutcome = { outcome: "refunded"; refundId: string } | { outcome: "failed"; error: string } | { outcome: "not-pending" };

const REFUND_EMAILS = {
  late_payment: { kind: "late-payment-refund", content: latePaymentRefundEmail },
  seller_cancel: { kind: "order-cancelled-refund", content: orderCancelledRefundEmail },
  withdrawal: { kind: "withdrawal-refund", content: withdrawalRefundEmail },
  drop_limit: { kind: "drop-limit-refund", content: dropLimitRefundEmail },
  preorder_shortage: { kind: "preorder-shortage-refund", content: preorderShortageRefundEmail },
} as const;

/** The customer's e-mail for each reason: the late-payment apology, the seller's cancellation, or the refund of their withdrawal. */
async function queueRefundEmails(tx: Tx, order: OrderView, reason: RefundReason, amountCents: number, deps: WebhookDeps): Promise<string[]> {
  const ids: string[] = [];
  if (order.customerEmail && amountCents > 0) {
    const email = REFUND_EMAILS[reason];
    ids.push((await queueEmail(tx, { to: order.customerEmail, kind: email.kind, content: email.content({ shop: deps.shop, order, amountCents }) })).id);
  }
  // The seller cancelled it themselves; a late payment happened without them and they are told.
  if (reason === "late_payment") ids.push((await sellerNotice(tx, order, true, deps)).id);
  return ids;
}

function sellerNotice(tx: Tx, order: OrderView, refunded: boolean, deps: WebhookDeps) {
  const content = sellerLatePaymentEmail({ shop: deps.shop, order, refunded, adminUrl: `${deps.shop.publicUrl}/admin/orders/${encodeURIComponent(order.number)}` });
  return queueEmail(tx, { to: deps.sellerEmail, kind: "seller-late-payment", content });
}

/**
 * Gives the money back for an order in refund_pending, then, in one transaction, marks it
 * refunded with the provider's reference, records it in the timeline and e-mails the customer
 * (the e-mail of its refund_reason). A provider failure leaves it refund_pending for the
 * sweeper; the first failure is recorded (and, for a late payment, the seller is told to act),
 * the sweeper's retries stay quiet (`recordFailure: false`).
 */
export async function completeRefund(
  db: Db,
  provider: PaymentProvider,
  orderId: string,
  deps: WebhookDeps,
  options: { actorId?: string | null; recordFailure?: boolean } = {},
): Promise<RefundOutcome> {
  const [order] = await db.select().from(orders).where(and(eq(orders.id, orderId), eq(orders.status, "refund_pending")));
  if (!order) return { outcome: "not-pending" };
  // Orders made refund_pending before refund_reason existed were all late payments.
  const reason = order.refundReason ?? "late_payment";
  const now = deps.now?.() ?? new Date();
  // What is left to give back (all of it, unless part was refunded before), written once.
  const refundRowId = await pendingWholeRefund(db, order.id, now, options.actorId ?? null);
  const finishOrder = async (tx: Tx, refundId: string, amountCents: number, creditNote: string | null): Promise<boolean> => {
    const updated = await tx
      .update(orders)
      .set({ status: "refunded", refundReference: refundId, refundedAt: now, updatedAt: now })
      .where(and(eq(orders.id, order.id), eq(orders.status, "refund_pending")))
      .returning({ id: orders.id });
    if (updated.length === 0) return false;
    const emailIds = await queueRefundEmails(tx, (await getOrderView(tx, order.id))!, reason, amountCents, deps);
    await recordOrderEvent(tx, { orderId: order.id, type: "refunded", details: { refundId, amountCents, reason, emailIds, ...(creditNote ? { creditNote } : {}) }, actorId: options.actorId, at: now });
    return true;
  };
  if (!refundRowId) {
    // Everything had gone back in parts already: the order is refunded, with nothing more to send.
    const done = await db.transaction((tx) => finishOrder(tx, order.refundReference ?? "", 0, null));
    return done ? { outcome: "refunded", refundId: order.refundReference ?? "" } : { outcome: "not-pending" };
  }
  let finished = false;
  const result = await finishRefund(db, provider, refundRowId, deps, {
    actorId: options.actorId,
    // The key whole refunds always had: a retry of one begun before partial refunds existed stays the same refund.
    idempotencyKey: `refund:${order.id}`,
    wholeOrder: async (tx, refund, providerRefundId, creditNote) => {
      finished = await finishOrder(tx, providerRefundId, refund.amountCents, creditNote);
    },
  });
  if (!result.ok) {
    if (options.recordFailure !== false) {
      await db.transaction(async (tx) => {
        const emailIds = reason === "late_payment" ? [(await sellerNotice(tx, (await getOrderView(tx, order.id))!, false, deps)).id] : [];
        await recordOrderEvent(tx, { orderId: order.id, type: "refund_failed", details: { error: result.message, emailIds }, actorId: options.actorId, at: now });
      });
    }
    return { outcome: "failed", error: result.message };
  }
  // Finished meanwhile by another caller, with the same refund (same idempotency key).
  if (!finished) return { outcome: "not-pending" };
  return { outcome: "refunded", refundId: result.refund.providerRefundId ?? "" };
}

/** Orders still waiting for their refund (the provider failed before): tried again by the sweeper. */
export async function retryPendingRefunds(db: Db, provider: PaymentProvider, deps: WebhookDeps): Promise<number> {
  const pending = await db.select({ id: orders.id }).from(orders).where(eq(orders.status, "refund_pending")).orderBy(asc(orders.updatedAt)).limit(20);
  let done = 0;
  for (const { id } of pending) {
    if ((await completeRefund(db, provider, id, deps, { recordFailure: false })).outcome === "refunded") done += 1;
  }
  return done;
}
