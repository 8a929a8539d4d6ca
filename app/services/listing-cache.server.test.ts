import { describe, expect, it } from "vitest";
import type { Db } from "~/db/types";
import { keepListingsInStep, keptListing, type ListingRead, listingsChanged } from "./listing-cache.server";

type Row = { id: number; stock: number; name: string };
const NOW = new Date("2026-11-26T12:00:00Z");
const listing = (...rows: Row[]): ListingRead<Row> => ({ rows, total: rows.length, page: 1 });

/** A read the test finishes when it wants, counting how many were started. */
function reads() {
  const started: ((value: { listing: ListingRead<Row>; expiresAt: Date | null }) => void)[] = [];
  const read = () => new Promise<{ listing: ListingRead<Row>; expiresAt: Date | null }>((resolve) => started.push(resolve));
  return { read, started };
}
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A database handle of its own for each test: the reads are kept by handle. */
const heardDb = () => {
  const db = {} as Db;
  keepListingsInStep(db);
  return db;
};

describe("keptListing", () => {
  it("reads each time for a database whose changes nobody hears", async () => {
    const { read, started } = reads();
    const db = {} as Db;
    const first = keptListing(db, "k", NOW, read);
    started[0]!({ listing: listing({ id: 1, stock: 2, name: "a" }), expiresAt: null });
    await first;
    const second = keptListing(db, "k", NOW, read);
    await tick();
    expect(started).toHaveLength(2);
    started[1]!({ listing: listing(), expiresAt: null });
    await second;
  });

  it("shares one read between concurrent requests and keeps it, each caller getting rows of its own", async () => {
    const db = heardDb();
    const { read, started } = reads();
    const a = keptListing(db, "k", NOW, read);
    const b = keptListing(db, "k", NOW, read);
    started[0]!({ listing: listing({ id: 1, stock: 2, name: "a" }), expiresAt: null });
    const [first, second] = await Promise.all([a, b]);
    expect(first).toEqual(listing({ id: 1, stock: 2, name: "a" }));
    expect(second).toEqual(first);
    first.rows[0]!.stock = 99;
    expect((await keptListing(db, "k", NOW, read)).rows[0]!.stock).toBe(2);
    expect(started).toHaveLength(1);
  });

  it("takes a stock-only change into the kept rows, and drops everything on any other change", async () => {
    const db = heardDb();
    const { read, started } = reads();
    const first = keptListing(db, "k", NOW, read);
    started[0]!({ listing: listing({ id: 1, stock: 2, name: "a" }, { id: 2, stock: 5, name: "b" }), expiresAt: null });
    await first;
    listingsChanged({ op: "update", id: 2, stock: 0 });
    expect((await keptListing(db, "k", NOW, read)).rows.map((row) => row.stock)).toEqual([2, 0]);
    expect(started).toHaveLength(1);
    listingsChanged({ op: "update", id: 1 });
    const again = keptListing(db, "k", NOW, read);
    await tick();
    expect(started).toHaveLength(2);
    started[1]!({ listing: listing(), expiresAt: null });
    expect(await again).toEqual(listing());
  });

  it("does not keep a read that a change overtook, even a stock change", async () => {
    const db = heardDb();
    const { read, started } = reads();
    const overtaken = keptListing(db, "k", NOW, read);
    await tick();
    listingsChanged({ op: "update", id: 1, stock: 0 });
    started[0]!({ listing: listing({ id: 1, stock: 2, name: "a" }), expiresAt: null });
    // Its own caller gets what it read; the next request reads again.
    expect((await overtaken).rows[0]!.stock).toBe(2);
    const next = keptListing(db, "k", NOW, read);
    await tick();
    expect(started).toHaveLength(2);
    started[1]!({ listing: listing({ id: 1, stock: 0, name: "a" }), expiresAt: null });
    expect((await next).rows[0]!.stock).toBe(0);
  });

  it("reads again from its expiry on (the next drop time), and after a failed read", async () => {
    const db = heardDb();
    const { read, started } = reads();
    const dropTime = new Date(NOW.getTime() + 60_000);
    const first = keptListing(db, "k", NOW, read);
    started[0]!({ listing: listing(), expiresAt: dropTime });
    await first;
    await keptListing(db, "k", new Date(dropTime.getTime() - 1), read);
    expect(started).toHaveLength(1);
    const atDrop = keptListing(db, "k", dropTime, read);
    await tick();
    expect(started).toHaveLength(2);
    started[1]!({ listing: listing({ id: 3, stock: 1, name: "drop" }), expiresAt: null });
    expect((await atDrop).rows).toHaveLength(1);

    const failing = keptListing(db, "f", NOW, () => Promise.reject(new Error("base injoignable")));
    await expect(failing).rejects.toThrow("base injoignable");
    const retried = keptListing(db, "f", NOW, read);
    await tick();
    expect(started).toHaveLength(3);
    started[2]!({ listing: listing(), expiresAt: null });
    await retried;
  });
});
