import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { dropQueue, orderItems, orders, productDrops, products } from "~/db/schema";
import { countDropRefusal } from "~/services/drop-limits.server";
import { deleteDrop, dropCandidates, listDrops, saveDrop } from "~/services/drops-admin.server";
import { databaseLabel, openTestDatabase } from "./test-database";

/** The seller's drops (/admin/drops) on a real database: created once per product, changed, listed with their figures, removed. */
describe(`drops in the admin on ${databaseLabel}`, () => {
  let database: Database;
  const rules = { perCustomerLimit: 2, holdMinutes: 10, accountRequired: false, startMode: "first_come" as const, fairWindowMinutes: 10 };

  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  it("creates a drop once per product, changes it, lists it with its figures and removes it", async () => {
    const opening = new Date("2026-12-05T18:00:00Z");
    const [product] = await database.db.insert(products).values({ title: "Coffret sortie admin", priceCents: 5_000, stock: 7, category: "TCG", subCategory: "Scellés", dropTime: opening }).returning();
    const id = product!.id;
    expect((await dropCandidates(database.db)).some((candidate) => candidate.id === id)).toBe(true);
    expect(await saveDrop(database.db, null, { productId: id, ...rules })).toEqual({ outcome: "created", title: "Coffret sortie admin" });
    expect(await saveDrop(database.db, null, { productId: id, ...rules })).toEqual({ outcome: "duplicate" });
    expect(await saveDrop(database.db, null, { productId: 987_654, ...rules })).toEqual({ outcome: "missing" });
    expect((await dropCandidates(database.db)).some((candidate) => candidate.id === id)).toBe(false);
    // Editing keeps the product whatever the post says.
    expect(await saveDrop(database.db, id, { ...rules, productId: 1, perCustomerLimit: 1, accountRequired: true })).toEqual({ outcome: "updated", title: "Coffret sortie admin" });

    // Since the opening: one paid order of 1, one pending of 1, one refunded over the limit at its
    // address; before it, a sale of an earlier drop of the product, which is not this one's.
    const order = async (status: "paid" | "pending_payment" | "refunded", email: string, refundReason?: "drop_limit", createdAt = new Date(opening.getTime() + 60_000)) => {
      const [row] = await database.db
        .insert(orders)
        .values({ number: `DRP-${status}-${email}-${createdAt.getTime()}`, status, subtotalCents: 5_000, totalCents: 5_000, paymentProvider: "test", buyerEmailKey: email, refundReason, createdAt })
        .returning();
      await database.db.insert(orderItems).values({ orderId: row!.id, productId: id, name: "Coffret sortie admin", unitPriceCents: 5_000, quantity: 1 });
    };
    await order("paid", "a@example.com");
    await order("pending_payment", "b@example.com");
    await order("paid", "b@example.com");
    await order("refunded", "c@example.com", "drop_limit");
    await order("paid", "a@example.com", undefined, new Date("2026-11-05T18:05:00Z"));
    await countDropRefusal(database.db, id, "DROP_LIMIT");
    await countDropRefusal(database.db, id, "DROP_LIMIT");
    await countDropRefusal(database.db, id, "DROP_ADMISSION");
    // The line of the product's current opening; a ticket still waiting from an earlier one is not in it.
    await database.db.insert(dropQueue).values([
      { productId: id, dropTime: opening, rank: 1, network: "203.0.113.1" },
      { productId: id, dropTime: opening, rank: 2, network: "203.0.113.2", status: "admitted" },
      { productId: id, dropTime: opening, rank: 3, network: "203.0.113.3", status: "used" },
      { productId: id, dropTime: new Date("2026-11-05T18:00:00Z"), rank: 0, network: "203.0.113.4" },
    ]);
    const [listed] = (await listDrops(database.db)).filter((drop) => drop.productId === id);
    expect(listed).toMatchObject({
      title: "Coffret sortie admin",
      available: 7,
      held: 1,
      sold: 2,
      customers: 2,
      largestShare: 2,
      refusedAtPayment: 1,
      waiting: 1,
      admitted: 1,
      refusals: { DROP_LIMIT: 2, DROP_ADMISSION: 1 },
      perCustomerLimit: 1,
      accountRequired: true,
    });

    expect(await deleteDrop(database.db, id)).toEqual({ outcome: "deleted", title: "Coffret sortie admin" });
    expect(await deleteDrop(database.db, id)).toEqual({ outcome: "missing" });
    expect(await database.db.select().from(productDrops).where(eq(productDrops.productId, id))).toEqual([]);
  });
});
