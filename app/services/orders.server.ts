import { type SQL, and, asc, count, desc, eq, inArray, sql } from "drizzle-orm";
import { preorderLineNote } from "~/domain/preorder-dates";
import { cgvSnapshots, invoices, orderEvents, orderItems, orderRefunds, orders, users, withdrawalRequests } from "~/db/schema";
import type { Db, Tx } from "~/db/types";
import type { OrderEventType, OrderStatus } from "~/domain/catalog-values";
import type { TimelineEvent, TimelineOrder } from "~/domain/order-timeline";
import type { OrderView } from "~/domain/order-view";
import { carrierLabel } from "~/domain/order-workflow";

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

/** The customer's orders, newest first (the account page's « Commandes récentes »). */
export async function listCustomerOrders(db: Db, userId: string, limit: number) {
  return db
    .select({ id: orders.id, number: orders.number, status: orders.status, totalCents: orders.totalCents, createdAt: orders.createdAt })
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.createdAt), desc(orders.seq))
    .limit(limit);
}

// ---------------------------------------------------------------------------------------------
// Pieces shared by the seller's order pages and the customer's (admin-orders, customer-orders)

/** One row of an order list (the seller's and the customer's history). */
export type OrderListRow = {
  number: string;
  createdAt: string;
  status: OrderStatus;
  customerName: string | null;
  customerEmail: string | null;
  totalCents: number;
  /** Units ordered, all lines. */
  itemCount: number;
  /** Its lines (products), and the first one's name by name order, as the order page lists them. */
  lineCount: number;
  firstItemName: string | null;
  /** The customer asked to withdraw (the list marks it). */
  withdrawalRequested: boolean;
  /** Part of it was refunded, not all (the list marks it). */
  partlyRefunded: boolean;
};

export type OrderListPage = { rows: OrderListRow[]; total: number; page: number; pageCount: number };

/** The name and e-mail given at payment, else the customer account's. */
const listCustomerName = sql<string | null>`coalesce(${orders.customerName}, ${users.name})`;
const listCustomerEmail = sql<string | null>`coalesce(${orders.customerEmail}, ${users.email})`;

async function readOrderListPage(db: Db, where: SQL | undefined, page: number, pageSize: number): Promise<{ rows: OrderListRow[]; total: number }> {
  const found = await db
    .select({
      number: orders.number,
      createdAt: orders.createdAt,
      status: orders.status,
      customerName: listCustomerName,
      customerEmail: listCustomerEmail,
      totalCents: orders.totalCents,
      itemCount: sql<number>`(select coalesce(sum(${orderItems.quantity}), 0) from ${orderItems} where ${orderItems.orderId} = ${orders.id})`.mapWith(Number),
      lineCount: sql<number>`(select count(*) from ${orderItems} where ${orderItems.orderId} = ${orders.id})`.mapWith(Number),
      firstItemName: sql<string | null>`(select ${orderItems.name} from ${orderItems} where ${orderItems.orderId} = ${orders.id} order by ${orderItems.name}, ${orderItems.id} limit 1)`,
      withdrawalRequested: sql<boolean>`exists (select 1 from ${withdrawalRequests} where ${withdrawalRequests.orderId} = ${orders.id})`.mapWith(Boolean),
      partlyRefunded: sql<boolean>`(${orders.status} <> 'refunded' and exists (select 1 from ${orderRefunds} where ${orderRefunds.orderId} = ${orders.id} and ${orderRefunds.status} = 'refunded'))`.mapWith(Boolean),
      total: sql<number>`count(*) over ()`.mapWith(Number),
    })
    .from(orders)
    .leftJoin(users, eq(users.id, orders.userId))
    .where(where)
    .orderBy(desc(orders.createdAt), desc(orders.seq))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return { rows: found.map(({ total: _total, createdAt, ...row }) => ({ ...row, createdAt: createdAt.toISOString() })), total: found[0]?.total ?? 0 };
}

/** The orders `where` selects, newest first, `pageSize` a page; a page past the end shows the last one. */
export async function listOrderPage(db: Db, where: SQL | undefined, page: number, pageSize: number): Promise<OrderListPage> {
  let found = await readOrderListPage(db, where, page, pageSize);
  if (found.rows.length === 0 && page > 1) {
    const [row] = await db.select({ n: count() }).from(orders).leftJoin(users, eq(users.id, orders.userId)).where(where);
    const last = Math.max(1, Math.ceil((row?.n ?? 0) / pageSize));
    if (last < page) {
      page = last;
      found = await readOrderListPage(db, where, page, pageSize);
    }
  }
  return { ...found, page, pageCount: Math.ceil(found.total / pageSize) };
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** The order's own columns its timeline reads (domain/order-timeline.ts). */
export function timelineOrderOf(row: OrderRow): TimelineOrder {
  return {
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    paidAt: iso(row.paidAt),
    shippedAt: iso(row.shippedAt),
    refundedAt: iso(row.refundedAt),
    updatedAt: row.updatedAt.toISOString(),
    carrier: row.carrier,
    trackingNumber: row.trackingNumber,
    trackingUrl: row.trackingUrl,
    refundReference: row.refundReference,
    refundReason: row.refundReason,
    totalCents: row.totalCents,
  };
}

/** An order's events, oldest first, with the name of who acted. */
export async function orderEventsOf(db: Db, orderId: string): Promise<TimelineEvent[]> {
  const events = await db
    .select({ id: orderEvents.id, type: orderEvents.type, details: orderEvents.details, createdAt: orderEvents.createdAt, actorName: users.name })
    .from(orderEvents)
    .leftJoin(users, eq(users.id, orderEvents.actorId))
    .where(eq(orderEvents.orderId, orderId))
    .orderBy(asc(orderEvents.createdAt), asc(orderEvents.seq));
  return events.map((event) => ({ ...event, createdAt: event.createdAt.toISOString() }));
}

export type ShipmentView = { carrier: string | null; carrierLabel: string | null; trackingNumber: string | null; trackingUrl: string | null; shippedAt: string | null };

/** How the parcel left: carrier, tracking number and link, when (all null before shipping). */
export function shipmentViewOf(row: OrderRow): ShipmentView {
  return { carrier: row.carrier, carrierLabel: carrierLabel(row.carrier), trackingNumber: row.trackingNumber, trackingUrl: row.trackingUrl, shippedAt: iso(row.shippedAt) };
}
