import { count } from "drizzle-orm";
import { products } from "~/db/schema";
import type { Db } from "~/db/types";
import { PRODUCT_STATUSES, type ProductStatus } from "~/domain/catalog-values";

/** How many products each status holds (admin home). */
export async function countProductsByStatus(db: Db): Promise<Record<ProductStatus, number>> {
  const rows = await db.select({ status: products.status, n: count() }).from(products).groupBy(products.status);
  const counts = Object.fromEntries(PRODUCT_STATUSES.map((status) => [status, 0])) as Record<ProductStatus, number>;
  for (const row of rows) counts[row.status] = Number(row.n);
  return counts;
}
