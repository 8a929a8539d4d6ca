import { eq, sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { products } from "~/db/schema";
import type { CatalogChange } from "~/domain/catalog-change";
import { listProducts } from "~/services/catalog.server";
import { keepListingsInStep, listingsChanged } from "~/services/listing-cache.server";
import { seedSampleCatalogue } from "~/services/seed.server";
import { type ChangeFeed, openChangeFeed } from "../../server/catalog-changes";
import { databaseLabel, openTestDatabase } from "./test-database";

/**
 * The listings' reads kept between changes (decision 030), wired as the server wires them: the
 * database's change feed calls listingsChanged. Each change below is made straight in the
 * database, as another instance or psql would make it.
 */
describe(`listings kept between catalogue changes on ${databaseLabel}`, () => {
  let database: Database;
  let feed: ChangeFeed;
  const heard: CatalogChange[] = [];
  const options = { imageBaseUrl: "/uploads", pageSize: 24 };
  const list = (now = new Date(), filter = {}) => listProducts(database.db, filter, { ...options, now });
  const names = async (now?: Date, filter?: object) => (await list(now, filter)).products.map((product) => product.name);

  /** Waits until the feed has delivered `count` more changes (each listener has run by then). */
  async function changesHeard(count: number, write: () => Promise<unknown>) {
    const target = heard.length + count;
    await write();
    // A guard a loaded CI cannot break; how soon changes are heard is the bench's (drop scenario).
    const deadline = Date.now() + 10_000;
    while (heard.length < target) {
      if (Date.now() > deadline) throw new Error("no change event within 10 s");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** A write the feed does not hear (its trigger off): what is kept shows until a change. */
  async function unannounced(write: () => Promise<unknown>) {
    await database.db.execute(sql`alter table products disable trigger products_notify_change`);
    try {
      await write();
    } finally {
      await database.db.execute(sql`alter table products enable trigger products_notify_change`);
    }
  }

  beforeAll(async () => {
    database = await openTestDatabase();
    await seedSampleCatalogue(database.db);
    feed = await openChangeFeed(database, pino({ level: "silent" }));
    keepListingsInStep(database.db);
    feed.subscribe((change) => {
      listingsChanged(change);
      heard.push(change);
    });
  });
  afterAll(async () => {
    await feed?.close();
    await database?.close();
  });

  it("serves a listing again without reading it, until a change", async () => {
    const first = await list();
    expect(first.total).toBe(18);
    const pikachu = first.products[0]!;
    expect(pikachu.name).toBe("Pikachu VMAX – Épée et Bouclier");
    await unannounced(() => database.db.update(products).set({ priceCents: 4_242 }).where(eq(products.id, pikachu.id)));
    expect(await list()).toEqual(first);
    listingsChanged({ op: "resync" });
    expect((await list()).products[0]).toEqual({ ...pikachu, priceCents: 4_242 });
  });

  it("takes a sale's new stock without reading the listing again", async () => {
    const before = await list();
    const pikachu = before.products[0]!;
    await changesHeard(1, () => database.db.update(products).set({ stock: 1, updatedAt: new Date() }).where(eq(products.id, pikachu.id)));
    expect(heard.at(-1)).toEqual({ op: "update", id: pikachu.id, stock: 1 });
    const after = await list();
    expect(after.products[0]).toEqual({ ...pikachu, stock: 1 });
    expect(after.products.slice(1)).toEqual(before.products.slice(1));
  });

  it("reads again after any other change: a product going offline leaves, one coming back returns", async () => {
    const pikachu = (await list()).products[0]!;
    await changesHeard(1, () => database.db.update(products).set({ status: "hors_ligne" }).where(eq(products.id, pikachu.id)));
    expect(await names()).not.toContain(pikachu.name);
    expect((await list()).total).toBe(17);
    await changesHeard(1, () => database.db.update(products).set({ status: "en_ligne" }).where(eq(products.id, pikachu.id)));
    expect((await names())[0]).toBe(pikachu.name);
    await changesHeard(1, () => database.db.update(products).set({ priceCents: 1 }).where(eq(products.id, pikachu.id)));
    expect((await listProducts(database.db, {}, { ...options, now: new Date(), sort: "price-asc" })).products[0]).toMatchObject({ id: pikachu.id, priceCents: 1 });
  });

  it("lets a scheduled product in at its drop time, with no write to announce it", async () => {
    const now = new Date();
    const dropTime = new Date(now.getTime() + 60_000);
    await changesHeard(1, () =>
      database.db.insert(products).values({ title: "Drop à venir", priceCents: 100, category: "TCG", subCategory: "Scellés", status: "a_venir", dropTime }),
    );
    expect(await names(now)).not.toContain("Drop à venir");
    expect(await names(new Date(dropTime.getTime() - 1))).not.toContain("Drop à venir");
    expect((await names(dropTime))[0]).toBe("Drop à venir");
    // Back to the present for the next test (its clock does not go back in a real server).
    await changesHeard(1, () => database.db.delete(products).where(eq(products.title, "Drop à venir")));
  });
});
