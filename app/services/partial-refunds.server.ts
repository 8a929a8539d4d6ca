import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { orderItems, orderRefunds, orders, products } from "~/db/schema";
import type { Db, Tx } from "~/db/types";
import { type RefundEmailDetails, partialRefundEmail, preorderPartialRefundEmail } from "~/domain/order-emails";
import { isAllocationRefundKey } from "~/domain/preorder-allocation";
import {
  type ComputedRefund,
  REFUND_ADJUSTMENT_LABELS,
  type RefundRequest,
  type RefundableOrder,
  computeRefund,
  wholeRestRefund,
} from "~/domain/partial-refund";
import { orderVatView } from "~/domain/invoice-snapshot";
import { isStoredVatRateBp } from "~/domain/vat";
import { refundSplit } from "~/domain/store-credit";
import { issueRefundCreditNote, sellerIdentity } from "./invoices.server";
import { queueEmail } from "./mail.server";
import { getOrderView, recordOrderEvent } from "./orders.server";
import { returnUnitsToLots } from "./margin-costs.server";
import { refundOrderStoreCredit } from "./store-credit-orders.server";
import type { WebhookDeps } from "./payment-webhooks.server";
import type { PaymentProvider } from "./payments/types";

/**
 * Refunds of part of an order from its admin page (issue 51): the seller picks articles and
 * quantities, the delivery, an amount with its reason; the server prices it from the order's own
 * lines (domain/partial-refund.ts) and:
 * 1. in one transaction that locks the order, refuses more than what is left and writes the
 *    refund "pending" (the form's key makes a second post of the same form the same refund);
 * 2. asks the provider to refund that amount, outside any transaction, with the refund's id as
 *    the idempotency key: a retry (the seller's, the sweeper's) never refunds twice;
 * 3. in one transaction, marks it refunded, issues its credit note, puts back the units asked,
 *    records it on the order and e-mails the buyer. The last refund makes the order "refunded".
 */

type OrderRow = typeof orders.$inferSelect;

/** The order as its refunds see it: its lines' net totals, its charges by rate, its VAT (as its invoice shows them). */
export async function refundableOrder(db: Db | Tx, order: OrderRow): Promise<RefundableOrder> {
  const items = await db.select().from(orderItems).where(eq(orderItems.orderId, order.id)).orderBy(asc(orderItems.name), asc(orderItems.id));
  const nets = items.map((item) => ({
    netCents: item.unitPriceCents * item.quantity - item.discountShareCents,
    vatRateBp: isStoredVatRateBp(item.vatRateBp) ? item.vatRateBp : 2000,
    vatScheme: item.vatScheme,
    vatCents: item.vatCents,
  }));
  const vat = orderVatView(order, nets);
  const franchise = order.vatRegime === "franchise";
  const chargeOf = (index: 0 | 1, cents: number) =>
    franchise || (vat.chargeParts[index] ?? []).length === 0 ? (cents ? [{ bucket: "none" as const, totalCents: cents }] : []) : vat.chargeParts[index]!.map((part) => ({ bucket: part.rateBp, totalCents: part.totalCents }));
  return {
    totalCents: order.totalCents,
    lines: items.map((item, i) => ({
      orderItemId: item.id,
      name: item.name,
      quantity: item.quantity,
      unitPriceCents: item.unitPriceCents,
      netCents: nets[i]!.netCents,
      bucket: franchise ? "none" : item.vatScheme === "margin" ? "margin" : nets[i]!.vatRateBp,
      vatScheme: item.vatScheme,
    })),
    shipping: chargeOf(0, order.shippingCents),
    insurance: chargeOf(1, order.insuranceCents),
    vatBreakdown: vat.breakdown,
    marginSchemeCents: vat.marginSchemeCents,
  };
}

/** The order's refunds so far (pending ones included: their money is on its way). */
export async function priorRefunds(db: Db | Tx, orderId: string): Promise<(typeof orderRefunds.$inferSelect)[]> {
  return db.select().from(orderRefunds).where(eq(orderRefunds.orderId, orderId)).orderBy(asc(orderRefunds.createdAt), asc(orderRefunds.seq));
}

/** Statuses from which part of an order may be refunded: paid for, and not already on its way back whole. */
const PARTLY_REFUNDABLE = ["paid", "shipped"] as const;

export type PartialRefundResult =
  | { ok: true; status: 200; refund: typeof orderRefunds.$inferSelect; closesOrder: boolean }
  | { ok: false; status: 400 | 404 | 409 | 502; message: string };

/** Writes the refund "pending" after checking it against what is left, the order locked meanwhile; the same key finds the same refund. */
export async function recordPendingRefund(
  db: Db,
  orderId: string,
  requestKey: string,
  request: RefundRequest,
  actorId: string | null,
  now: Date,
  allowed: readonly OrderRow["status"][],
): Promise<PartialRefundResult> {
  return db.transaction(async (tx): Promise<PartialRefundResult> => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
    if (!order) return { ok: false, status: 404, message: "Commande introuvable." };
    const prior = await priorRefunds(tx, orderId);
    const same = prior.find((refund) => refund.requestKey === requestKey);
    if (same) return { ok: true, status: 200, refund: same, closesOrder: same.closesOrder };
    if (!allowed.includes(order.status)) return { ok: false, status: 409, message: "Cette commande ne peut pas être remboursée en partie dans son état actuel." };
    if (!order.paymentReference) return { ok: false, status: 409, message: "Aucun paiement à rembourser pour cette commande." };
    const computed = computeRefund(await refundableOrder(tx, order), prior, request);
    if (!computed.ok) return { ok: false, status: 400, message: computed.error };
    const [row] = await tx.insert(orderRefunds).values(refundValues(orderId, requestKey, computed.refund, actorId, now)).returning();
    return { ok: true, status: 200, refund: row!, closesOrder: computed.refund.closesOrder };
  });
}

function refundValues(orderId: string, requestKey: string, refund: ComputedRefund, actorId: string | null, now: Date) {
  return {
    orderId,
    requestKey,
    amountCents: refund.amountCents,
    lines: refund.lines,
    shippingCents: refund.shippingCents,
    insuranceCents: refund.insuranceCents,
    adjustmentKind: refund.adjustment?.kind ?? null,
    adjustmentCents: refund.adjustment?.cents ?? 0,
    reason: refund.adjustment?.reason ?? null,
    parts: { shipping: refund.shippingParts, insurance: refund.insuranceParts, adjustment: refund.adjustment?.parts ?? [] },
    vatBreakdown: refund.vatBreakdown,
    marginSchemeCents: refund.marginSchemeCents,
    closesOrder: refund.closesOrder,
    actorId,
    createdAt: now,
  };
}

/**
 * Refunds part of a paid (or shipped) order: see the module's comment. A provider failure leaves
 * the refund pending (502): the seller's retry or the sweeper finishes it with the same key.
 */
export async function refundPartOfOrder(
  db: Db,
  provider: PaymentProvider,
  input: { orderId: string; requestKey: string; request: RefundRequest; actorId: string | null },
  deps: WebhookDeps,
): Promise<PartialRefundResult> {
  const now = deps.now?.() ?? new Date();
  const pending = await recordPendingRefund(db, input.orderId, input.requestKey, input.request, input.actorId, now, PARTLY_REFUNDABLE);
  if (!pending.ok || pending.refund.status === "refunded") return pending;
  return finishRefund(db, provider, pending.refund.id, deps, { actorId: input.actorId });
}

/**
 * The whole-order paths (a cancellation, a late payment, a drop's limit, a whole withdrawal):
 * the refund of everything not yet given back, written once (key "whole") for an order already in
 * refund_pending; returns its id, or null when nothing is left to give.
 */
export async function pendingWholeRefund(db: Db, orderId: string, now: Date, actorId: string | null): Promise<string | null> {
  return db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
    if (!order) return null;
    const prior = await priorRefunds(tx, orderId);
    const whole = prior.find((refund) => refund.requestKey === "whole");
    if (whole) return whole.id;
    const refund = wholeRestRefund(await refundableOrder(tx, order), prior);
    if (!refund) return null;
    const [row] = await tx.insert(orderRefunds).values(refundValues(orderId, "whole", refund, actorId, now)).returning({ id: orderRefunds.id });
    return row!.id;
  });
}

/** Units of the order not refunded yet: what a cancellation puts back on the shelf. */
export async function returnUnrefundedUnits(tx: Db | Tx, orderId: string, now: Date): Promise<void> {
  const refunded = new Map<string, number>();
  for (const refund of await priorRefunds(tx, orderId)) for (const line of refund.lines) refunded.set(line.orderItemId, (refunded.get(line.orderItemId) ?? 0) + line.quantity);
  for (const line of await tx.select().from(orderItems).where(eq(orderItems.orderId, orderId))) {
    const units = line.quantity - (refunded.get(line.id) ?? 0);
    if (line.productId === null || units <= 0) continue;
    await tx.update(products).set({ stock: sql`${products.stock} + ${units}`, updatedAt: now }).where(eq(products.id, line.productId));
    await returnUnitsToLots(tx, line.id, units, null);
  }
}

/**
 * Gives the money of a pending refund back, then records it (see the module's comment). For the
 * whole-order paths `wholeOrder` is set: the caller turns the order refunded and sends its own e-mail.
 */
export async function finishRefund(
  db: Db,
  provider: PaymentProvider,
  refundId: string,
  deps: WebhookDeps,
  options: { actorId?: string | null; recordFailure?: boolean; idempotencyKey?: string; wholeOrder?: (tx: Tx, refund: typeof orderRefunds.$inferSelect, providerRefundId: string, creditNote: string | null) => Promise<void> } = {},
): Promise<PartialRefundResult> {
  const [refund] = await db.select().from(orderRefunds).where(eq(orderRefunds.id, refundId));
  if (!refund) return { ok: false, status: 404, message: "Remboursement introuvable." };
  if (refund.status === "refunded") return { ok: true, status: 200, refund, closesOrder: refund.closesOrder };
  const [order] = await db.select().from(orders).where(eq(orders.id, refund.orderId));
  // An order paid partly by store credit is refunded by each means in proportion (decision 055).
  const prior = await db
    .select({ amountCents: orderRefunds.amountCents })
    .from(orderRefunds)
    .where(and(eq(orderRefunds.orderId, refund.orderId), eq(orderRefunds.status, "refunded")))
    .orderBy(asc(orderRefunds.refundedAt), asc(orderRefunds.seq));
  const split = order ? refundSplit(order, prior.map((row) => row.amountCents), refund.amountCents) : { cardCents: refund.amountCents, creditCents: 0 };
  let providerRefundId: string | null = null;
  let error = "";
  try {
    if (split.cardCents === 0) providerRefundId = `avoir_${refund.id}`;
    else {
      if (!order?.paymentReference) throw new Error("aucune référence de paiement à rembourser");
      ({ id: providerRefundId } = await provider.refund({ paymentReference: order.paymentReference, amountCents: split.cardCents, idempotencyKey: options.idempotencyKey ?? `refund:${refund.orderId}:${refund.id}` }));
    }
  } catch (failure) {
    error = failure instanceof Error ? failure.message : String(failure);
    console.error(`refund ${refund.id} of order ${order?.number ?? refund.orderId} failed:`, error);
  }
  const now = deps.now?.() ?? new Date();
  if (!providerRefundId) {
    await db.transaction(async (tx) => {
      await tx.update(orderRefunds).set({ lastError: error }).where(eq(orderRefunds.id, refund.id));
      if (options.recordFailure !== false && !options.wholeOrder) {
        await recordOrderEvent(tx, { orderId: refund.orderId, type: "refund_failed", details: { error, refundId: refund.id, amountCents: refund.amountCents }, actorId: options.actorId, at: now });
      }
    });
    return { ok: false, status: 502, message: error };
  }
  return db.transaction(async (tx): Promise<PartialRefundResult> => {
    const [done] = await tx
      .update(orderRefunds)
      .set({ status: "refunded", providerRefundId, storeCreditCents: split.creditCents, refundedAt: now, lastError: null })
      .where(and(eq(orderRefunds.id, refund.id), eq(orderRefunds.status, "pending")))
      .returning();
    // Finished meanwhile by another caller, with the same provider refund (same key).
    if (!done) {
      const [current] = await tx.select().from(orderRefunds).where(eq(orderRefunds.id, refund.id));
      return { ok: true, status: 200, refund: current!, closesOrder: current!.closesOrder };
    }
    await refundOrderStoreCredit(tx, { orderId: done.orderId, orderNumber: order!.number, refundId: done.id, amountCents: split.creditCents });
    const creditNote = await issueRefundCreditNote(tx, done, await sellerIdentity(tx, deps), now);
    if (creditNote) await tx.update(orderRefunds).set({ creditNoteNumber: creditNote.number }).where(eq(orderRefunds.id, done.id));
    const restock = done.lines.filter((line) => line.restock);
    if (restock.length > 0) {
      const items = await tx.select({ id: orderItems.id, productId: orderItems.productId }).from(orderItems).where(inArray(orderItems.id, restock.map((line) => line.orderItemId)));
      for (const line of restock) {
        const productId = items.find((item) => item.id === line.orderItemId)?.productId;
        if (productId == null) continue;
        await tx.update(products).set({ stock: sql`${products.stock} + ${line.quantity}`, updatedAt: now }).where(eq(products.id, productId));
        await returnUnitsToLots(tx, line.orderItemId, line.quantity, done.id);
      }
    }
    const finished = { ...done, creditNoteNumber: creditNote?.number ?? null };
    if (options.wholeOrder) {
      await options.wholeOrder(tx, finished, providerRefundId!, creditNote?.number ?? null);
      return { ok: true, status: 200, refund: finished, closesOrder: true };
    }
    if (done.closesOrder) {
      await tx.update(orders).set({ status: "refunded", refundReference: providerRefundId, refundedAt: now, updatedAt: now }).where(eq(orders.id, done.orderId));
    }
    const view = (await getOrderView(tx, done.orderId))!;
    const emailIds: string[] = [];
    if (view.customerEmail) {
      const [{ total } = { total: 0 }] = await tx
        .select({ total: sql<number>`coalesce(sum(${orderRefunds.amountCents}), 0)`.mapWith(Number) })
        .from(orderRefunds)
        .where(and(eq(orderRefunds.orderId, done.orderId), eq(orderRefunds.status, "refunded")));
      const details: RefundEmailDetails = {
        amountCents: done.amountCents,
        lines: done.lines.map((line) => ({ name: line.name, quantity: line.quantity, totalCents: line.totalCents })),
        shippingCents: done.shippingCents,
        insuranceCents: done.insuranceCents,
        adjustment: done.adjustmentKind ? { label: REFUND_ADJUSTMENT_LABELS[done.adjustmentKind], cents: done.adjustmentCents, reason: done.reason ?? "" } : null,
        creditNoteNumber: creditNote?.number ?? null,
        refundedSoFarCents: total,
      };
      const orderUrl = order?.userId ? `${deps.shop.publicUrl}/account/orders/${encodeURIComponent(view.number)}` : null;
      // A pre-order's missing units (issue 55): the apology with its reason, not the plain refund notice.
      const email = isAllocationRefundKey(done.requestKey)
        ? { kind: "preorder-partial-refund", content: preorderPartialRefundEmail({ shop: deps.shop, order: view, refund: details, orderUrl }) }
        : { kind: "partial-refund", content: partialRefundEmail({ shop: deps.shop, order: view, refund: details, orderUrl }) };
      emailIds.push((await queueEmail(tx, { to: view.customerEmail, ...email })).id);
    }
    await recordOrderEvent(tx, {
      orderId: done.orderId,
      type: "refunded",
      details: { refundId: providerRefundId, amountCents: done.amountCents, partial: !done.closesOrder, emailIds, ...(creditNote ? { creditNote: creditNote.number } : {}) },
      actorId: options.actorId ?? done.actorId,
      at: now,
    });
    return { ok: true, status: 200, refund: finished, closesOrder: done.closesOrder };
  });
}

/** Partial refunds left pending by a provider failure: tried again by the sweeper, with the same key. */
export async function retryPendingPartialRefunds(db: Db, provider: PaymentProvider, deps: WebhookDeps): Promise<number> {
  const pending = await db
    .select({ id: orderRefunds.id })
    .from(orderRefunds)
    .innerJoin(orders, eq(orders.id, orderRefunds.orderId))
    .where(and(eq(orderRefunds.status, "pending"), sql`${orderRefunds.requestKey} <> 'whole'`, eq(orders.paymentProvider, provider.name)))
    .orderBy(asc(orderRefunds.createdAt))
    .limit(20);
  let done = 0;
  for (const { id } of pending) if ((await finishRefund(db, provider, id, deps, { recordFailure: false })).ok) done += 1;
  return done;
}
