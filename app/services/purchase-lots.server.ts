import { eq, sql } from "drizzle-orm";
import { products, purchaseLots } from "~/db/schema";
import type { Db } from "~/db/types";

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
  if (!Number.isSafeInteger(lot.quantity) || lot.quantity <= 0) throw new Error(`purchase lot: invalid quantity ${lot.quantity}`);
  if (!Number.isSafeInteger(lot.unitCostCents) || lot.unitCostCents < 0) throw new Error(`purchase lot: invalid cost ${lot.unitCostCents}`);
  return db.transaction(async (tx) => {
    const [product] = await tx
      .update(products)
      .set({ stock: sql`${products.stock} + ${lot.quantity}`, updatedAt: sql`now()` })
      .where(eq(products.id, lot.productId))
      .returning({ stock: products.stock });
    if (!product) throw new Error(`purchase lot: no product ${lot.productId}`);
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
    return { lotId: row!.id, stock: product.stock };
  });
}
