import { asc, eq, sql } from "drizzle-orm";
import { products, purchaseLots } from "~/db/schema";
import type { Db, Tx } from "~/db/types";

export type PurchaseLotInput = {
  productId: number;
  quantity: number;
  unitCostCents: number;
  source: "buyback" | "manual";
  sourceRef?: string | null;
  receivedAt?: Date;
};

/**
 * Units bought for resale enter stock with their purchase price (issue 54, point 3): the lot
 * and the product's stock change together, so the stock the shop sells from always has a lot
 * behind each unit added this way.
 */
export async function addPurchaseLot(db: Db, lot: PurchaseLotInput): Promise<{ lotId: number; stock: number }> {
  return db.transaction(async (tx) => {
    const [product] = await tx
      .update(products)
      .set({ stock: sql`${products.stock} + ${lot.quantity}`, updatedAt: sql`now()` })
      .where(eq(products.id, lot.productId))
      .returning({ stock: products.stock });
    if (!product) throw new Error(`purchase lot: no product ${lot.productId}`);
    return { lotId: await recordPurchaseLot(tx, lot), stock: product.stock };
  });
}

/**
 * The lot of units already counted in the product's stock: the product form writes the stock
 * itself, then the purchase price of the units it added (or of the whole stock of a product put
 * under the margin scheme). The caller holds the transaction.
 */
export async function recordPurchaseLot(tx: Db | Tx, lot: PurchaseLotInput): Promise<number> {
  if (!Number.isSafeInteger(lot.quantity) || lot.quantity <= 0) throw new Error(`purchase lot: invalid quantity ${lot.quantity}`);
  if (!Number.isSafeInteger(lot.unitCostCents) || lot.unitCostCents < 0) throw new Error(`purchase lot: invalid cost ${lot.unitCostCents}`);
  const [row] = await tx
    .insert(purchaseLots)
    .values({
      productId: lot.productId,
      quantity: lot.quantity,
      remaining: lot.quantity,
      unitCostCents: lot.unitCostCents,
      source: lot.source,
      sourceRef: lot.sourceRef ?? null,
      ...(lot.receivedAt ? { receivedAt: lot.receivedAt } : {}),
    })
    .returning({ id: purchaseLots.id });
  return row!.id;
}

/** A product's lots, oldest first: its admin page shows them. */
export function listPurchaseLots(db: Db, productId: number) {
  return db
    .select({ id: purchaseLots.id, receivedAt: purchaseLots.receivedAt, quantity: purchaseLots.quantity, remaining: purchaseLots.remaining, unitCostCents: purchaseLots.unitCostCents, source: purchaseLots.source })
    .from(purchaseLots)
    .where(eq(purchaseLots.productId, productId))
    .orderBy(asc(purchaseLots.receivedAt), asc(purchaseLots.id));
}
