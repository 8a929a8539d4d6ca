import { and, asc, eq, gte, inArray, lte, sql } from "drizzle-orm";
import { orderItems, orders, productPreorders, products, testPaymentSessions } from "~/db/schema";
import type { Db, Tx } from "~/db/types";
import type { OrderStatus } from "~/domain/catalog-values";
import { releaseDiscountUse } from "./discounts.server";
import { giveBackOrderStoreCredit } from "./store-credit-orders.server";

/**
 * Stock reservations. A checkout takes units with one conditional UPDATE per line (never below
 * zero, whatever the interleaving); an order that ends unpaid gives them back exactly once,
 * because the status change and the release happen in the same transaction and only from
 * pending_payment.
 */

/**
 * Takes `quantity` units of a product if there are that many: the stock left, or null (nothing
 * changed) if not.
 */
export async function reserveUnits(tx: Db | Tx, productId: number, quantity: number, now: Date): Promise<number | null> {
  const rows = await tx
    .update(products)
    .set({ stock: sql`${products.stock} - ${quantity}`, updatedAt: now })
    .where(and(eq(products.id, productId), gte(products.stock, quantity)))
    .returning({ stock: products.stock });
  return rows[0]?.stock ?? null;
}

/**
 * Takes `quantity` units of a pre-order's quantity (issue 55) if that many are left: the units
 * left, or null. The same conditional UPDATE as the stock's: two instances never pass the cap.
 */
export async function reservePreorderUnits(tx: Db | Tx, productId: number, quantity: number, now: Date): Promise<number | null> {
  const rows = await tx
    .update(productPreorders)
    .set({ orderedUnits: sql`${productPreorders.orderedUnits} + ${quantity}`, updatedAt: now })
    .where(and(eq(productPreorders.productId, productId), sql`${productPreorders.orderedUnits} + ${quantity} <= ${productPreorders.quantity}`))
    .returning({ left: sql<number>`(${productPreorders.quantity} - ${productPreorders.orderedUnits})::int` });
  return rows[0]?.left ?? null;
}

/** Takes an order line's units from where it was sold: the pre-order's quantity or the stock. */
export function reserveLineUnits(tx: Db | Tx, line: { productId: number; quantity: number; preorder: boolean }, now: Date): Promise<number | null> {
  return line.preorder ? reservePreorderUnits(tx, line.productId, line.quantity, now) : reserveUnits(tx, line.productId, line.quantity, now);
}

/** The order's lines that still point to a product, in product order (same lock order everywhere). */
export async function orderLines(tx: Db | Tx, orderId: string) {
  return tx
    .select({ productId: orderItems.productId, quantity: orderItems.quantity, name: orderItems.name, preorder: orderItems.preorder })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .orderBy(asc(orderItems.productId));
}

/** Puts an order's units back on the shelf, or a pre-order's back in its quantity (its products that still exist). */
export async function returnUnits(tx: Db | Tx, orderId: string, now: Date): Promise<void> {
  for (const line of await orderLines(tx, orderId)) {
    if (line.productId === null) continue;
    if (line.preorder) {
      await tx
        .update(productPreorders)
        .set({ orderedUnits: sql`${productPreorders.orderedUnits} - ${line.quantity}`, updatedAt: now })
        .where(eq(productPreorders.productId, line.productId));
      continue;
    }
    await tx
      .update(products)
      .set({ stock: sql`${products.stock} + ${line.quantity}`, updatedAt: now })
      .where(eq(products.id, line.productId));
  }
}

/**
 * Ends a pending order that was not paid (expired, cancelled) and returns its units, its
 * discount code's use and the store credit it spent; false when it was no longer pending (already paid, or already released
 * by someone else): the conditional UPDATE makes the release happen once.
 */
export async function endUnpaidOrder(tx: Db | Tx, orderId: string, status: Extract<OrderStatus, "expired" | "cancelled">, now: Date): Promise<boolean> {
  const [ended] = await tx
    .update(orders)
    .set({ status, reservedUntil: null, updatedAt: now })
    .where(and(eq(orders.id, orderId), eq(orders.status, "pending_payment")))
    .returning({ id: orders.id, discountCodeId: orders.discountCodeId });
  if (!ended) return false;
  await returnUnits(tx, orderId, now);
  await releaseDiscountUse(tx, ended.discountCodeId);
  await giveBackOrderStoreCredit(tx, orderId);
  return true;
}

// Arbitrary constant: one server at a time sweeps reservations on PostgreSQL.
const SWEEP_LOCK_ID = 727_002;
const SWEEP_BATCH = 100;

/**
 * Releases the reservations whose time has passed, even when no webhook came: the orders turn
 * expired and their units return. On PostgreSQL one instance at a time does it (an advisory
 * lock taken for the transaction; the others skip this round); SKIP LOCKED leaves alone an order
 * that a webhook is handling right now. Returns the released order ids.
 */
export async function releaseExpiredReservations(db: Db, now: Date, options: { postgres: boolean }): Promise<string[]> {
  return db.transaction(async (tx) => {
    if (options.postgres) {
      const result = (await tx.execute(sql`select pg_try_advisory_xact_lock(${SWEEP_LOCK_ID}) as ok`)) as unknown as { rows: { ok: boolean }[] };
      const [lock] = result.rows;
      if (!lock?.ok) return [];
    }
    const due = await tx
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.status, "pending_payment"), lte(orders.reservedUntil, now)))
      .orderBy(asc(orders.reservedUntil))
      .limit(SWEEP_BATCH)
      .for("update", { skipLocked: true });
    const released: string[] = [];
    for (const { id } of due) {
      if (await endUnpaidOrder(tx, id, "expired", now)) released.push(id);
    }
    if (released.length > 0) {
      // The test page then says the session expired (the sweep then closes Stripe's too: sweepExpiredReservations).
      await tx.update(testPaymentSessions).set({ status: "expired" }).where(and(inArray(testPaymentSessions.orderId, released), eq(testPaymentSessions.status, "open")));
    }
    return released;
  });
}
