import { productPreorders, products } from "~/db/schema";
import type { Db } from "~/db/types";

/**
 * A sealed TCG product sold in pre-order only (no stock), its pre-order row written straight in
 * (the settings form is tested on its own): its id. The delivery is estimated on the release day
 * unless said otherwise.
 */
export async function insertPreorderProduct(
  db: Db,
  product: { title: string; priceCents: number },
  preorder: { releaseOn: string; estimatedDeliveryOn?: string; quantity: number; perCustomerLimit: number },
) {
  const [row] = await db
    .insert(products)
    .values({ ...product, stock: 0, category: "TCG", subCategory: "Scellés" })
    .returning();
  await db.insert(productPreorders).values({ ...preorder, productId: row!.id, estimatedDeliveryOn: preorder.estimatedDeliveryOn ?? preorder.releaseOn });
  return row!.id;
}
