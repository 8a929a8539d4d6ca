import { and, eq, inArray, isNotNull, ne, notLike, or, sql } from "drizzle-orm";
import { dropRefusals, orderItems, orders, productDrops, productPreorders, products } from "~/db/schema";
import type { Db, Tx } from "~/db/types";
import type { OrderStatus } from "~/domain/catalog-values";
import { ADDRESS_KEY_VERSION, addressKey } from "~/domain/address-key";
import {
  type DropLine,
  type DropRefusal,
  type DropRules,
  emailKey,
  identityRefusal,
  limitRefusal,
  networkRefusal,
  pendingRefusal,
  quantityRefusal,
  UNPAID_DROP_ORDERS_PER_NETWORK,
} from "~/domain/drop-rules";
import type { ShippingAddress } from "~/domain/order-view";

/**
 * A drop's per-customer limits (issue 39, domain/drop-rules.ts), checked in the transaction
 * that takes the units. Who the customer is: the account, the normalised e-mail and, at payment,
 * the delivery address; the client's network bounds the unpaid drop orders open at once. Each
 * key is locked for the transaction (an advisory lock, in one order everywhere) before it is
 * counted, so two checkouts of one customer (two browsers, two instances) are decided one after
 * the other and cannot both pass.
 */

/** Orders whose units a customer holds or has bought: they count toward the limit. */
export const HOLDING: OrderStatus[] = ["pending_payment", "paid", "shipped"];

/**
 * Orders of the product's current opening (queries that join `products`): a restock's drop is a
 * new drop, with its own limits and figures; a drop without an opening time counts them all
 * (decision 039).
 */
export const sinceCurrentOpening = sql`(${products.dropTime} is null or ${orders.createdAt} >= ${products.dropTime})`;

/** A drop's rules as a checkout needs them: with its product's name, and whether it is bought through a waiting room (it has an opening time). */
export type CheckoutDrop = DropRules & { name: string; waitingRoom: boolean };

/** The drops among these products, in one read (the checkout's, before its transaction and for it). */
export async function dropRulesOf(db: Db | Tx, productIds: number[]): Promise<Map<number, CheckoutDrop>> {
  if (productIds.length === 0) return new Map();
  const rows = await db
    .select({ rules: productDrops, name: products.title, dropTime: products.dropTime })
    .from(productDrops)
    .innerJoin(products, eq(products.id, productDrops.productId))
    .where(inArray(productDrops.productId, productIds));
  return new Map(rows.map(({ rules, name, dropTime }) => [rules.productId, { ...rules, name, waitingRoom: dropTime !== null }]));
}

/** Locks the keys for the rest of the transaction, sorted (no two transactions wait on each other in a circle). */
async function lockKeys(tx: Db | Tx, keys: string[]): Promise<void> {
  for (const key of [...new Set(keys)].sort()) await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`drop:${key}`}, 0))`);
}

export type DropBuyer = { userId: string | null; email: string | null; network: string };

/**
 * The checkout's drop lines against the buyer's limits, before any unit is taken: null when it
 * may go on, else the refusal that names the limit (nothing is written).
 */
export async function checkDropLimits(tx: Db | Tx, lines: DropLine[], buyer: DropBuyer): Promise<DropRefusal | null> {
  if (lines.length === 0) return null;
  for (const line of lines) {
    const refusal = quantityRefusal(line) ?? identityRefusal(line, { signedIn: buyer.userId !== null, email: buyer.email });
    if (refusal) return refusal;
  }
  const email = emailKey(buyer.email!);
  await lockKeys(tx, [`email:${email}`, `network:${buyer.network}`, ...(buyer.userId ? [`account:${buyer.userId}`] : [])]);
  const theirs = or(eq(orders.buyerEmailKey, email), buyer.userId ? eq(orders.userId, buyer.userId) : undefined);
  const productIds = lines.map((line) => line.productId);

  const held = await tx
    .select({ productId: orderItems.productId, status: orders.status, units: sql<number>`sum(${orderItems.quantity})::int` })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .innerJoin(products, eq(products.id, orderItems.productId))
    .where(and(inArray(orderItems.productId, productIds), inArray(orders.status, HOLDING), theirs, sinceCurrentOpening))
    .groupBy(orderItems.productId, orders.status);
  for (const line of lines) {
    const rows = held.filter((row) => row.productId === line.productId);
    // One unpaid order per customer per drop: pay it or cancel it first.
    if (rows.some((row) => row.status === "pending_payment")) return pendingRefusal(line);
    const refusal = limitRefusal(line, rows.reduce((sum, row) => sum + row.units, 0));
    if (refusal) return refusal;
  }

  const [open] = await tx
    .select({ orders: sql<number>`count(distinct ${orders.id})::int` })
    .from(orders)
    .innerJoin(orderItems, eq(orderItems.orderId, orders.id))
    .innerJoin(productDrops, eq(productDrops.productId, orderItems.productId))
    .where(and(eq(orders.clientNetwork, buyer.network), eq(orders.status, "pending_payment")));
  if ((open?.orders ?? 0) >= UNPAID_DROP_ORDERS_PER_NETWORK) return networkRefusal(lines[0]!.productId);
  return null;
}

/**
 * At payment, the delivery address is known: an order that would take a drop's units to an
 * address over the limit (other paid orders to the same place, whatever e-mail they used) is
 * not fulfilled. Returns the product over its limit, or null (the order's address key is then
 * kept, for the next ones).
 */
export async function dropAddressOverLimit(tx: Tx, orderId: string, address: ShippingAddress | null): Promise<{ productId: number; limit: number } | null> {
  if (!address) return null;
  // A drop's lines, and a pre-order's (issue 55: its limit holds for the address as well).
  const lines = await tx
    .select({ productId: orderItems.productId, quantity: orderItems.quantity, limit: sql<number>`coalesce(${productDrops.perCustomerLimit}, ${productPreorders.perCustomerLimit})` })
    .from(orderItems)
    .leftJoin(productDrops, eq(productDrops.productId, orderItems.productId))
    .leftJoin(productPreorders, and(eq(productPreorders.productId, orderItems.productId), eq(orderItems.preorder, true)))
    .where(and(eq(orderItems.orderId, orderId), or(isNotNull(productDrops.productId), isNotNull(productPreorders.productId))));
  if (lines.length === 0) return null;
  const productIds = lines.map((line) => line.productId!);
  await rekeyEarlierOrders(tx, productIds);
  const key = addressKey(address);
  await lockKeys(tx, [`address:${key}`]);
  const held = await tx
    .select({ productId: orderItems.productId, units: sql<number>`sum(${orderItems.quantity})::int` })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .innerJoin(products, eq(products.id, orderItems.productId))
    .where(and(inArray(orderItems.productId, productIds), eq(orders.buyerAddressKey, key), inArray(orders.status, ["paid", "shipped"]), ne(orders.id, orderId), sinceCurrentOpening))
    .groupBy(orderItems.productId);
  for (const line of lines) {
    const already = held.find((row) => row.productId === line.productId)?.units ?? 0;
    if (already + line.quantity > line.limit) return { productId: line.productId!, limit: line.limit };
  }
  await tx.update(orders).set({ buyerAddressKey: key }).where(eq(orders.id, orderId));
  return null;
}

/**
 * The orders of these products keyed by earlier rules (a key of another ADDRESS_KEY_VERSION) are
 * keyed again from the address they keep, so that they go on counting: the first payment of a
 * product after an update does it, later ones find none. In the order of their ids, so that two
 * payments doing it at once wait for each other rather than deadlock.
 */
async function rekeyEarlierOrders(tx: Tx, productIds: number[]): Promise<void> {
  const earlier = await tx
    .selectDistinct({ id: orders.id, address: orders.shippingAddress })
    .from(orders)
    .innerJoin(orderItems, eq(orderItems.orderId, orders.id))
    .where(and(inArray(orderItems.productId, productIds), isNotNull(orders.buyerAddressKey), notLike(orders.buyerAddressKey, `${ADDRESS_KEY_VERSION}|%`)))
    .orderBy(orders.id);
  for (const order of earlier) {
    await tx.update(orders).set({ buyerAddressKey: order.address ? addressKey(order.address) : null }).where(eq(orders.id, order.id));
  }
}

/**
 * Why a drop's checkout was refused, as the fairness summary counts it: the answer's code, and
 * for a checkout out of turn whether it brought no admission, a forged or ended one, or one
 * already used (all three answer DROP_ADMISSION).
 */
export type DropRefusalReason = DropRefusal["code"] | "DROP_ADMISSION_FORGED" | "DROP_ADMISSION_USED";

/** Counts refused checkouts of a drop by their reason (the seller's fairness summary), once the refusal has rolled back. */
export async function countDropRefusal(db: Db, productId: number, reason: DropRefusalReason, count = 1): Promise<void> {
  await db
    .insert(dropRefusals)
    .values({ productId, reason, count })
    .onConflictDoUpdate({ target: [dropRefusals.productId, dropRefusals.reason], set: { count: sql`${dropRefusals.count} + ${count}` } });
}
