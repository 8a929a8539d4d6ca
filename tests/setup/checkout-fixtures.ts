// Adds to a copy of the run's data directory template, for the checkout end-to-end specs, before their server starts (PGlite
// opens a data directory in one process only): products at the insurance thresholds, a product
// to buy, and a confirmed customer. Usage: node --import tsx tests/setup/checkout-fixtures.ts DIR
import path from "node:path";
import { openDatabase } from "~/db/client.server";
import { products } from "~/db/schema";
import { productSearchColumns } from "~/domain/search";
import { createUserWithPassword } from "~/services/users.server";
import { CHECKOUT_FIXTURES } from "./checkout-fixtures-data";

const dir = process.argv[2];
if (!dir) throw new Error("usage: checkout-fixtures.ts DATA_DIR");
const database = await openDatabase({ kind: "pglite", dataDir: path.resolve(dir) });
try {
  const { customers, ...items } = CHECKOUT_FIXTURES;
  for (const item of Object.values(items)) {
    await database.db.insert(products).values({
      ...item,
      description: "Produit de test du paiement.",
      category: "Accessoires",
      ...productSearchColumns({ title: item.title, description: "Produit de test du paiement.", series: null }),
    });
  }
  for (const customer of customers) {
    await createUserWithPassword(database.db, { ...customer, role: "user", emailVerified: true });
  }
} finally {
  await database.close();
}
