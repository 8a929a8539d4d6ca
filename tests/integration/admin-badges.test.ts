import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { inboxMessages, orders } from "~/db/schema";
import { loadAdminBadges } from "~/services/admin-badges.server";
import { markContactRead } from "~/services/inbox.server";
import { keepReadsInStep, keptReadsHear } from "~/services/kept-reads.server";
import { createUserWithPassword } from "~/services/users.server";
import { databaseLabel, openTestDatabase } from "./test-database";

/** The sidebar counts: unread requests and paid orders waiting to be shipped, nothing else. */
describe(`admin sidebar counts on ${databaseLabel}`, () => {
  let database: Database;
  const order = (number: string, status: (typeof orders.$inferInsert)["status"]) => ({
    number,
    status,
    subtotalCents: 1_000,
    totalCents: 1_000,
    paymentProvider: "test",
  });

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

  it("on a server, serves one read for 2 s, and reads again when a request is opened here or an order changes anywhere", async () => {
    keepReadsInStep(database.db);
    const seller = await createUserWithPassword(database.db, { name: "Vendeur", email: "vendeur@example.test", password: "Mot-de-passe-2026", role: "admin", emailVerified: true });
    const start = Date.now();
    const kept = await loadAdminBadges(database.db, start);
    expect(kept).toEqual({ newMessages: 2, ordersToShip: 3 });
    await database.db.insert(orders).values(order("CMD-000007-0007", "paid"));
    expect(await loadAdminBadges(database.db, start + 1_000)).toEqual(kept);
    expect(await loadAdminBadges(database.db, start + 2_100)).toEqual({ newMessages: 2, ordersToShip: 4 });

    const [unread] = await database.db.select().from(inboxMessages).where(and(eq(inboxMessages.kind, "contact"), eq(inboxMessages.status, "nouveau")));
    expect(await markContactRead(database.db, unread!.id, seller.id)).toBe(true);
    expect(await loadAdminBadges(database.db, start + 2_200)).toEqual({ newMessages: 1, ordersToShip: 4 });

    await database.db.insert(orders).values(order("CMD-000008-0008", "paid"));
    keptReadsHear({ op: "site" });
    expect(await loadAdminBadges(database.db, start + 2_250)).toEqual({ newMessages: 1, ordersToShip: 4 });
    keptReadsHear({ op: "orders" });
    expect(await loadAdminBadges(database.db, start + 2_300)).toEqual({ newMessages: 1, ordersToShip: 5 });
  });
});
