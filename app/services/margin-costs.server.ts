import { and, asc, eq, gt, sql } from "drizzle-orm";
import { orderItemCosts, orderItems, purchaseLots } from "~/db/schema";
import type { Db, Tx } from "~/db/types";
import { type CostSegment, allocateFifo, returnUnits } from "~/domain/margin-vat";

/**
 * The purchase price of margin-scheme units sold (docs/decisions/057): taken from the product's
 * lots first in, first out when the order is paid, in the paid transaction. The lot rows are
 * locked (FOR UPDATE, oldest first) so that two orders paid at once never take the same unit.
 */
export async function costMarginSales(tx: Db | Tx, orderId: string): Promise<void> {
  const lines = await tx
    .select({ id: orderItems.id, productId: orderItems.productId, quantity: orderItems.quantity })
    .from(orderItems)
    .where(and(eq(orderItems.orderId, orderId), eq(orderItems.vatScheme, "margin")))
    .orderBy(asc(orderItems.id));
  for (const line of lines) {
    const lots =
      line.productId === null
        ? []
        : await tx
            .select({ lotId: purchaseLots.id, remaining: purchaseLots.remaining, unitCostCents: purchaseLots.unitCostCents })
            .from(purchaseLots)
            .where(and(eq(purchaseLots.productId, line.productId), gt(purchaseLots.remaining, 0)))
            .orderBy(asc(purchaseLots.receivedAt), asc(purchaseLots.id))
            .for("update");
    const segments = allocateFifo(lots, line.quantity);
    for (const segment of segments) {
      if (segment.lotId !== null) await tx.update(purchaseLots).set({ remaining: sql`${purchaseLots.remaining} - ${segment.quantity}` }).where(eq(purchaseLots.id, segment.lotId));
    }
    await tx.insert(orderItemCosts).values(segments.map((segment) => ({ orderItemId: line.id, ...segment })));
  }
}

/** A line's units as they stand: what was taken from each lot less what came back, in the order taken. */
export function netSegments(rows: readonly { lotId: number | null; quantity: number; unitCostCents: number | null }[]): CostSegment[] {
  const segments: CostSegment[] = [];
  for (const row of rows) {
    const same = segments.find((segment) => segment.lotId === row.lotId && segment.unitCostCents === row.unitCostCents);
    if (same) same.quantity += row.quantity;
    else segments.push({ lotId: row.lotId, quantity: row.quantity, unitCostCents: row.unitCostCents });
  }
  return segments.filter((segment) => segment.quantity > 0);
}

/**
 * Units of a margin-scheme line put back in stock (a refund with its units returned, a
 * cancellation): each goes back to the lot it came from, newest first; a negative row records it.
 * A line that was never costed (not margin-scheme, or sold before purchase prices) is left alone.
 */
export async function returnUnitsToLots(tx: Db | Tx, orderItemId: string, quantity: number, refundId: string | null): Promise<void> {
  const rows = await tx
    .select({ lotId: orderItemCosts.lotId, quantity: orderItemCosts.quantity, unitCostCents: orderItemCosts.unitCostCents })
    .from(orderItemCosts)
    .where(eq(orderItemCosts.orderItemId, orderItemId))
    .orderBy(asc(orderItemCosts.id));
  if (rows.length === 0 || quantity <= 0) return;
  const { returned } = returnUnits(netSegments(rows), quantity);
  for (const segment of returned) {
    if (segment.lotId !== null) await tx.update(purchaseLots).set({ remaining: sql`${purchaseLots.remaining} + ${segment.quantity}` }).where(eq(purchaseLots.id, segment.lotId));
  }
  if (returned.length > 0) await tx.insert(orderItemCosts).values(returned.map((segment) => ({ orderItemId, ...segment, quantity: -segment.quantity, refundId })));
}
