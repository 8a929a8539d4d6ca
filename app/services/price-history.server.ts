import { and, asc, eq, gte, sql } from "drizzle-orm";
import { productPrices } from "~/db/schema";
import type { Db, Tx } from "~/db/types";
import { type CompareAtDecision, compareAtDecision, type PricePoint, REFERENCE_PERIOD_DAYS } from "~/domain/reference-price";

/**
 * The part of a product's price history the reference price needs (domain/reference-price): the
 * price in force 30 days before the current price took effect, and every price since, oldest
 * first. One statement on the (product_id, effective_from) index: the current price's start and
 * the price in force 30 days earlier are index look-ups inside it.
 */
export async function readPriceWindow(db: Db | Tx, productId: number): Promise<PricePoint[]> {
  const currentSince = sql`(select max(${productPrices.effectiveFrom}) from ${productPrices} where ${productPrices.productId} = ${productId})`;
  const inForceAtStart = sql`(select ${productPrices.effectiveFrom} from ${productPrices}
    where ${productPrices.productId} = ${productId} and ${productPrices.effectiveFrom} <= ${currentSince} - make_interval(days => ${REFERENCE_PERIOD_DAYS})
    order by ${productPrices.effectiveFrom} desc limit 1)`;
  return db
    .select({ priceCents: productPrices.priceCents, effectiveFrom: productPrices.effectiveFrom })
    .from(productPrices)
    .where(and(eq(productPrices.productId, productId), gte(productPrices.effectiveFrom, sql`coalesce(${inForceAtStart}, '-infinity'::timestamptz)`)))
    .orderBy(asc(productPrices.effectiveFrom), asc(productPrices.id));
}

/** Whether the product's former price may be shown now (read only when it would announce a reduction). */
export async function compareAtDecisionFor(db: Db | Tx, product: { id: number; priceCents: number; compareAtCents: number | null }): Promise<CompareAtDecision> {
  const { id, priceCents, compareAtCents } = product;
  // No former price, or one that is no reduction: decided without reading the history.
  if (compareAtCents === null || compareAtCents <= priceCents) return compareAtDecision({ priceCents, compareAtCents, history: [] });
  return compareAtDecision({ priceCents, compareAtCents, history: await readPriceWindow(db, id) });
}
