import { and, asc, eq } from "drizzle-orm";
import { orders } from "~/db/schema";
import type { Db, Tx } from "~/db/types";
import type { RefundReason } from "~/domain/catalog-values";
import { dropLimitRefundEmail, latePaymentRefundEmail, orderCancelledRefundEmail, sellerLatePaymentEmail, withdrawalRefundEmail } from "~/domain/order-emails";
import type { OrderView } from "~/domain/order-view";
import { issueCreditNote, sellerIdentity } from "./invoices.server";
import { queueEmail } from "./mail.server";
import { getOrderView, recordOrderEvent } from "./orders.server";
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
} as const;

/** The customer's e-mail for each reason: the late-payment apology, the seller's cancellation, or the refund of their withdrawal. */
async function queueRefundEmails(tx: Tx, order: OrderView, reason: RefundReason, deps: WebhookDeps): Promise<string[]> {
  const ids: string[] = [];
  if (order.customerEmail) {
    const email = REFUND_EMAILS[reason];
    ids.push((await queueEmail(tx, { to: order.customerEmail, kind: email.kind, content: email.content({ shop: deps.shop, order }) })).id);
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
  let refundId: string | null = null;
  let error = "";
  try {
    if (!order.paymentReference) throw new Error("aucune référence de paiement à rembourser");
    ({ id: refundId } = await provider.refund({ paymentReference: order.paymentReference, amountCents: order.totalCents, idempotencyKey: `refund:${order.id}` }));
  } catch (failure) {
    error = failure instanceof Error ? failure.message : String(failure);
    console.error(`refund of order ${order.number} failed:`, error);
  }
  const now = deps.now?.() ?? new Date();
  return db.transaction(async (tx): Promise<RefundOutcome> => {
    if (!refundId) {
      if (options.recordFailure !== false) {
        const emailIds = reason === "late_payment" ? [(await sellerNotice(tx, (await getOrderView(tx, order.id))!, false, deps)).id] : [];
        await recordOrderEvent(tx, { orderId: order.id, type: "refund_failed", details: { error, emailIds }, actorId: options.actorId, at: now });
      }
      return { outcome: "failed", error };
    }
    const updated = await tx
      .update(orders)
      .set({ status: "refunded", refundReference: refundId, refundedAt: now, updatedAt: now })
      .where(and(eq(orders.id, order.id), eq(orders.status, "refund_pending")))
      .returning({ id: orders.id });
    // Finished meanwhile by another caller, with the same refund (same idempotency key).
    if (updated.length === 0) return { outcome: "not-pending" };
    // The invoice, if the order had one, is cancelled by a credit note from its own sequence.
    const creditNote = await issueCreditNote(tx, order.id, await sellerIdentity(tx, deps), now);
    const emailIds = await queueRefundEmails(tx, (await getOrderView(tx, order.id))!, reason, deps);
    await recordOrderEvent(tx, { orderId: order.id, type: "refunded", details: { refundId, amountCents: order.totalCents, reason, emailIds, ...(creditNote ? { creditNote: creditNote.number } : {}) }, actorId: options.actorId, at: now });
    return { outcome: "refunded", refundId };
  });
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
