import { createHmac, randomBytes } from "node:crypto";
import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import {
  orderItems,
  orders,
  productDrops,
  productPreorders,
  products,
  type ProductPreorderRow,
} from "~/db/schema";
import type { Db, Tx } from "~/db/types";
import type { FieldErrors } from "~/domain/field-errors";
import { fieldErrors } from "~/domain/field-errors";
import { parisWallTime } from "~/domain/paris-time";
import { preorderFormSchema } from "~/domain/preorder-form";
import { type Allocation, type AllocationRule, allocateByDraw, allocateByOrder, drawOrder, type PreorderClaim } from "~/domain/preorder-allocation";
import type { CheckoutDrop } from "./drop-limits.server";

/**
 * Pre-orders (issue 55, decision 059): the seller's settings of a pre-order product, and what a
 * checkout needs of them. The checkout takes a pre-order's units from its quantity
 * (reservations.server.ts reservePreorderUnits) and counts its per-customer limit with the
 * drops' machinery (drop-limits.server.ts checkDropLimits).
 */

export async function preorderOf(
  db: Db | Tx,
  productId: number,
): Promise<ProductPreorderRow | null> {
  const [row] = await db
    .select()
    .from(productPreorders)
    .where(eq(productPreorders.productId, productId));
  return row ?? null;
}

export type SavePreorderResult =
  | { outcome: "saved"; preorder: ProductPreorderRow }
  | { outcome: "invalid"; errors: FieldErrors }
  | { outcome: "missing" };

/**
 * Makes a product a pre-order or changes its settings, checked with the form's schema against
 * what is saved (locked: a checkout taking units waits, so the quantity is never set under them).
 */
export async function savePreorder(
  db: Db,
  productId: number,
  input: Record<string, unknown>,
  now = new Date(),
  /** Run in the same transaction once saved (the buyers' e-mails of a date change, preorder-release.server.ts). */
  afterSave?: (tx: Tx, before: ProductPreorderRow | null, after: ProductPreorderRow) => Promise<void>,
): Promise<SavePreorderResult> {
  return db.transaction(async (tx): Promise<SavePreorderResult> => {
    const [product] = await tx
      .select({ id: products.id, archivedAt: products.archivedAt })
      .from(products)
      .where(eq(products.id, productId))
      .for("update");
    if (!product || product.archivedAt) return { outcome: "missing" };
    const [current] = await tx
      .select()
      .from(productPreorders)
      .where(eq(productPreorders.productId, productId))
      .for("update");
    const parsed = preorderFormSchema({
      today: parisWallTime(now).date,
      currentReleaseOn: current?.releaseOn ?? null,
      orderedUnits: current?.orderedUnits ?? 0,
    }).safeParse(input);
    if (!parsed.success)
      return { outcome: "invalid", errors: fieldErrors(parsed.error) };
    // A drop sells units in stock at an opening; a pre-order sells units to come: one or the other.
    const [drop] = await tx
      .select({ productId: productDrops.productId })
      .from(productDrops)
      .where(eq(productDrops.productId, productId));
    if (drop)
      return {
        outcome: "invalid",
        errors: {
          form: "Ce produit est une sortie : retirez-la de « Sorties » pour le vendre en précommande.",
        },
      };
    const [preorder] = await tx
      .insert(productPreorders)
      .values({ productId, ...parsed.data, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({
        target: productPreorders.productId,
        set: { ...parsed.data, updatedAt: now },
      })
      .returning();
    await afterSave?.(tx, current ?? null, preorder!);
    return { outcome: "saved", preorder: preorder! };
  });
}

export type RemovePreorderResult =
  | { outcome: "removed" }
  | { outcome: "ordered"; units: number }
  | { outcome: "missing" };

/** A product stops being a pre-order only while nobody holds a pre-ordered unit of it. */
export async function removePreorder(
  db: Db,
  productId: number,
): Promise<RemovePreorderResult> {
  return db.transaction(async (tx): Promise<RemovePreorderResult> => {
    const [current] = await tx
      .select()
      .from(productPreorders)
      .where(eq(productPreorders.productId, productId))
      .for("update");
    if (!current) return { outcome: "missing" };
    if (current.orderedUnits > 0)
      return { outcome: "ordered", units: current.orderedUnits };
    await tx
      .delete(productPreorders)
      .where(eq(productPreorders.productId, productId));
    return { outcome: "removed" };
  });
}

/** Units left to pre-order (the page's and the checkout's view; the checkout's UPDATE decides). */
export const preorderUnitsLeft = sql<number>`(${productPreorders.quantity} - ${productPreorders.orderedUnits})::int`;

/** How long a pre-order checkout holds its units (minutes): as a drop's default, a hot set's units go back soon. */
const PREORDER_HOLD_MINUTES = 10;

/**
 * The open pre-orders (release still to come, Paris day) among these products, as the drops'
 * limit machinery reads a drop: per-customer limit, no account required, no waiting room.
 */
export async function preorderRulesOf(db: Db | Tx, productIds: number[], now: Date): Promise<Map<number, CheckoutDrop>> {
  if (productIds.length === 0) return new Map();
  const rows = await db
    .select({ productId: productPreorders.productId, perCustomerLimit: productPreorders.perCustomerLimit, name: products.title })
    .from(productPreorders)
    .innerJoin(products, eq(products.id, productPreorders.productId))
    .where(and(inArray(productPreorders.productId, productIds), gt(productPreorders.releaseOn, parisWallTime(now).date)));
  return new Map(
    rows.map((row) => [
      row.productId,
      { ...row, accountRequired: false, holdMinutes: PREORDER_HOLD_MINUTES, startMode: "first_come", fairWindowMinutes: 1, waitingRoom: false },
    ]),
  );
}

/** A draw's seed: random, stored with the allocation so that anyone can replay it. */
export function newAllocationSeed(): string {
  return randomBytes(32).toString("hex");
}

/** A customer's ticket in a draw: nobody can choose it, the seed alone gives it back. */
export function drawTicket(seed: string, customerKey: string): string {
  return createHmac("sha256", seed).update(customerKey).digest("hex");
}

/**
 * The paid pre-orders of a product waiting for their units, in placement order: one claim per
 * order, its customer the account when there is one, else the normalised e-mail (one ticket each
 * in a draw, as the per-customer limit counts them). `orderIds`: those orders whatever their
 * status now (an allocation replayed after its refunds).
 */
export async function preorderClaims(db: Db | Tx, productId: number, orderIds?: string[]): Promise<PreorderClaim[]> {
  const rows = await db
    .select({ orderId: orders.id, userId: orders.userId, emailKey: orders.buyerEmailKey, placedAt: orders.createdAt, units: sql<number>`sum(${orderItems.quantity})::int` })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(and(eq(orderItems.productId, productId), eq(orderItems.preorder, true), orderIds ? inArray(orders.id, orderIds) : eq(orders.status, "paid")))
    .groupBy(orders.id)
    .orderBy(asc(orders.createdAt), asc(orders.id));
  return rows.map((row, seq) => ({
    orderId: row.orderId,
    customerKey: row.userId ? `account:${row.userId}` : `email:${row.emailKey ?? row.orderId}`,
    units: row.units,
    placedAt: row.placedAt,
    seq,
  }));
}

/**
 * What an allocation of `received` units would do, writing nothing: the seller sees it before
 * applying it. A draw needs its seed (newAllocationSeed), given back with the result so that
 * the same seed applied gives the same cut.
 */
export async function previewAllocation(db: Db | Tx, productId: number, choice: { received: number; rule: AllocationRule; seed: string }): Promise<Allocation & { seed: string }> {
  return allocateClaims(await preorderClaims(db, productId), choice);
}

/** The cut of these claims by the rule (a draw's customers ranked by their tickets under the seed). */
export function allocateClaims(claims: PreorderClaim[], choice: { received: number; rule: AllocationRule; seed: string }): Allocation & { seed: string } {
  const allocation =
    choice.rule === "order"
      ? allocateByOrder(claims, choice.received)
      : allocateByDraw(claims, choice.received, drawOrder(claims.map((claim) => claim.customerKey), (key) => drawTicket(choice.seed, key)));
  return { ...allocation, seed: choice.seed };
}
