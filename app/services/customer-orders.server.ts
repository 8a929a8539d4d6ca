import { and, eq, exists, ilike, or } from "drizzle-orm";
import { orderItems, orders } from "~/db/schema";
import type { Db } from "~/db/types";
import { ACCOUNT_ORDER_PAGE_SIZE, type AccountOrderQuery } from "~/domain/account-order-list";
import { type TimelineEntry, customerTimeline } from "~/domain/order-timeline";
import type { OrderView } from "~/domain/order-view";
import { type RefundView, refundView } from "~/domain/refund-view";
import { escapeLike } from "~/domain/search";
import { type OrderListPage, type ShipmentView, listOrderPage, orderEventsOf, shipmentViewOf, timelineOrderOf, toOrderViews } from "./orders.server";
import { priorRefunds } from "./partial-refunds.server";

/**
 * The customer's side of their orders (/account/orders and /account/orders/{n}): the same
 * list reader, order view, refunds and timeline as the seller's pages (admin-orders.server.ts),
 * always scoped to the customer's own orders.
 */

/** The customer's orders, newest first, matching `q` on the order's number or one of its products' names. */
export function listCustomerOrderPage(db: Db, userId: string, query: AccountOrderQuery): Promise<OrderListPage> {
  const pattern = query.q ? `%${escapeLike(query.q)}%` : null;
  const where = and(
    eq(orders.userId, userId),
    pattern
      ? or(
          ilike(orders.number, pattern),
          exists(db.select({ one: orderItems.id }).from(orderItems).where(and(eq(orderItems.orderId, orders.id), ilike(orderItems.name, pattern)))),
        )
      : undefined,
  );
  return listOrderPage(db, where, query.page, ACCOUNT_ORDER_PAGE_SIZE);
}

export type CustomerOrderDetail = {
  order: OrderView;
  shipment: ShipmentView;
  /** Each refund, whole or partial, oldest first, with its credit note. */
  refunds: RefundView[];
  timeline: TimelineEntry[];
};

/** One of the customer's own orders with its shipment, refunds and timeline; null for anybody else's (answered 404). */
export async function getCustomerOrderDetail(db: Db, userId: string, number: string): Promise<CustomerOrderDetail | null> {
  if (number.length > 40) return null;
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.number, number)))
    .limit(1);
  if (!row) return null;
  const [[order], refunds, events] = await Promise.all([toOrderViews(db, [row]), priorRefunds(db, row.id), orderEventsOf(db, row.id)]);
  return {
    order: order!,
    shipment: shipmentViewOf(row),
    refunds: refunds.map((refund) => refundView(refund, { restockNotes: false })),
    timeline: customerTimeline(timelineOrderOf(row), events),
  };
}
