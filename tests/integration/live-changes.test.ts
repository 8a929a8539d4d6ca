import { eq } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { products } from "~/db/schema";
import type { CatalogChange } from "~/domain/catalog-change";
import { getPublicProduct } from "~/services/catalog.server";
import { nextDropTime, releaseDueDrops, startDropSweeper } from "~/services/drops.server";
import { seedSampleCatalogue } from "~/services/seed.server";
import { type ChangeFeed, openChangeFeed } from "../../server/catalog-changes";
import { databaseLabel, openTestDatabase } from "./test-database";

const logger = pino({ level: "silent" });

/**
 * Resolves with the first change matching, or fails after 10 s: a guard a loaded machine cannot
 * break (2 s, the live-update budget, did on CI); the budget itself is measured by
 * `npm run bench -- --scenario drop` (how soon 500 open pages hear the sell-out).
 */
function nextChange(feed: ChangeFeed, match: (change: CatalogChange) => boolean): Promise<CatalogChange> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no change event within 10 s")), 10_000);
    const stop = feed.subscribe((change) => {
      if (!match(change)) return;
      clearTimeout(timer);
      stop();
      resolve(change);
    });
  });
}

describe(`catalogue change events and drops on ${databaseLabel}`, () => {
  let database: Database;
  let feed: ChangeFeed;
  let productId: number;

  beforeAll(async () => {
    database = await openTestDatabase();
    await seedSampleCatalogue(database.db);
    feed = await openChangeFeed(database, logger);
    productId = (await database.db.select({ id: products.id }).from(products).limit(1))[0]!.id;
  });
  afterAll(async () => {
    await feed?.close();
    await database?.close();
  });

  it("announces a stock change made straight in the database, with the new stock when nothing else changed", async () => {
    const heard = nextChange(feed, (c) => c.op === "update");
    await database.db.update(products).set({ stock: 7, updatedAt: new Date() }).where(eq(products.id, productId));
    expect(await heard).toEqual({ op: "update", id: productId, stock: 7 });
    const other = nextChange(feed, (c) => c.op === "update");
    await database.db.update(products).set({ stock: 6, priceCents: 1_234 }).where(eq(products.id, productId));
    expect(await other).toEqual({ op: "update", id: productId });
  });

  it("announces inserts and deletes", async () => {
    const inserted = nextChange(feed, (c) => c.op === "insert");
    const [row] = await database.db
      .insert(products)
      .values({ title: "Carte test", priceCents: 100, category: "TCG", subCategory: "Cartes" })
      .returning({ id: products.id });
    expect(await inserted).toEqual({ op: "insert", id: row!.id });
    const deleted = nextChange(feed, (c) => c.op === "delete");
    await database.db.delete(products).where(eq(products.id, row!.id));
    expect(await deleted).toEqual({ op: "delete", id: row!.id });
  });

  it("releases a_venir products whose drop time has come, and only those", async () => {
    const now = new Date();
    const [due, later] = await database.db
      .insert(products)
      .values([
        { title: "Drop passé", priceCents: 100, category: "TCG", status: "a_venir", dropTime: new Date(now.getTime() - 1_000) },
        { title: "Drop futur", priceCents: 100, category: "TCG", status: "a_venir", dropTime: new Date(now.getTime() + 3_600_000) },
      ])
      .returning({ id: products.id });
    expect(await releaseDueDrops(database.db, now)).toEqual([due!.id]);
    expect(await nextDropTime(database.db, now)).toEqual(new Date(now.getTime() + 3_600_000));
    const [row] = await database.db.select({ status: products.status }).from(products).where(eq(products.id, later!.id));
    expect(row!.status).toBe("a_venir");
  });

  it("opens a drop on time by itself: the sweeper wakes at the drop time, and the change is announced", async () => {
    const [row] = await database.db
      .insert(products)
      .values({ title: "Drop imminent", priceCents: 100, category: "TCG", status: "a_venir", dropTime: new Date(Date.now() + 600) })
      .returning({ id: products.id });
    const released = nextChange(feed, (c) => c.op === "update" && c.id === row!.id);
    // A 30 s interval: only the drop-time wake-up can release it within nextChange's 10 s.
    const sweeper = startDropSweeper(database.db, logger, 30_000);
    try {
      await released;
      const [after] = await database.db.select({ status: products.status }).from(products).where(eq(products.id, row!.id));
      expect(after!.status).toBe("en_ligne");
      expect(await getPublicProduct(database.db, row!.id, { now: new Date(), imageBaseUrl: "" })).not.toBeNull();
    } finally {
      await sweeper.stop();
    }
  });
});
