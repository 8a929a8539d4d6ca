// Adds to a copy of the run's data directory template (the sample catalogue, seeded), for the
// delivery, VAT and invoice end-to-end spec, before its server starts (PGlite opens a data
// directory in one process only): the seller's complete legal identity, as /admin/settings
// saves it. Usage: node --import tsx tests/setup/invoice-fixtures.ts DIR
import path from "node:path";
import { openDatabase } from "~/db/client.server";
import { legalIdentitySchema } from "~/domain/shop-identity-schema";
import { saveShopIdentity } from "~/services/shop-identity.server";
import { INVOICE_FIXTURES as F } from "./invoice-fixtures-data";

const dir = process.argv[2];
if (!dir) throw new Error("usage: invoice-fixtures.ts DATA_DIR");
const database = await openDatabase({ kind: "pglite", dataDir: path.resolve(dir) });
try {
  const identity = legalIdentitySchema.parse(F.identity);
  // The spec looks for these very strings: they must be the stored forms.
  if (JSON.stringify(identity) !== JSON.stringify(F.identity)) throw new Error(`the identity is not in its stored form: ${JSON.stringify(identity)}`);
  await saveShopIdentity(database.db, identity);
} finally {
  await database.close();
}
