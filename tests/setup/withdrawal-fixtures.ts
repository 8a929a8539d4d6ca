// Adds to a copy of the run's data directory template, for the withdrawal end-to-end spec, before its server starts (PGlite
// opens a data directory in one process only): a product to buy, a confirmed customer, and a
// guest's paid order. Usage: node --import tsx tests/setup/withdrawal-fixtures.ts DIR
import path from "node:path";
import { openDatabase } from "~/db/client.server";
import { orderItems, orders, products } from "~/db/schema";
import { productSearchColumns } from "~/domain/search";
import { createUserWithPassword } from "~/services/users.server";
import { WITHDRAWAL_FIXTURES as F } from "./withdrawal-fixtures-data";

const dir = process.argv[2];
if (!dir) throw new Error("usage: withdrawal-fixtures.ts DATA_DIR");
const database = await openDatabase({ kind: "pglite", dataDir: path.resolve(dir) });
try {
  const { db } = database;
  const description = "Produit de test de la rétractation.";
  const [product] = await db
    .insert(products)
    .values({ ...F.product, description, category: "Accessoires", ...productSearchColumns({ title: F.product.title, description, series: null }) })
    .returning({ id: products.id });
  await createUserWithPassword(db, { ...F.customer, role: "user", emailVerified: true });
  const paidAt = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
  const [order] = await db
    .insert(orders)
    .values({
      number: F.guestOrder.number,
      status: "paid",
      customerEmail: F.guestOrder.email,
      customerName: F.guestOrder.name,
      subtotalCents: F.guestOrder.totalCents,
      totalCents: F.guestOrder.totalCents,
      paymentProvider: "test",
      paymentReference: "pi_test_retractation",
      shippingAddress: { method: "home", fullName: F.guestOrder.name, line1: "5 rue du Port", postalCode: "29200", city: "Brest", country: "FR", phone: "06 98 76 54 32" },
      createdAt: paidAt,
      paidAt,
    })
    .returning({ id: orders.id });
  await db.insert(orderItems).values({ orderId: order!.id, productId: product!.id, name: F.product.title, unitPriceCents: F.product.priceCents, quantity: F.guestOrder.quantity });
} finally {
  await database.close();
}
