import { asc } from "drizzle-orm";
import { products } from "~/db/schema";
import type { Db } from "~/db/types";
import { publicProductsNow } from "./catalog.server";

export type SitemapProduct = { id: number; name: string; updatedAt: Date };

/** Every product the public may see now, with what its URL and lastmod need. */
export async function listSitemapProducts(db: Db, now: Date): Promise<SitemapProduct[]> {
  return db
    .select({ id: products.id, name: products.title, updatedAt: products.updatedAt })
    .from(products)
    .where(await publicProductsNow(db, now))
    .orderBy(asc(products.id));
}
