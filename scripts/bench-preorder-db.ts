// The database side of the pre-order scenario of `npm run bench` (scripts/bench-preorder.mjs),
// run with `node --import tsx` on the bench's database (DATA_DIR=… for PGlite, when no server has
// it open, or DATABASE_URL=…). Prints one line of JSON.
//
//   node --import tsx scripts/bench-preorder-db.ts seed     PREORDER_QUANTITY=300 PREORDER_LIMIT=2
//     adds a product sold as a pre-order (release a week ahead) of that quantity and limit;
//   node --import tsx scripts/bench-preorder-db.ts verify   PREORDER_PRODUCT_ID=<id>
//     its units pre-ordered (the cap's counter) and the units of the orders holding them, and the
//     most units one buyer's e-mail holds.
import { sql } from "drizzle-orm";
import { productPreorders, products } from "~/db/schema";
import type { Db } from "~/db/types";
import { productSearchColumns } from "~/domain/search";
import { displayImagePath, openBenchDatabase, rows, runBenchCommand } from "./bench-db";

async function seed(db: Db) {
  const title = "Display Évolutions Prismatiques – Précommande";
  const description = "Display de 36 boosters, version française, scellé. Précommande payée à la commande.";
  const series = "Écarlate et Violet";
  const [product] = await db
    .insert(products)
    .values({ title, description, priceCents: 21_999, stock: 0, category: "TCG", subCategory: "Scellés", series, imagePath: displayImagePath(), ...productSearchColumns({ title, series, description }) })
    .returning({ id: products.id });
  const releaseOn = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  const quantity = Number(process.env.PREORDER_QUANTITY ?? 300);
  const perCustomerLimit = Number(process.env.PREORDER_LIMIT ?? 2);
  await db.insert(productPreorders).values({ productId: product!.id, releaseOn, estimatedDeliveryOn: releaseOn, quantity, perCustomerLimit });
  return { productId: product!.id, quantity, perCustomerLimit, releaseOn };
}

async function verify(db: Db) {
  const id = Number(process.env.PREORDER_PRODUCT_ID);
  const [counter] = await rows(db, sql`select quantity, ordered_units as "orderedUnits" from product_preorders where product_id = ${id}`);
  const [held] = await rows(
    db,
    sql`select coalesce(sum(i.quantity), 0)::int as units, count(distinct o.id)::int as orders
        from order_items i join orders o on o.id = i.order_id
        where i.product_id = ${id} and i.preorder and o.status in ('pending_payment', 'paid')`,
  );
  const [largest] = await rows(
    db,
    sql`select coalesce(max(units), 0)::int as units from (
          select sum(i.quantity) as units from order_items i join orders o on o.id = i.order_id
          where i.product_id = ${id} and i.preorder and o.status in ('pending_payment', 'paid') group by o.buyer_email_key) per_buyer`,
  );
  return { quantity: Number(counter!.quantity), orderedUnits: Number(counter!.orderedUnits), heldUnits: Number(held!.units), orders: Number(held!.orders), largestPerBuyer: Number(largest!.units) };
}

await runBenchCommand(await openBenchDatabase(), { seed, verify });
