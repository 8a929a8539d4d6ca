// Adds to a copy of the run's data directory template, for the buy-back journey spec: the
// collector's account, its e-mail verified (what no page of the shop can do without a mailbox).
// Everything else of the journey goes through the pages.
// Usage: node --import tsx tests/setup/buyback-journey-fixtures.ts DIR
import path from "node:path";
import { openDatabase } from "~/db/client.server";
import { createUserWithPassword } from "~/services/users.server";
import { BUYBACK_COLLECTOR } from "./buyback-journey-fixtures-data";

const dir = process.argv[2];
if (dir) {
  const database = await openDatabase({ kind: "pglite", dataDir: path.resolve(dir) });
  try {
    const { email, password, name } = BUYBACK_COLLECTOR;
    await createUserWithPassword(database.db, { email, password, name, role: "user", emailVerified: true });
  } finally {
    await database.close();
  }
}
