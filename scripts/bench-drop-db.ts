// The database side of the drop scenario of `npm run bench` (scripts/bench-drop.mjs), run with
// `node --import tsx` on the bench's database (DATA_DIR=… for PGlite, when no server has it open,
// or DATABASE_URL=…). Prints one line of JSON.
//
//   node --import tsx scripts/bench-drop-db.ts seed     DROP_AT=<ISO time> DROP_STOCK=10
//     adds the drop product (status a_venir, drop_time DROP_AT) and names two public products
//     with a known stock (one in stock, one sold out) to validate the bench's stock reader;
//   node --import tsx scripts/bench-drop-db.ts verify   DROP_PRODUCT_ID=<id>
//     the drop product's stock and orders, then the reservation sweeper run 31 minutes ahead
//     (releaseExpiredReservations, as the server's timer runs it), then the same figures again;
//   DROP_RULES='{"perCustomerLimit":1,"startMode":"fair_start","fairWindowMinutes":1}' with seed
//     also makes it a drop (a product_drops row: the waiting room, scripts/bench-drop-fair.mjs);
//   node --import tsx scripts/bench-drop-db.ts customers DROP_PRODUCT_ID=<id>
//     the units held per normalised e-mail and per network (paid and pending), and the tickets.
import { and, asc, eq, gt, sql } from "drizzle-orm";
import { productDrops, products } from "~/db/schema";
import type { Db } from "~/db/types";
import { productPath } from "~/domain/product-url";
import { productSearchColumns } from "~/domain/search";
import { releaseExpiredReservations } from "~/services/reservations.server";
import { displayImagePath, openBenchDatabase, rows, runBenchCommand } from "./bench-db";

const database = await openBenchDatabase();

async function seed(db: Db) {
  const dropAt = new Date(process.env.DROP_AT ?? "");
  if (Number.isNaN(dropAt.getTime())) throw new Error("DROP_AT must be an ISO date");
  const title = "Coffret Dracaufeu Ultra Premium – Drop du soir";
  const description = "Coffret Dracaufeu Ultra Premium, version française, scellé. Quantité très limitée : un exemplaire par client.";
  const series = "Écarlate et Violet";
  const [drop] = await db
    .insert(products)
    .values({
      title,
      description,
      priceCents: 14_999,
      stock: Number(process.env.DROP_STOCK ?? 10),
      category: "TCG",
      subCategory: "Scellés",
      series,
      status: "a_venir",
      dropTime: dropAt,
      imagePath: displayImagePath(),
      ...productSearchColumns({ title, series, description }),
    })
    .returning({ id: products.id, title: products.title, stock: products.stock });
  if (process.env.DROP_RULES) await db.insert(productDrops).values({ productId: drop!.id, ...JSON.parse(process.env.DROP_RULES) });
  // Two public products whose stock is known here: the bench checks its reading of the page
  // data against them before the drop (a reader that cannot see the stock must not say "0").
  const known = async (inStock: boolean) => {
    const [row] = await db
      .select({ id: products.id, title: products.title, stock: products.stock })
      .from(products)
      .where(and(eq(products.status, "en_ligne"), inStock ? gt(products.stock, 1) : eq(products.stock, 0)))
      .orderBy(asc(products.id))
      .limit(1);
    return row ? { id: row.id, path: productPath({ id: row.id, name: row.title }), stock: row.stock } : null;
  };
  return {
    drop: { id: drop!.id, path: productPath({ id: drop!.id, name: drop!.title }), stock: drop!.stock, dropAt: dropAt.toISOString() },
    inStock: await known(true),
    soldOut: await known(false),
  };
}

/** The drop product's stock and the orders holding it, by status. */
async function state(db: Db, productId: number) {
  const [product] = await rows(db, sql`select stock, status from products where id = ${productId}`);
  const byStatus = await rows(
    db,
    sql`select o.status, count(*)::int as orders, coalesce(sum(i.quantity), 0)::int as units
        from orders o join order_items i on i.order_id = o.id
        where i.product_id = ${productId} group by o.status order by o.status`,
  );
  const [all] = await rows(db, sql`select count(*)::int as n from orders`);
  return {
    stock: Number(product?.stock),
    status: String(product?.status),
    orders: Object.fromEntries(byStatus.map((r) => [String(r.status), { orders: Number(r.orders), units: Number(r.units) }])),
    allOrders: Number(all?.n),
  };
}

async function verify(db: Db) {
  const productId = Number(process.env.DROP_PRODUCT_ID);
  if (!Number.isInteger(productId)) throw new Error("DROP_PRODUCT_ID must be a product id");
  const before = await state(db, productId);
  const sweepAt = new Date(Date.now() + 31 * 60_000);
  const released = await releaseExpiredReservations(db, sweepAt, { postgres: database.kind === "postgres" });
  const after = await state(db, productId);
  return { before, sweptAt: sweepAt.toISOString(), released: released.length, after };
}

/** Who holds the drop's units (paid or pending), by normalised e-mail and by network; the waiting room's tickets. */
async function customers(db: Db) {
  const productId = Number(process.env.DROP_PRODUCT_ID);
  if (!Number.isInteger(productId)) throw new Error("DROP_PRODUCT_ID must be a product id");
  const units = await rows(
    db,
    sql`select o.status, o.buyer_email_key as email_key, o.client_network as network, o.customer_email as email, sum(i.quantity)::int as units
        from orders o join order_items i on i.order_id = o.id
        where i.product_id = ${productId} group by o.id order by o.created_at`,
  );
  const tickets = await rows(db, sql`select status, network, identity, count(*)::int as n from drop_queue where product_id = ${productId} group by status, network, identity`);
  const [product] = await rows(db, sql`select stock from products where id = ${productId}`);
  return { stock: Number(product?.stock), orders: units, tickets };
}

await runBenchCommand(database, { seed, verify, customers });
