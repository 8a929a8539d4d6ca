// Adds to a copy of the run's data directory template, for the store-credit spec: a customer
// with a verified e-mail and a password, credit movements on their mailbox (a goodwill credit
// with a validity, one spent), and a product their credit covers with a home delivery. Usage: node --import tsx tests/setup/store-credit-fixtures.ts DIR
import path from "node:path";
import { openDatabase } from "~/db/client.server";
import { products } from "~/db/schema";
import { productSearchColumns } from "~/domain/search";
import { recordMovement } from "~/services/store-credit.server";
import { createUserWithPassword } from "~/services/users.server";
import { STORE_CREDIT_CUSTOMER, STORE_CREDIT_PRODUCT } from "./store-credit-fixtures-data";

const dir = process.argv[2];
if (dir) {
  const database = await openDatabase({ kind: "pglite", dataDir: path.resolve(dir) });
  try {
    await createUserWithPassword(database.db, { ...STORE_CREDIT_CUSTOMER, role: "user", emailVerified: true });
    const email = STORE_CREDIT_CUSTOMER.email;
    await recordMovement(database.db, { email, amountCents: 25_00, kind: "goodwill", reason: "Geste commercial : colis abîmé", author: "seller:fixture", expiresAt: new Date("2027-11-29T10:00:00Z") });
    await recordMovement(database.db, { email, amountCents: 40_00, kind: "buyback", reason: "Rachat n° 12 payé en avoir", author: "seller:fixture" });
    await recordMovement(database.db, { email, amountCents: -12_50, kind: "order", reason: "Commande CPT-000001-0001", author: "customer" });
    const description = "Produit de test de l'avoir.";
    await database.db.insert(products).values({ ...STORE_CREDIT_PRODUCT, description, category: "Accessoires", ...productSearchColumns({ title: STORE_CREDIT_PRODUCT.title, description, series: null }) });
  } finally {
    await database.close();
  }
}
