import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import {
  orderItems,
  orderRefunds,
  orders,
  preorderAllocationOrders,
  preorderAllocations,
  productPreorders,
  products,
  type PreorderAllocationRow,
} from "~/db/schema";
import type { Db, Tx } from "~/db/types";
import { type AllocationFormValues, allocationFormSchema } from "~/domain/preorder-allocation-form";
import { type Allocation, type AllocationRule, allocationRefundKey } from "~/domain/preorder-allocation";
import type { FieldErrors } from "~/domain/field-errors";
import { fieldErrors } from "~/domain/field-errors";
import { formatCalendarDate } from "~/domain/calendar-date";
import { parisWallTime } from "~/domain/paris-time";
import { preorderServedEmail } from "~/domain/order-emails";
import { queueEmail } from "./mail.server";
import { getOrderView, recordOrderEvent } from "./orders.server";
import { refundPartOfOrder } from "./partial-refunds.server";
import type { WebhookDeps } from "./payment-webhooks.server";
import type { PaymentProvider } from "./payments/types";
import { allocateClaims, newAllocationSeed, preorderClaims, previewAllocation } from "./preorders.server";
import { completeRefund } from "./refunds.server";

/**
 * Applying a pre-order allocation when the units arrive (issue 55, decision 061). In one
 * transaction that locks the product's pre-order row: the cut (the same computation as the
 * preview, domain/preorder-allocation.ts), recorded once per product (its unique key: a second
 * apply, or two instances at once, find the first), the units beyond the pre-orders put in stock,
 * orders not served at all turned refund_pending. Then, outside any transaction (provider calls),
 * the refunds: whole through refunds.server.ts completeRefund, the missing units of an order
 * served in part through partial-refunds.server.ts refundPartOfOrder, each with its own key, so
 * that a retry (a second apply, the sweepers) never refunds twice. Each refunded buyer gets one
 * e-mail, the apology with its reason, queued by those refunds.
 */

export type AllocationChoice = { received: number; rule: AllocationRule; seed: string | null };

export type ApplyAllocationResult =
  | { outcome: "applied" | "already"; allocation: PreorderAllocationRow; refunds: RefundRun }
  | { outcome: "refused"; status: 404 | 409; message: string };

/** What the refunds of an allocation gave: refunded now or before, and those the provider failed (left for the sweepers). */
export type RefundRun = { refunded: number; failed: number };

type Refusal = { outcome: "refused"; status: 404 | 409; message: string };

/** Why an allocation cannot be applied (or previewed) now: no pre-order, still open, or checkouts still unpaid. */
async function allocationRefusal(tx: Db | Tx, productId: number, now: Date): Promise<Refusal | null> {
  const [preorder] = await tx.select().from(productPreorders).where(eq(productPreorders.productId, productId));
  if (!preorder) return { outcome: "refused", status: 404, message: "Ce produit n'est pas en précommande." };
  if (preorder.releaseOn > parisWallTime(now).date) {
    return { outcome: "refused", status: 409, message: `Les précommandes restent ouvertes jusqu'à la sortie du ${formatCalendarDate(preorder.releaseOn)} : la répartition se fait ensuite.` };
  }
  const [unpaid] = await tx
    .select({ id: orders.id })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(and(eq(orderItems.productId, productId), eq(orderItems.preorder, true), eq(orders.status, "pending_payment")))
    .limit(1);
  if (unpaid) return { outcome: "refused", status: 409, message: "Des précommandes attendent encore leur paiement : réessayez quand leur délai de paiement sera passé." };
  return null;
}

export type PreviewAllocationResult = { outcome: "preview"; allocation: Allocation & { seed: string } } | Refusal;

/** The preview the seller sees before applying: a draw gets its seed here, carried by the form to the apply. */
export async function previewProductAllocation(db: Db, productId: number, choice: { received: number; rule: AllocationRule }, now: Date): Promise<PreviewAllocationResult> {
  const refusal = await allocationRefusal(db, productId, now);
  if (refusal) return refusal;
  const seed = choice.rule === "draw" ? newAllocationSeed() : "";
  return { outcome: "preview", allocation: await previewAllocation(db, productId, { received: choice.received, rule: choice.rule, seed }) };
}

/** Applies the allocation once (see the module's comment); applied again, it finds the first and finishes its refunds. */
export async function applyAllocation(
  db: Db,
  provider: PaymentProvider,
  input: { productId: number; choice: AllocationChoice; actorId: string | null },
  deps: WebhookDeps,
): Promise<ApplyAllocationResult> {
  const now = deps.now?.() ?? new Date();
  const { productId, choice } = input;
  const recorded = await db.transaction(async (tx): Promise<{ allocation: PreorderAllocationRow; applied: boolean } | Refusal> => {
    // Two applies at once wait here for each other: the second finds the first's allocation.
    const [locked] = await tx.select({ productId: productPreorders.productId }).from(productPreorders).where(eq(productPreorders.productId, productId)).for("update");
    if (!locked) return { outcome: "refused", status: 404, message: "Ce produit n'est pas en précommande." };
    const [existing] = await tx.select().from(preorderAllocations).where(eq(preorderAllocations.productId, productId));
    if (existing) return { allocation: existing, applied: false };
    const refusal = await allocationRefusal(tx, productId, now);
    if (refusal) return refusal;
    const cut = await previewAllocation(tx, productId, { received: choice.received, rule: choice.rule, seed: choice.seed ?? "" });
    const [allocation] = await tx
      .insert(preorderAllocations)
      .values({
        productId,
        unitsReceived: cut.received,
        rule: cut.rule,
        seed: cut.rule === "draw" ? cut.seed : null,
        unitsAllocated: cut.allocated,
        unitsToStock: cut.received - cut.allocated,
        actorId: input.actorId,
        createdAt: now,
      })
      .onConflictDoNothing({ target: preorderAllocations.productId })
      .returning();
    // Its unique key: another transaction recorded it first (the lock makes this the last line of defence).
    if (!allocation) return { allocation: (await tx.select().from(preorderAllocations).where(eq(preorderAllocations.productId, productId)))[0]!, applied: false };
    if (cut.orders.length > 0) {
      await tx.insert(preorderAllocationOrders).values(cut.orders.map((order) => ({ allocationId: allocation.id, orderId: order.orderId, ordered: order.ordered, allocated: order.allocated, refunded: order.refunded })));
    }
    if (allocation.unitsToStock > 0) {
      await tx.update(products).set({ stock: sql`${products.stock} + ${allocation.unitsToStock}`, updatedAt: now }).where(eq(products.id, productId));
    }
    const wholeRefunds = await ordersRefundedWhole(tx, productId, cut);
    for (const order of cut.orders) {
      await recordOrderEvent(tx, { orderId: order.orderId, type: "preorder_allocated", details: { allocationId: allocation.id, ordered: order.ordered, allocated: order.allocated, rule: cut.rule }, actorId: input.actorId, at: now });
    }
    await mailServedBuyers(tx, productId, cut, deps);
    if (wholeRefunds.length > 0) {
      await tx
        .update(orders)
        .set({ status: "refund_pending", refundReason: "preorder_shortage", updatedAt: now })
        .where(and(inArray(orders.id, wholeRefunds), eq(orders.status, "paid")));
    }
    return { allocation, applied: true };
  });
  if ("outcome" in recorded) return recorded;
  return { outcome: recorded.applied ? "applied" : "already", allocation: recorded.allocation, refunds: await runAllocationRefunds(db, provider, recorded.allocation, deps, input.actorId) };
}

/**
 * Every buyer hears the outcome once: the ones served in full get their confirmation here, in the
 * allocation's transaction (recorded once per product, so never twice); the others get the
 * apology with their refund.
 */
async function mailServedBuyers(tx: Tx, productId: number, cut: Allocation, deps: WebhookDeps): Promise<void> {
  const served = cut.orders.filter((order) => order.refunded === 0 && order.allocated > 0);
  if (served.length === 0) return;
  const [product] = await tx
    .select({ name: products.title, estimatedDeliveryOn: productPreorders.estimatedDeliveryOn })
    .from(productPreorders)
    .innerJoin(products, eq(products.id, productPreorders.productId))
    .where(eq(productPreorders.productId, productId));
  if (!product) return;
  for (const order of served) {
    const [row] = await tx.select({ userId: orders.userId }).from(orders).where(eq(orders.id, order.orderId));
    const view = await getOrderView(tx, order.orderId);
    if (!view?.customerEmail) continue;
    const orderUrl = row?.userId ? `${deps.shop.publicUrl}/account/orders/${encodeURIComponent(view.number)}` : null;
    const content = preorderServedEmail({ shop: deps.shop, order: view, productName: product.name, units: order.allocated, estimatedDeliveryOn: product.estimatedDeliveryOn, orderUrl });
    await queueEmail(tx, { to: view.customerEmail, kind: "preorder-served", content });
  }
}

/** The orders served nothing whose every line is this product's pre-order: refunded whole, delivery included. */
async function ordersRefundedWhole(tx: Tx, productId: number, cut: Allocation): Promise<string[]> {
  const unserved = cut.orders.filter((order) => order.allocated === 0).map((order) => order.orderId);
  if (unserved.length === 0) return [];
  const mixed = await tx
    .selectDistinct({ orderId: orderItems.orderId })
    .from(orderItems)
    .where(and(inArray(orderItems.orderId, unserved), sql`not (${orderItems.productId} is not distinct from ${productId} and ${orderItems.preorder})`));
  const withOtherLines = new Set(mixed.map((row) => row.orderId));
  return unserved.filter((orderId) => !withOtherLines.has(orderId));
}

/**
 * The refunds an allocation owes, each idempotent: an order refunded whole (refund_pending, or
 * already refunded) through completeRefund, the missing units of the others through a partial
 * refund keyed by the allocation. Run after the apply, and again by a second apply.
 */
async function runAllocationRefunds(db: Db, provider: PaymentProvider, allocation: PreorderAllocationRow, deps: WebhookDeps, actorId: string | null): Promise<RefundRun> {
  const owed = await db
    .select({ orderId: preorderAllocationOrders.orderId, refunded: preorderAllocationOrders.refunded, status: orders.status, refundReason: orders.refundReason })
    .from(preorderAllocationOrders)
    .innerJoin(orders, eq(orders.id, preorderAllocationOrders.orderId))
    .where(and(eq(preorderAllocationOrders.allocationId, allocation.id), sql`${preorderAllocationOrders.refunded} > 0`))
    .orderBy(asc(orders.createdAt), asc(orders.id));
  const run: RefundRun = { refunded: 0, failed: 0 };
  for (const order of owed) {
    if (order.refundReason === "preorder_shortage") {
      if (order.status === "refunded") run.refunded += 1;
      else if ((await completeRefund(db, provider, order.orderId, deps, { actorId })).outcome === "failed") run.failed += 1;
      else run.refunded += 1;
      continue;
    }
    const result = await refundPartOfOrder(db, provider, { orderId: order.orderId, requestKey: allocationRefundKey(allocation.id), request: await missingUnitsRequest(db, allocation.productId, order.orderId, order.refunded), actorId }, deps);
    if (result.ok) run.refunded += 1;
    else run.failed += 1;
  }
  return run;
}

/** The refund of `units` pre-ordered units of the product in this order, its last lines first; nothing goes back to stock (they never came). */
async function missingUnitsRequest(db: Db, productId: number, orderId: string, units: number) {
  const lines = await db
    .select({ id: orderItems.id, quantity: orderItems.quantity })
    .from(orderItems)
    .where(and(eq(orderItems.orderId, orderId), eq(orderItems.productId, productId), eq(orderItems.preorder, true)))
    .orderBy(desc(orderItems.id));
  let left = units;
  const picked = lines.map((line) => {
    const quantity = Math.min(line.quantity, left);
    left -= quantity;
    return { orderItemId: line.id, quantity, restock: false };
  });
  return { lines: picked.filter((line) => line.quantity > 0), shippingCents: 0, insuranceCents: 0, adjustment: null };
}

export type AllocationFormAnswer =
  | { ok: true; status: 200; intent: "preview"; values: AllocationFormValues; preview: Allocation & { seed: string } }
  | { ok: true; status: 200; intent: "apply"; outcome: "applied" | "already"; refunds: RefundRun }
  | { ok: false; status: 400 | 404 | 409; errors: FieldErrors };

/** The seller's form, checked with its schema: a preview, or the apply (the route's action). */
export async function submitAllocationForm(
  db: Db,
  provider: PaymentProvider,
  input: { productId: number; form: Record<string, unknown>; actorId: string | null },
  deps: WebhookDeps,
): Promise<AllocationFormAnswer> {
  const parsed = allocationFormSchema.safeParse(input.form);
  if (!parsed.success) return { ok: false, status: 400, errors: fieldErrors(parsed.error) };
  const values = parsed.data;
  if (values.intent === "preview") {
    const preview = await previewProductAllocation(db, input.productId, values, deps.now?.() ?? new Date());
    if (preview.outcome === "refused") return { ok: false, status: preview.status, errors: { form: preview.message } };
    return { ok: true, status: 200, intent: "preview", values, preview: preview.allocation };
  }
  const applied = await applyAllocation(db, provider, { productId: input.productId, choice: values, actorId: input.actorId }, deps);
  if (applied.outcome === "refused") return { ok: false, status: applied.status, errors: { form: applied.message } };
  return { ok: true, status: 200, intent: "apply", outcome: applied.outcome, refunds: applied.refunds };
}

/** The allocation computed again from what it recorded (its orders, units received, rule and seed): anyone can check it gives the same cut. */
export async function replayAllocation(db: Db, allocation: PreorderAllocationRow): Promise<Allocation> {
  const shares = await db.select({ orderId: preorderAllocationOrders.orderId }).from(preorderAllocationOrders).where(eq(preorderAllocationOrders.allocationId, allocation.id));
  const claims = shares.length === 0 ? [] : await preorderClaims(db, allocation.productId, shares.map((share) => share.orderId));
  return allocateClaims(claims, { received: allocation.unitsReceived, rule: allocation.rule, seed: allocation.seed ?? "" });
}

function sameCut(replayed: readonly { orderId: string; allocated: number }[], recorded: readonly { orderId: string; allocated: number }[]): boolean {
  const byOrder = new Map(recorded.map((share) => [share.orderId, share.allocated]));
  return replayed.length === recorded.length && replayed.every((order) => byOrder.get(order.orderId) === order.allocated);
}

// ---------------------------------------------------------------------------------------------
// The seller's views

/** Pre-order products released and not yet allocated, with paid pre-orders waiting: the dashboard's count. */
export async function preordersToAllocate(db: Db, now: Date): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(distinct ${productPreorders.productId})::int` })
    .from(productPreorders)
    .innerJoin(orderItems, and(eq(orderItems.productId, productPreorders.productId), eq(orderItems.preorder, true)))
    .innerJoin(orders, and(eq(orders.id, orderItems.orderId), eq(orders.status, "paid")))
    .leftJoin(preorderAllocations, eq(preorderAllocations.productId, productPreorders.productId))
    .where(and(sql`${productPreorders.releaseOn} <= ${parisWallTime(now).date}`, sql`${preorderAllocations.id} is null`));
  return row?.n ?? 0;
}

/** Units of the product's pre-order lines by order status (paid and beyond: the money was taken). */
const paidUnits = sql<number>`coalesce(sum(${orderItems.quantity}) filter (where ${orders.status} in ('paid', 'shipped', 'refund_pending', 'refunded')), 0)::int`;

/** Every pre-order product with its figures: /admin/precommandes. */
export async function listPreorderProducts(db: Db) {
  return db
    .select({
      productId: productPreorders.productId,
      title: products.title,
      releaseOn: productPreorders.releaseOn,
      quantity: productPreorders.quantity,
      orderedUnits: productPreorders.orderedUnits,
      paidUnits,
      paidOrders: sql<number>`count(distinct ${orders.id}) filter (where ${orders.status} in ('paid', 'shipped', 'refund_pending', 'refunded'))::int`,
      allocatedAt: preorderAllocations.createdAt,
    })
    .from(productPreorders)
    .innerJoin(products, eq(products.id, productPreorders.productId))
    .leftJoin(orderItems, and(eq(orderItems.productId, productPreorders.productId), eq(orderItems.preorder, true)))
    .leftJoin(orders, eq(orders.id, orderItems.orderId))
    .leftJoin(preorderAllocations, eq(preorderAllocations.productId, productPreorders.productId))
    .groupBy(productPreorders.productId, products.title, preorderAllocations.createdAt)
    .orderBy(asc(productPreorders.releaseOn), asc(products.title));
}

/** One pre-order product for the seller: its settings, each pre-order (customer, units, status), its allocation with each order's share, and the refunds it issued. */
export async function preorderProductView(db: Db, productId: number) {
  const [head] = await db
    .select({ productId: products.id, title: products.title, releaseOn: productPreorders.releaseOn, estimatedDeliveryOn: productPreorders.estimatedDeliveryOn, quantity: productPreorders.quantity, perCustomerLimit: productPreorders.perCustomerLimit, orderedUnits: productPreorders.orderedUnits })
    .from(productPreorders)
    .innerJoin(products, eq(products.id, productPreorders.productId))
    .where(eq(productPreorders.productId, productId));
  if (!head) return null;
  const [allocation] = await db.select().from(preorderAllocations).where(eq(preorderAllocations.productId, productId));
  const shares = allocation ? await db.select().from(preorderAllocationOrders).where(eq(preorderAllocationOrders.allocationId, allocation.id)) : [];
  const shareOf = new Map(shares.map((share) => [share.orderId, share]));
  const lines = await db
    .select({ orderId: orders.id, number: orders.number, status: orders.status, customerName: orders.customerName, customerEmail: orders.customerEmail, createdAt: orders.createdAt, units: sql<number>`sum(${orderItems.quantity})::int` })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(and(eq(orderItems.productId, productId), eq(orderItems.preorder, true)))
    .groupBy(orders.id)
    .orderBy(asc(orders.createdAt), asc(orders.id));
  const refunds =
    shares.length === 0
      ? []
      : await db
          .select({ orderNumber: orders.number, amountCents: orderRefunds.amountCents, status: orderRefunds.status, creditNoteNumber: orderRefunds.creditNoteNumber, refundedAt: orderRefunds.refundedAt })
          .from(orderRefunds)
          .innerJoin(orders, eq(orders.id, orderRefunds.orderId))
          .where(and(inArray(orderRefunds.orderId, shares.filter((share) => share.refunded > 0).map((share) => share.orderId)), sql`(${orderRefunds.requestKey} = ${allocationRefundKey(allocation!.id)} or ${orders.refundReason} = 'preorder_shortage')`))
          .orderBy(asc(orderRefunds.createdAt), asc(orderRefunds.seq));
  return {
    product: head,
    preorders: lines.map((line) => ({ ...line, createdAt: line.createdAt.toISOString(), allocated: shareOf.get(line.orderId)?.allocated ?? null, refunded: shareOf.get(line.orderId)?.refunded ?? null })),
    // Replayed from what it recorded on each view: the page says whether it still gives the same cut.
    allocation: allocation ? { ...allocation, createdAt: allocation.createdAt.toISOString(), replayMatches: sameCut((await replayAllocation(db, allocation)).orders, shares) } : null,
    refunds: refunds.map((refund) => ({ ...refund, refundedAt: refund.refundedAt?.toISOString() ?? null })),
  };
}
