import { asc, count, eq, inArray, sql } from "drizzle-orm";
import { orders, shippingMethods } from "~/db/schema";
import type { Db, Tx } from "~/db/types";
import type { ShippingMethodFormValues } from "~/domain/shipping-method-form";

/**
 * The seller's delivery methods, as /admin/shipping changes them (checkout reads the active ones
 * through ./shipping.server.ts). An order keeps its method's name, kind, delay and price, so a
 * method edited or deleted later leaves its orders as they were; a method orders point to is
 * deactivated rather than deleted, so the seller still sees it with its figures. Like the
 * promotions, discount codes and site messages, these settings write no journal: the admin
 * journal is the products' (product_admin).
 */

export type ShippingMethod = typeof shippingMethods.$inferSelect;
export type ShippingMethodListRow = ShippingMethod & { orderCount: number };

const byPosition = [asc(shippingMethods.position), asc(shippingMethods.id)];

/** Every method, active or not, in the seller's order, with how many orders chose it. */
export async function listShippingMethods(db: Db): Promise<ShippingMethodListRow[]> {
  const methods = await db
    .select()
    .from(shippingMethods)
    .orderBy(...byPosition);
  if (methods.length === 0) return [];
  const counts = await db
    .select({ id: orders.shippingMethodId, n: count() })
    .from(orders)
    .where(
      inArray(
        orders.shippingMethodId,
        methods.map((method) => method.id),
      ),
    )
    .groupBy(orders.shippingMethodId);
  const byId = new Map(counts.map((row) => [row.id, row.n]));
  return methods.map((method) => ({ ...method, orderCount: byId.get(method.id) ?? 0 }));
}

/** An id as a form posts it: a positive integer, else null (never a database error). */
export function shippingMethodId(value: unknown): number | null {
  if (typeof value !== "string" || !/^[1-9]\d{0,9}$/.test(value)) return null;
  const id = Number(value);
  return id <= 2_147_483_647 ? id : null;
}

export async function getShippingMethod(db: Db, id: number): Promise<ShippingMethod | null> {
  const [row] = await db.select().from(shippingMethods).where(eq(shippingMethods.id, id));
  return row ?? null;
}

/** A new method, last in the list: the seller's own (reviewedAt). */
export async function createShippingMethod(db: Db, values: ShippingMethodFormValues, now = new Date()): Promise<ShippingMethod> {
  const [row] = await db
    .insert(shippingMethods)
    .values({
      ...values,
      position: sql`(select coalesce(max(${shippingMethods.position}), 0) + 1 from ${shippingMethods})`,
      createdAt: now,
      updatedAt: now,
      reviewedAt: now,
    })
    .returning();
  return row!;
}

/**
 * Saves an edited method; null when it is gone. Its orders keep what they were sold with. Saved
 * from the form, it is the seller's own from now on, an example of the start included, changed
 * or not (reviewedAt: the launch checklist's "Modes de livraison").
 */
export async function updateShippingMethod(db: Db, id: number, values: ShippingMethodFormValues, now = new Date()): Promise<ShippingMethod | null> {
  const [row] = await db
    .update(shippingMethods)
    .set({ ...values, updatedAt: now, reviewedAt: now })
    .where(eq(shippingMethods.id, id))
    .returning();
  return row ?? null;
}

/** On or off from the list's switch: it does not check a method's rates (an example switched on is still one). */
export async function setShippingMethodActive(db: Db, id: number, active: boolean, now = new Date()): Promise<ShippingMethod | null> {
  const [row] = await db.update(shippingMethods).set({ active, updatedAt: now }).where(eq(shippingMethods.id, id)).returning();
  return row ?? null;
}

export type DeleteShippingResult =
  | { outcome: "deleted"; method: ShippingMethod }
  | { outcome: "deactivated"; method: ShippingMethod; orderCount: number }
  | { outcome: "missing" };

/**
 * Deletes a method no order chose; one that orders point to is deactivated instead (no longer
 * offered, kept in the list with its orders' count). The row is locked first: an order being
 * written with it at the same moment waits (its foreign key), then counts.
 */
export async function deleteShippingMethod(db: Db, id: number, now = new Date()): Promise<DeleteShippingResult> {
  return db.transaction(async (tx) => {
    const [locked] = await tx.select().from(shippingMethods).where(eq(shippingMethods.id, id)).for("update");
    if (!locked) return { outcome: "missing" } as const;
    const orderCount = await ordersWith(tx, id);
    if (orderCount > 0) {
      const [method] = await tx.update(shippingMethods).set({ active: false, updatedAt: now }).where(eq(shippingMethods.id, id)).returning();
      return { outcome: "deactivated", method: method!, orderCount } as const;
    }
    await tx.delete(shippingMethods).where(eq(shippingMethods.id, id));
    return { outcome: "deleted", method: locked } as const;
  });
}

async function ordersWith(tx: Tx, id: number): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(orders).where(eq(orders.shippingMethodId, id));
  return row?.n ?? 0;
}

export type MoveResult = { outcome: "moved" | "unchanged"; methods: ShippingMethod[] } | { outcome: "missing" };

/**
 * Moves a method one place up or down the seller's order (the order the cart shows on equal
 * prices). Every row is locked and numbered again 1, 2, 3…: two moves at once apply one after
 * the other, and positions left equal by older data come out distinct.
 */
export async function moveShippingMethod(db: Db, id: number, direction: "up" | "down"): Promise<MoveResult> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(shippingMethods)
      .orderBy(...byPosition)
      .for("update");
    const from = rows.findIndex((row) => row.id === id);
    if (from === -1) return { outcome: "missing" } as const;
    const to = direction === "up" ? from - 1 : from + 1;
    const moved = to >= 0 && to < rows.length;
    if (moved) [rows[from], rows[to]] = [rows[to]!, rows[from]!];
    const result: ShippingMethod[] = [];
    for (const [index, row] of rows.entries()) {
      const position = index + 1;
      if (row.position === position) {
        result.push(row);
        continue;
      }
      const [updated] = await tx
        .update(shippingMethods)
        .set({ position })
        .where(eq(shippingMethods.id, row.id))
        .returning();
      result.push(updated!);
    }
    return { outcome: moved ? "moved" : "unchanged", methods: result } as const;
  });
}
