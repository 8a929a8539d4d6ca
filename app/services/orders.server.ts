import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { preorderLineNote } from "~/domain/preorder-dates";
import { cgvSnapshots, invoices, orderEvents, orderItems, orderRefunds, orders } from "~/db/schema";
import type { Db, Tx } from "~/db/types";
import type { OrderEventType } from "~/domain/catalog-values";
import type { OrderView } from "~/domain/order-view";

type OrderRow = typeof orders.$inferSelect;

/**
 * One step of an order's timeline (the admin order page), written in the transaction of the
 * change it records. `emailIds` in the details links the outbox e-mails it queued.
 */
export async function recordOrderEvent(
  tx: Db | Tx,
  event: { orderId: string; type: OrderEventType; details?: Record<string, unknown>; actorId?: string | null; at: Date },
): Promise<void> {
  await tx.insert(orderEvents).values({ orderId: event.orderId, type: event.type, details: event.details ?? {}, actorId: event.actorId ?? null, createdAt: event.at });
}

export async function toOrderViews(db: Db | Tx, rows: OrderRow[]): Promise<OrderView[]> {
  if (rows.length === 0) return [];
  const items = await db
    .select()
    .from(orderItems)
    .where(inArray(orderItems.orderId, rows.map((row) => row.id)))
    .orderBy(asc(orderItems.name), asc(orderItems.id));
  const ids = rows.map((row) => row.id);
  const documents = await db
    .select({ orderId: invoices.orderId, kind: invoices.kind, number: invoices.number, issuedAt: invoices.issuedAt })
    .from(invoices)
    .where(inArray(invoices.orderId, ids))
    .orderBy(asc(invoices.issuedAt), asc(invoices.kind));
  const refunded = await db
    .select({ orderId: orderRefunds.orderId, cents: sql<number>`sum(${orderRefunds.amountCents})`.mapWith(Number) })
    .from(orderRefunds)
    .where(and(inArray(orderRefunds.orderId, ids), eq(orderRefunds.status, "refunded")))
    .groupBy(orderRefunds.orderId);
  const cgvIds = rows.flatMap((row) => (row.cgvSnapshotId ? [row.cgvSnapshotId] : []));
  const cgvs = cgvIds.length > 0 ? await db.select({ id: cgvSnapshots.id, hash: cgvSnapshots.hash, createdAt: cgvSnapshots.createdAt }).from(cgvSnapshots).where(inArray(cgvSnapshots.id, cgvIds)) : [];
  return rows.map((row) => ({
    id: row.id,
    number: row.number,
    status: row.status,
    refundReason: row.refundReason ?? null,
    createdAt: row.createdAt.toISOString(),
    paidAt: row.paidAt?.toISOString() ?? null,
    customerEmail: row.customerEmail,
    customerName: row.customerName,
    lines: items
      .filter((item) => item.orderId === row.id)
      .map((item) => ({
        productId: item.productId,
        name: item.name,
        unitPriceCents: item.unitPriceCents,
        quantity: item.quantity,
        lineTotalCents: item.unitPriceCents * item.quantity,
        preorderNote: preorderLineNote(item),
      })),
    subtotalCents: row.subtotalCents,
    insuranceCents: row.insuranceCents,
    discountCents: row.discountCents,
    discountCode: row.discountCode,
    totalCents: row.totalCents,
    storeCreditCents: row.storeCreditCents,
    shippingAddress: row.shippingAddress ?? null,
    billingAddress: row.billingAddress ?? null,
    businessBuyer: row.businessBuyer ?? null,
    shipping:
      row.shippingMethodName && row.shippingKind
        ? { methodName: row.shippingMethodName, kind: row.shippingKind, deliveryTime: row.shippingDeliveryTime ?? "", cents: row.shippingCents }
        : null,
    vatRegime: row.vatRegime,
    vatBreakdown: row.vatBreakdown,
    documents: documents.filter((doc) => doc.orderId === row.id).map(({ kind, number, issuedAt }) => ({ kind, number, issuedAt: issuedAt.toISOString() })),
    refundedCents: refunded.find((sum) => sum.orderId === row.id)?.cents ?? 0,
    cgv: cgvOf(cgvs.find((cgv) => cgv.id === row.cgvSnapshotId)),
  }));
}

const cgvOf = (cgv: { hash: string; createdAt: Date } | undefined) => (cgv ? { hash: cgv.hash, createdAt: cgv.createdAt.toISOString() } : null);

export async function getOrderView(db: Db | Tx, orderId: string): Promise<OrderView | null> {
  const rows = await db.select().from(orders).where(eq(orders.id, orderId)).limit(1);
  return (await toOrderViews(db, rows))[0] ?? null;
}

/**
 * Which order a payment session paid for, and whose it is (/merci): the session id alone opens
 * no personal data (it sits in browser history and logs), so the page checks who asks first.
 */
export async function findOrderOfPaymentSession(db: Db, sessionId: string): Promise<{ id: string; userId: string | null } | null> {
  if (!sessionId || sessionId.length > 255) return null;
  const [row] = await db.select({ id: orders.id, userId: orders.userId }).from(orders).where(eq(orders.providerSessionId, sessionId)).limit(1);
  return row ?? null;
}

/** The order of a payment session, whole. */
export async function getOrderBySessionId(db: Db, sessionId: string): Promise<OrderView | null> {
  if (!sessionId || sessionId.length > 255) return null;
  const rows = await db.select().from(orders).where(eq(orders.providerSessionId, sessionId)).limit(1);
  return (await toOrderViews(db, rows))[0] ?? null;
}

/** One of the customer's own orders by its number; null for anybody else's (answered 404). */
export async function getCustomerOrder(db: Db, userId: string, number: string): Promise<OrderView | null> {
  if (number.length > 40) return null;
  const rows = await db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.number, number)))
    .limit(1);
  return (await toOrderViews(db, rows))[0] ?? null;
}

/** The customer's orders, newest first (the account page). */
export async function listCustomerOrders(db: Db, userId: string, limit = 20) {
  return db
    .select({ id: orders.id, number: orders.number, status: orders.status, totalCents: orders.totalCents, createdAt: orders.createdAt })
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.createdAt), desc(orders.seq))
    .limit(limit);
}
