import { eq } from "drizzle-orm";
import { orders, paymentEvents } from "~/db/schema";
import type { Db, Tx } from "~/db/types";
import type { MailShop } from "~/domain/email-templates";
import type { AppContext } from "~/lib/context";
import { orderConfirmationEmail, sellerNewOrderEmail, sellerPaymentMismatchEmail } from "~/domain/order-emails";
import { type PaymentMismatch, paymentMismatch } from "~/domain/payment-check";
import type { LegalIdentity } from "~/domain/shop-identity";
import { type BillingAddress, documentPath, type ShippingAddress } from "~/domain/order-view";
import { issueInvoice, sellerIdentity } from "./invoices.server";
import { queueEmail } from "./mail.server";
import { getOrderView, recordOrderEvent } from "./orders.server";
import { dropAddressOverLimit } from "./drop-limits.server";
import { completeRefund } from "./refunds.server";
import { confirmDiscountUse, retakeDiscountUse } from "./discounts.server";
import { endUnpaidOrder, orderLines, reserveLineUnits } from "./reservations.server";
import { costMarginSales } from "./margin-costs.server";
import { type PaymentEvent, type PaymentProvider, WebhookSignatureError } from "./payments/types";

export type WebhookDeps = {
  shop: MailShop;
  /** The configured identity under the one saved at /admin/settings (what invoices print). */
  legal?: LegalIdentity;
  /** Where the seller's notices go (SELLER_EMAIL, else SHOP_EMAIL). */
  sellerEmail: string;
  now?: () => Date;
};

export type WebhookOutcome =
  | "duplicate" // this event id was handled before (a refund it left unfinished is finished)
  | "unknown-session"
  | "paid"
  | "payment-pending" // completed, asynchronous payment still on its way
  | "late-paid" // paid after its reservation ended, units taken again
  | "refund-pending" // paid after its reservation ended, units gone: the money goes back
  | "released" // expired or failed: units back
  | "amount-mismatch" // paid another amount or currency than the order's: not fulfilled, the seller told
  | "ignored";

/** The webhook's dependencies, from a loader's or action's context. */
export function webhookDepsFrom(context: Pick<AppContext, "shop" | "publicUrl" | "checkout">): WebhookDeps {
  return {
    shop: { name: context.shop.name, email: context.shop.email, publicUrl: context.publicUrl },
    legal: context.shop.legal,
    sellerEmail: context.checkout.sellerEmail,
  };
}

/** An asynchronous payment (bank debit) may take days: the units stay held meanwhile. */
const ASYNC_PAYMENT_HOLD_MS = 3 * 24 * 60 * 60 * 1000;

/**
 * A webhook as received: verifies the signature on the raw body, then handles the event. A bad
 * signature answers 400 and writes nothing. Used by POST /api/payments/{provider}/webhook and
 * by the test payment page, which sends its events through this same path.
 */
export async function receiveWebhook(
  db: Db,
  provider: PaymentProvider,
  rawBody: string,
  headers: Headers,
  deps: WebhookDeps,
): Promise<{ status: 200 | 400; body: { received: boolean; outcome?: WebhookOutcome; error?: string } }> {
  let event: PaymentEvent;
  try {
    event = await provider.readWebhook(rawBody, headers);
  } catch (error) {
    if (error instanceof WebhookSignatureError) return { status: 400, body: { received: false, error: "Signature invalide." } };
    throw error;
  }
  const outcome = await handlePaymentEvent(db, provider, event, deps);
  return { status: 200, body: { received: true, outcome } };
}

/**
 * Handles one provider event exactly once and in any order (ARCHITECTURE.md "Payment
 * confirmation"). In one transaction: the event id is recorded (a second delivery stops
 * there), the order row is locked, and only allowed transitions happen:
 * pending_payment → paid (e-mails and the timeline's event written in the same transaction, the
 * discount code's held use counted as used); pending_payment → expired or cancelled with its
 * units and its code's use back. An expiry after the payment changes nothing. A payment after
 * the reservation ended takes the units and the code's use again if they are still there; if
 * not, the order turns refund_pending (refund_reason late_payment), the seller is told, and the
 * money goes back through the provider (services/refunds.server.ts), after the commit.
 *
 * A delivery that failed after that commit (the refund went out, recording it did not) was
 * answered 500 with its event id kept: the provider's retry of it is a duplicate, yet it
 * finishes the refund, as the sweeper would some minutes later (recordFailure: false: quiet
 * like the sweeper's retries; the idempotency key and the conditional update make it once).
 */
export async function handlePaymentEvent(db: Db, provider: PaymentProvider, event: PaymentEvent, deps: WebhookDeps): Promise<WebhookOutcome> {
  const now = deps.now?.() ?? new Date();
  const result = await db.transaction(async (tx) => {
    const [fresh] = await tx
      .insert(paymentEvents)
      .values({ id: event.id, provider: provider.name, type: event.type, receivedAt: now })
      .onConflictDoNothing({ target: paymentEvents.id })
      .returning({ id: paymentEvents.id });
    if (!fresh) return { outcome: "duplicate" as const, orderId: await orderOfEvent(tx, event.id) };
    if (event.type === "ignored" || !event.sessionId) return { outcome: "ignored" as const };

    const [order] = await tx.select().from(orders).where(eq(orders.providerSessionId, event.sessionId)).for("update");
    if (!order) return { outcome: "unknown-session" as const };
    await tx.update(paymentEvents).set({ orderId: order.id }).where(eq(paymentEvents.id, event.id));

    const paidNow = event.paid && (event.type === "session.completed" || event.type === "session.async_payment_succeeded");
    if (paidNow) {
      // Paid for another amount or currency than the order's: not fulfilled, the seller is told.
      // The provider charged only what the store credit left (services/store-credit-orders.server.ts).
      const mismatch = paymentMismatch({ totalCents: order.totalCents - order.storeCreditCents }, event);
      if (mismatch && (order.status === "pending_payment" || order.status === "expired" || order.status === "cancelled")) {
        await flagPaymentMismatch(tx, order, event, mismatch, now, deps);
        return { outcome: "amount-mismatch" as const };
      }
      return { outcome: await recordPayment(tx, order, event, now, deps), orderId: order.id };
    }
    if (event.type === "session.completed") {
      if (order.status !== "pending_payment") return { outcome: "ignored" as const };
      const holdUntil = new Date(now.getTime() + ASYNC_PAYMENT_HOLD_MS);
      await tx
        .update(orders)
        .set({ ...customerDetails(order, event), reservedUntil: holdUntil, updatedAt: now })
        .where(eq(orders.id, order.id));
      return { outcome: "payment-pending" as const };
    }
    if (event.type === "session.expired" || event.type === "session.async_payment_failed") {
      const ended = await endUnpaidOrder(tx, order.id, event.type === "session.expired" ? "expired" : "cancelled", now);
      return { outcome: ended ? ("released" as const) : ("ignored" as const) };
    }
    return { outcome: "ignored" as const };
  });
  if ("orderId" in result && result.orderId) {
    if (result.outcome === "refund-pending") await completeRefund(db, provider, result.orderId, deps);
    if (result.outcome === "duplicate") await completeRefund(db, provider, result.orderId, deps, { recordFailure: false });
  }
  return result.outcome;
}

/**
 * An order its store credit pays entirely (issue 54): no provider, paid by the same path as a
 * paid webhook (invoice, e-mails, the timeline). A relay point's order is paid at checkout; a
 * home delivery's once its address is given on the shop (`delivery`, docs/decisions/060). Its
 * session id, made here, is what /merci finds it by. Returns that id; null when the order is no
 * longer waiting (paid already, ended, or its reservation over: the sweep gives its credit back).
 */
export async function payWithStoreCreditOnly(db: Db, orderId: string, deps: WebhookDeps, delivery?: { shippingAddress: ShippingAddress; billingAddress: BillingAddress }): Promise<string | null> {
  const now = deps.now?.() ?? new Date();
  const sessionId = `avoir_${orderId}`;
  const paid = await db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
    if (!order || order.storeCreditCents !== order.totalCents) throw new Error(`store credit: order ${orderId} is not payable by credit alone`);
    if (order.status !== "pending_payment" || !order.reservedUntil || order.reservedUntil <= now) return false;
    await tx.update(orders).set({ providerSessionId: sessionId }).where(eq(orders.id, orderId));
    await confirmDiscountUse(tx, order.discountCodeId);
    const event: PaymentEvent = {
      id: sessionId,
      type: "session.completed",
      sessionId,
      paid: true,
      paymentReference: null,
      customerEmail: order.customerEmail,
      customerName: delivery?.shippingAddress.fullName ?? null,
      shippingAddress: delivery?.shippingAddress ?? null,
      billingAddress: delivery?.billingAddress ?? null,
      amountTotalCents: 0,
    };
    await markPaid(tx, order, event, now, deps);
    return true;
  });
  return paid ? sessionId : null;
}

async function orderOfEvent(tx: Tx, eventId: string): Promise<string | null> {
  const [row] = await tx.select({ orderId: paymentEvents.orderId }).from(paymentEvents).where(eq(paymentEvents.id, eventId));
  return row?.orderId ?? null;
}

type OrderRow = typeof orders.$inferSelect;

function customerDetails(order: OrderRow, event: PaymentEvent) {
  const customerName = event.customerName ?? event.shippingAddress?.fullName ?? order.customerName;
  // A relay point was given in the cart; the provider asked only who collects the parcel.
  const relay = order.shippingAddress?.method === "relay" && !order.shippingAddress.fullName ? { ...order.shippingAddress, fullName: customerName ?? "" } : order.shippingAddress;
  return {
    customerEmail: order.customerEmail ?? event.customerEmail,
    customerName,
    shippingAddress: event.shippingAddress ?? relay,
    // « Facturé à »: as given on the payment page (null: not asked, the invoice names the delivery address).
    billingAddress: event.billingAddress ?? order.billingAddress ?? null,
    paymentReference: event.paymentReference ?? order.paymentReference,
  };
}

async function recordPayment(tx: Tx, order: OrderRow, event: PaymentEvent, now: Date, deps: WebhookDeps): Promise<WebhookOutcome> {
  if (order.status === "pending_payment") {
    if (await refusedOverDropLimit(tx, order, event, now)) return "refund-pending";
    // The use the checkout held becomes a used one (the order row is locked: once).
    await confirmDiscountUse(tx, order.discountCodeId);
    await markPaid(tx, order, event, now, deps);
    return "paid";
  }
  if (order.status !== "expired" && order.status !== "cancelled") return "ignored"; // paid already, or on its way back
  if (await refusedOverDropLimit(tx, order, event, now)) return "refund-pending";
  // Paid after the reservation ended: take the units and the code's use again, all or none (a
  // savepoint); what cannot be taken again (stock gone, code's limit reached) means a refund.
  const retaken = await tx
    .transaction(async (sp) => {
      for (const line of await orderLines(sp, order.id)) {
        if (line.productId === null || (await reserveLineUnits(sp, { ...line, productId: line.productId }, now)) === null) throw new NotAllThere();
      }
      const customer = customerDetails(order, event);
      if (!(await retakeDiscountUse(sp, order, { userId: order.userId, email: customer.customerEmail }))) throw new NotAllThere();
      return true;
    })
    .catch((error: unknown) => {
      if (error instanceof NotAllThere) return false;
      throw error;
    });
  if (retaken) {
    await markPaid(tx, order, event, now, deps);
    return "late-paid";
  }
  await tx
    .update(orders)
    .set({ ...customerDetails(order, event), status: "refund_pending", refundReason: "late_payment", reservedUntil: null, updatedAt: now })
    .where(eq(orders.id, order.id));
  await recordOrderEvent(tx, { orderId: order.id, type: "refund_requested", details: { reason: "late_payment" }, at: now });
  return "refund-pending";
}

class NotAllThere extends Error {}

/**
 * A drop's limit by delivery address, now that the payment gives the address: an order over it
 * (other paid orders to the same place, whatever e-mail they used) is not fulfilled; units it
 * still holds go back on sale, and the money goes back with an e-mail saying why.
 */
async function refusedOverDropLimit(tx: Tx, order: OrderRow, event: PaymentEvent, now: Date): Promise<boolean> {
  const customer = customerDetails(order, event);
  const over = await dropAddressOverLimit(tx, order.id, customer.shippingAddress);
  if (!over) return false;
  if (order.status === "pending_payment") await endUnpaidOrder(tx, order.id, "cancelled", now);
  await tx
    .update(orders)
    .set({ ...customer, status: "refund_pending", refundReason: "drop_limit", reservedUntil: null, updatedAt: now })
    .where(eq(orders.id, order.id));
  await recordOrderEvent(tx, { orderId: order.id, type: "refund_requested", details: { reason: "drop_limit", productId: over.productId, limit: over.limit }, at: now });
  return true;
}

async function flagPaymentMismatch(tx: Tx, order: OrderRow, event: PaymentEvent, mismatch: PaymentMismatch, now: Date, deps: WebhookDeps) {
  if (event.paymentReference) await tx.update(orders).set({ paymentReference: event.paymentReference, updatedAt: now }).where(eq(orders.id, order.id));
  const view = (await getOrderView(tx, order.id))!;
  const email = await queueEmail(tx, {
    to: deps.sellerEmail,
    kind: "seller-payment-mismatch",
    content: sellerPaymentMismatchEmail({
      shop: deps.shop,
      order: view,
      received: { cents: mismatch.receivedCents, currency: mismatch.currency },
      adminUrl: `${deps.shop.publicUrl}/admin/orders/${encodeURIComponent(view.number)}`,
    }),
  });
  await recordOrderEvent(tx, {
    orderId: order.id,
    type: "payment_mismatch",
    details: { ...mismatch, paymentReference: event.paymentReference, emailIds: [email.id] },
    at: now,
  });
}

async function markPaid(tx: Tx, order: OrderRow, event: PaymentEvent, now: Date, deps: WebhookDeps) {
  const customer = customerDetails(order, event);
  await tx
    .update(orders)
    .set({ ...customer, status: "paid", paidAt: now, reservedUntil: null, updatedAt: now })
    .where(eq(orders.id, order.id));
  await costMarginSales(tx, order.id);
  // The invoice's number is taken here, in the paid transaction: a rollback gives it back.
  const seller = await sellerIdentity(tx, deps);
  const invoice = await issueInvoice(tx, order.id, seller, now);
  const view = (await getOrderView(tx, order.id))!;
  const orderUrl = order.userId ? `${deps.shop.publicUrl}/account/orders/${encodeURIComponent(view.number)}` : null;
  const emailIds: string[] = [];
  if (view.customerEmail) {
    // With the CGV of the order as a PDF, made when it is sent (services/email-attachments.server.ts).
    const content = orderConfirmationEmail({ shop: deps.shop, order: view, orderUrl, seller, invoiceUrl: `${deps.shop.publicUrl}${documentPath(order.id, invoice.number)}` });
    emailIds.push((await queueEmail(tx, { to: view.customerEmail, kind: "order-confirmation", content, cgvSnapshotId: order.cgvSnapshotId })).id);
  }
  const sellerNotice = await queueEmail(tx, {
    to: deps.sellerEmail,
    kind: "seller-new-order",
    content: sellerNewOrderEmail({ shop: deps.shop, order: view, adminUrl: `${deps.shop.publicUrl}/admin/orders/${encodeURIComponent(view.number)}` }),
  });
  emailIds.push(sellerNotice.id);
  await recordOrderEvent(tx, { orderId: order.id, type: "paid", details: { paymentReference: customer.paymentReference, emailIds }, at: now });
}
