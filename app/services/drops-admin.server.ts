import { and, asc, eq, inArray, isNull, ne, notExists, sql } from "drizzle-orm";
import { dropQueue, dropRefusals, orderItems, orders, productDrops, products } from "~/db/schema";
import type { Db } from "~/db/types";
import type { DropFormValues, DropStartMode } from "~/domain/drop-form";
import { sinceCurrentOpening } from "./drop-limits.server";
import { alertCounts } from "./stock-alerts.server";

/**
 * The seller's drops (/admin/drops "Sorties"): a product's rules for buyers (domain/drop-form.ts),
 * with its figures. The opening time and the units stay the product's own (its form).
 */

export type DropSummary = {
  productId: number;
  title: string;
  status: string;
  dropTime: string | null;
  /** Units still on sale (the product's stock). */
  available: number;
  /** Units held by unpaid orders. */
  held: number;
  /** Units paid for. */
  sold: number;
  /** Distinct customers who paid (an account, or a normalised e-mail). */
  customers: number;
  /** Orders refunded because their delivery address was over the limit. */
  refusedAtPayment: number;
  /** Confirmed "Prévenez-moi" alerts still waiting for the product. */
  alerts: number;
  /** The waiting room now: tickets waiting their turn, and admitted ones not used yet. */
  waiting: number;
  admitted: number;
  /** The most units one customer (account or normalised e-mail) has in paid and pending orders. */
  largestShare: number;
  /** Checkouts refused by reason (DROP_LIMIT, DROP_PENDING…), kept after the drop. */
  refusals: Partial<Record<string, number>>;
  perCustomerLimit: number;
  accountRequired: boolean;
  holdMinutes: number;
  startMode: DropStartMode;
  fairWindowMinutes: number;
};

export async function listDrops(db: Db): Promise<DropSummary[]> {
  const rows = await db
    .select({
      productId: productDrops.productId,
      title: products.title,
      status: products.status,
      dropTime: products.dropTime,
      available: products.stock,
      perCustomerLimit: productDrops.perCustomerLimit,
      accountRequired: productDrops.accountRequired,
      holdMinutes: productDrops.holdMinutes,
      startMode: productDrops.startMode,
      fairWindowMinutes: productDrops.fairWindowMinutes,
    })
    .from(productDrops)
    .innerJoin(products, eq(products.id, productDrops.productId))
    .orderBy(sql`${products.dropTime} desc nulls last`, asc(products.title));
  if (rows.length === 0) return [];
  const figures = await db
    .select({
      productId: orderItems.productId,
      held: sql<number>`coalesce(sum(${orderItems.quantity}) filter (where ${orders.status} = 'pending_payment'), 0)::int`,
      sold: sql<number>`coalesce(sum(${orderItems.quantity}) filter (where ${orders.status} in ('paid', 'shipped')), 0)::int`,
      customers: sql<number>`count(distinct coalesce(${orders.userId}, ${orders.buyerEmailKey}, ${orders.id}::text)) filter (where ${orders.status} in ('paid', 'shipped'))::int`,
      refusedAtPayment: sql<number>`count(*) filter (where ${orders.refundReason} = 'drop_limit')::int`,
    })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .innerJoin(products, eq(products.id, orderItems.productId))
    .where(and(inArray(orderItems.productId, rows.map((row) => row.productId)), sinceCurrentOpening))
    .groupBy(orderItems.productId);
  const byProduct = new Map(figures.map((row) => [row.productId, row]));
  const ids = rows.map((row) => row.productId);
  const alerts = await alertCounts(db, ids);
  const queues = await db
    .select({
      productId: dropQueue.productId,
      waiting: sql<number>`count(*) filter (where ${dropQueue.status} = 'waiting')::int`,
      admitted: sql<number>`count(*) filter (where ${dropQueue.status} = 'admitted')::int`,
    })
    .from(dropQueue)
    // The line of the product's current opening (a restock's drop starts a new one).
    .innerJoin(products, and(eq(products.id, dropQueue.productId), eq(products.dropTime, dropQueue.dropTime)))
    .where(inArray(dropQueue.productId, ids))
    .groupBy(dropQueue.productId);
  const shares = await db
    .select({ productId: sql<number>`share.product_id`, largest: sql<number>`max(share.units)::int` })
    .from(
      sql`(select ${orderItems.productId} as product_id, coalesce(${orders.userId}, ${orders.buyerEmailKey}, ${orders.id}::text) as customer, sum(${orderItems.quantity}) as units
           from ${orderItems} join ${orders} on ${orders.id} = ${orderItems.orderId} join ${products} on ${products.id} = ${orderItems.productId}
           where ${inArray(orderItems.productId, ids)} and ${orders.status} in ('pending_payment', 'paid', 'shipped') and ${sinceCurrentOpening}
           group by 1, 2) as share`,
    )
    .groupBy(sql`share.product_id`);
  const refusals = await db.select().from(dropRefusals).where(inArray(dropRefusals.productId, ids));
  return rows.map((row) => {
    const figure = byProduct.get(row.productId);
    return {
      ...row,
      dropTime: row.dropTime?.toISOString() ?? null,
      held: figure?.held ?? 0,
      sold: figure?.sold ?? 0,
      customers: figure?.customers ?? 0,
      refusedAtPayment: figure?.refusedAtPayment ?? 0,
      alerts: alerts.get(row.productId) ?? 0,
      waiting: queues.find((queue) => queue.productId === row.productId)?.waiting ?? 0,
      admitted: queues.find((queue) => queue.productId === row.productId)?.admitted ?? 0,
      largestShare: shares.find((share) => Number(share.productId) === row.productId)?.largest ?? 0,
      refusals: Object.fromEntries(refusals.filter((refusal) => refusal.productId === row.productId).map((refusal) => [refusal.reason, refusal.count])),
    };
  });
}

/** The products that may become a drop: on sale or coming, not archived, not a drop already. */
export async function dropCandidates(db: Db): Promise<{ id: number; title: string }[]> {
  return db
    .select({ id: products.id, title: products.title })
    .from(products)
    .where(
      and(
        ne(products.status, "hors_ligne"),
        isNull(products.archivedAt),
        notExists(db.select({ one: sql`1` }).from(productDrops).where(eq(productDrops.productId, products.id))),
      ),
    )
    .orderBy(asc(products.title));
}

export type SaveDropResult = { outcome: "created" | "updated"; title: string } | { outcome: "missing" } | { outcome: "duplicate" };

/** Creates a drop (`editing` null) or changes the one of `editing` (its product stays). */
export async function saveDrop(db: Db, editing: number | null, values: DropFormValues, now = new Date()): Promise<SaveDropResult> {
  const { productId: chosen, ...rules } = values;
  const productId = editing ?? chosen;
  const [product] = await db.select({ title: products.title }).from(products).where(and(eq(products.id, productId), isNull(products.archivedAt)));
  if (!product) return { outcome: "missing" };
  if (editing !== null) {
    const updated = await db.update(productDrops).set({ ...rules, updatedAt: now }).where(eq(productDrops.productId, editing)).returning({ id: productDrops.productId });
    return updated.length > 0 ? { outcome: "updated", title: product.title } : { outcome: "missing" };
  }
  const created = await db
    .insert(productDrops)
    .values({ productId, ...rules, createdAt: now, updatedAt: now })
    .onConflictDoNothing({ target: productDrops.productId })
    .returning({ id: productDrops.productId });
  return created.length > 0 ? { outcome: "created", title: product.title } : { outcome: "duplicate" };
}

/** The product is no longer a drop: its limits end (its orders stay as they are). */
export async function deleteDrop(db: Db, productId: number): Promise<{ outcome: "deleted"; title: string } | { outcome: "missing" }> {
  const [deleted] = await db.delete(productDrops).where(eq(productDrops.productId, productId)).returning({ id: productDrops.productId });
  if (!deleted) return { outcome: "missing" };
  const [product] = await db.select({ title: products.title }).from(products).where(eq(products.id, productId));
  return { outcome: "deleted", title: product?.title ?? "" };
}
