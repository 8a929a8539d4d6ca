import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { inboxMessages, orders } from "~/db/schema";
import { loadAdminBadges } from "~/services/admin-badges.server";
import { databaseLabel, openTestDatabase } from "./test-database";

/** The sidebar counts: unread requests and paid orders waiting to be shipped, nothing else. */
describe(`admin sidebar counts on ${databaseLabel}`, () => {
  let database: Database;

  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  it("counts new requests and paid orders only", async () => {
    expect(await loadAdminBadges(database.db)).toEqual({ newMessages: 0, ordersToShip: 0 });
    const request = { lastName: "Durand", firstName: "Léa", email: "lea@example.test", message: "Bonjour, une question." };
    await database.db.insert(inboxMessages).values([
      { ...request, kind: "contact" },
      { ...request, kind: "rachat", phone: "0601020304" },
      { ...request, kind: "contact", status: "lu" },
      { ...request, kind: "rachat", status: "offre_envoyee" },
    ]);
    const order = (number: string, status: (typeof orders.$inferInsert)["status"]) => ({
      number,
      status,
      subtotalCents: 1_000,
      totalCents: 1_000,
      paymentProvider: "test",
    });
    await database.db.insert(orders).values([
      order("CMD-000001-0001", "paid"),
      order("CMD-000002-0002", "paid"),
      order("CMD-000003-0003", "paid"),
      order("CMD-000004-0004", "shipped"),
      order("CMD-000005-0005", "pending_payment"),
      order("CMD-000006-0006", "refunded"),
    ]);
    expect(await loadAdminBadges(database.db)).toEqual({ newMessages: 2, ordersToShip: 3 });
  });
});
