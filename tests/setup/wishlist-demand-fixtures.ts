// Prepares a data directory for the seller's demand spec (issue 56, point 3) before its server
// starts (PGlite opens a data directory in one process only): the seller, two sold-out products,
// customers who have them on their wish lists, and a confirmed « Prévenez-moi » alert.
// Usage: node --import tsx tests/setup/wishlist-demand-fixtures.ts DIR
import path from "node:path";
import { openDatabase } from "~/db/client.server";
import { products, stockAlerts, users, wishlistItems } from "~/db/schema";
import { ALERT_CONSENT_TEXT } from "~/domain/stock-alerts";
import { productSearchColumns } from "~/domain/search";
import { ensureAdminAccount } from "~/services/seed.server";
import { WISHLIST_DEMAND_FIXTURES as F } from "./wishlist-demand-fixtures-data";

const dir = process.argv[2];
if (!dir) throw new Error("usage: wishlist-demand-fixtures.ts DATA_DIR");
const database = await openDatabase({ kind: "pglite", dataDir: path.resolve(dir) });
try {
  const { db } = database;
  await ensureAdminAccount(db, F.admin);
  const ids: number[] = [];
  for (const product of F.products) {
    const description = "Produit attendu par des clients.";
    const { waiting: _waiting, ...values } = product;
    const [row] = await db
      .insert(products)
      .values({ ...values, description, category: "TCG", subCategory: "Scellés", ...productSearchColumns({ title: product.title, description, series: null }) })
      .returning({ id: products.id });
    ids.push(row!.id);
  }
  const customers = ["Alice", "Bastien", "Chloé"].map((name, index) => ({ id: `demande-${index}`, name, email: `${name.toLowerCase()}.demande@example.com`, emailVerified: true }));
  await db.insert(users).values(customers);
  await db.insert(wishlistItems).values([...customers.map((customer) => ({ userId: customer.id, productId: ids[0]! })), { userId: customers[0]!.id, productId: ids[1]! }]);
  // A fourth address waits through « Prévenez-moi »; Alice's own alert counts once with her list.
  await db.insert(stockAlerts).values([
    { productId: ids[0]!, email: "visiteur.demande@example.com", status: "active", consentText: ALERT_CONSENT_TEXT, confirmedAt: new Date() },
    { productId: ids[0]!, email: customers[0]!.email, status: "active", consentText: ALERT_CONSENT_TEXT, confirmedAt: new Date() },
  ]);
} finally {
  await database.close();
}
