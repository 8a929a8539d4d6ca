// Adds to a copy of the run's data directory template, for the withdrawal end-to-end spec, before its server starts (PGlite
// opens a data directory in one process only): a product to buy, a confirmed customer, and a
// guest's paid order. Usage: node --import tsx tests/setup/withdrawal-fixtures.ts DIR
import path from "node:path";
import { openDatabase } from "~/db/client.server";
import { orderItems, orders, products } from "~/db/schema";
import { productSearchColumns } from "~/domain/search";
import { EMPTY_IDENTITY } from "~/domain/shop-identity";
import { issueInvoice } from "~/services/invoices.server";
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

  // A shipped order of two articles, for a withdrawal of one of them.
  const S = F.shippedGuestOrder;
  const [display] = await db
    .insert(products)
    .values({ ...S.display, description, category: "Accessoires", ...productSearchColumns({ title: S.display.title, description, series: null }) })
    .returning({ id: products.id });
  const [shipped] = await db
    .insert(orders)
    .values({
      number: S.number,
      status: "shipped",
      customerEmail: S.email,
      customerName: S.name,
      subtotalCents: S.totalCents - S.shippingCents,
      shippingCents: S.shippingCents,
      totalCents: S.totalCents,
      paymentProvider: "test",
      paymentReference: "pi_test_retractation_partielle",
      shippingAddress: { method: "home", fullName: S.name, line1: "8 quai des Chartrons", postalCode: "33000", city: "Bordeaux", country: "FR", phone: "06 11 22 33 44" },
      carrier: "colissimo",
      trackingNumber: "6A98765432109",
      createdAt: paidAt,
      paidAt,
      shippedAt: new Date(paidAt.getTime() + 24 * 60 * 60 * 1000),
    })
    .returning({ id: orders.id });
  await db.insert(orderItems).values([
    { orderId: shipped!.id, productId: product!.id, name: F.product.title, unitPriceCents: F.product.priceCents, quantity: 1 },
    { orderId: shipped!.id, productId: display!.id, name: S.display.title, unitPriceCents: S.display.priceCents, quantity: 1 },
  ]);
  // Its invoice, as its payment's transaction issues it: its refund gets a credit note.
  await db.transaction((tx) => issueInvoice(tx, shipped!.id, { ...EMPTY_IDENTITY, companyName: "Comptoir", email: "contact@comptoir.test" }, paidAt));
} finally {
  await database.close();
}
