import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "~/db/client.server";
import { dropQueue, productDrops, products } from "~/db/schema";
import { ADMISSION_MINUTES, TICKETS_PER_IPV4_ADDRESS, TICKETS_PER_IPV6_NETWORK } from "~/domain/waiting-room";
import { readToken, signToken } from "~/lib/signed-token.server";
import { admissionToken, advanceQueue, joinQueue, queueView, useAdmission } from "~/services/waiting-room.server";
import { databaseLabel, openTestDatabase } from "./test-database";

/**
 * A drop's waiting room on a real database (issue 39, point 3): the room opens its window before
 * the drop, admits in order at the pace of free units, hands out signed admissions used once,
 * and gives an expired admission's turn to the next in line.
 */
const SECRET = "secret-des-admissions-0123456789";
const minutes = (n: number) => n * 60_000;

describe(`the waiting room on ${databaseLabel}`, () => {
  let database: Database;
  let ip = 0;

  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  async function drop(options: { stock: number; opening: Date; mode?: "first_come" | "fair_start" }) {
    const [product] = await database.db
      .insert(products)
      .values({ title: `Sortie file ${++ip}`, priceCents: 9_999, stock: options.stock, category: "TCG", subCategory: "Scellés", status: "a_venir", dropTime: options.opening })
      .returning();
    await database.db.insert(productDrops).values({ productId: product!.id, startMode: options.mode ?? "first_come", fairWindowMinutes: 10 });
    return product!.id;
  }
  // Each join a collector of its own (a fair start asks for one; a first come ignores it).
  const join = async (productId: number, now: Date, network = `203.0.113.${++ip % 250}`) => {
    const collector = { key: `collectionneur${++ip}@example.test`, proof: "email" as const };
    const result = await joinQueue(database.db, productId, { network, now, collector: async () => collector });
    if (!result.ok) throw new Error(result.error);
    return result.ticketId;
  };
  const statusOf = async (productId: number, ticket: string) => (await database.db.select({ status: dropQueue.status }).from(dropQueue).where(eq(dropQueue.id, ticket)))[0]!.status;

  it("opens its window before the drop, admits nobody before the opening, then 1.5 × the free units in arrival order", async () => {
    const opening = new Date(Date.now() + minutes(60));
    const productId = await drop({ stock: 2, opening });
    expect(await joinQueue(database.db, productId, { network: "198.51.100.1", now: new Date(opening.getTime() - minutes(11)) })).toMatchObject({ ok: false, status: 409 });
    const early = new Date(opening.getTime() - minutes(5));
    const tickets: string[] = [];
    for (let i = 0; i < 5; i++) tickets.push(await join(productId, new Date(early.getTime() + i)));
    // Places are read once a second per instance: a second later, the line is whole.
    expect(await queueView(database.db, productId, tickets[2]!, new Date(early.getTime() + 1_500))).toMatchObject({ state: "waiting", position: 3, figures: { available: 2, held: 0, sold: 0 } });
    expect(await advanceQueue(database.db, productId, early)).toBe(0);

    // Open: 2 free units → 3 admissions, the first three arrivals.
    expect(await advanceQueue(database.db, productId, opening)).toBe(3);
    expect(await Promise.all(tickets.map((ticket) => statusOf(productId, ticket)))).toEqual(["admitted", "admitted", "admitted", "waiting", "waiting"]);
    expect(await queueView(database.db, productId, tickets[4]!, opening)).toMatchObject({ state: "waiting", position: 2 });
    expect(await queueView(database.db, productId, tickets[0]!, opening)).toMatchObject({ state: "admitted", expiresAt: new Date(opening.getTime() + minutes(ADMISSION_MINUTES)).toISOString() });
    // Nothing more while those admissions are open.
    expect(await advanceQueue(database.db, productId, opening)).toBe(0);

    // An admission unused at its end goes to the next in line.
    const later = new Date(opening.getTime() + minutes(ADMISSION_MINUTES) + 1);
    expect(await advanceQueue(database.db, productId, later)).toBe(2);
    expect(await Promise.all(tickets.map((ticket) => statusOf(productId, ticket)))).toEqual(["expired", "expired", "expired", "admitted", "admitted"]);
    expect(await queueView(database.db, productId, tickets[0]!, later)).toMatchObject({ state: "open" });
  });

  it("admits the line of a drop whose time was set by SQL, with microseconds", async () => {
    const productId = await drop({ stock: 1, opening: new Date(Date.now() + minutes(60)) });
    // As a seller's script or psql writes it: an interval from now(), to the microsecond.
    await database.db.execute(sql`update products set drop_time = now() + interval '30 minutes 0.123456 seconds' where id = ${productId}`);
    const [{ dropTime }] = (await database.db.select({ dropTime: products.dropTime }).from(products).where(eq(products.id, productId))) as [{ dropTime: Date }];
    const ticket = await join(productId, new Date(dropTime.getTime() - minutes(1)));
    expect(await advanceQueue(database.db, productId, new Date(dropTime.getTime() + 1))).toBe(1);
    expect(await statusOf(productId, ticket)).toBe("admitted");
    expect(await queueView(database.db, productId, ticket, new Date(dropTime.getTime() + 1))).toMatchObject({ state: "admitted" });
  });

  it("places the fair start's early arrivals by a draw, all before anyone who came after the opening", async () => {
    const opening = new Date(Date.now() + minutes(30));
    const productId = await drop({ stock: 100, opening, mode: "fair_start" });
    const early: string[] = [];
    for (let i = 0; i < 40; i++) early.push(await join(productId, new Date(opening.getTime() - minutes(9) + i * 1000)));
    const late = await join(productId, new Date(opening.getTime() + 1000));
    const ranks = await database.db.select({ id: dropQueue.id, rank: dropQueue.rank }).from(dropQueue).where(eq(dropQueue.productId, productId)).orderBy(dropQueue.rank);
    const order = ranks.map((row) => row.id);
    expect(order.at(-1)).toBe(late);
    // The draw is not the arrival order (40 arrivals in order by chance: 1 in 40!).
    expect(order.slice(0, 40)).not.toEqual(early);
  });

  it("hands out signed admissions that a checkout uses once: forged, edited, expired or reused ones are refused", async () => {
    const opening = new Date(Date.now() - minutes(1));
    const productId = await drop({ stock: 1, opening });
    const now = new Date();
    const ticket = await join(productId, now);
    await advanceQueue(database.db, productId, now);
    const [row] = await database.db.select().from(dropQueue).where(eq(dropQueue.id, ticket));
    const token = admissionToken(ticket, productId, row!.admissionExpiresAt!, SECRET);
    expect(readToken(token, SECRET)).toMatchObject({ t: ticket, p: productId });

    expect(await useAdmission(database.db, signToken({ t: ticket, p: productId, e: row!.admissionExpiresAt!.getTime() }, "un-autre-secret"), productId, SECRET, now)).toBe(false);
    expect(await useAdmission(database.db, token, productId + 1, SECRET, now)).toBe(false);
    expect(await useAdmission(database.db, token, productId, SECRET, new Date(row!.admissionExpiresAt!.getTime() + 1))).toBe(false);
    expect(await useAdmission(database.db, undefined, productId, SECRET, now)).toBe(false);
    // A rolled-back checkout leaves it usable: the checkout's transaction takes it, then fails.
    // What happened inside is asserted outside, once the transaction has failed with our own
    // error (and no other): an assertion thrown inside would roll back just the same.
    const failure = new Error("checkout failed after taking the admission");
    let takenInside: boolean | undefined;
    await expect(
      database.db.transaction(async (tx) => {
        takenInside = await useAdmission(tx, token, productId, SECRET, now);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(takenInside).toBe(true);
    expect(await statusOf(productId, ticket)).toBe("admitted");
    expect(await useAdmission(database.db, token, productId, SECRET, now)).toBe(true);
    expect(await useAdmission(database.db, token, productId, SECRET, now)).toBe(false);
    expect(await statusOf(productId, ticket)).toBe("used");
  });

  it(`lets an IPv6 /64 take ${TICKETS_PER_IPV6_NETWORK} tickets per drop and an IPv4 address ${TICKETS_PER_IPV4_ADDRESS}, also in parallel`, async () => {
    const productId = await drop({ stock: 5, opening: new Date(Date.now() - minutes(1)) });
    const now = new Date();
    for (const [network, bound] of [
      ["2001:db8:5:0::/64", TICKETS_PER_IPV6_NETWORK],
      ["198.51.100.200", TICKETS_PER_IPV4_ADDRESS],
    ] as const) {
      const results = await Promise.all(Array.from({ length: bound + 5 }, () => joinQueue(database.db, productId, { network, now })));
      expect(results.filter((result) => result.ok), network).toHaveLength(bound);
      expect(results.filter((result) => !result.ok && result.status === 429), network).toHaveLength(5);
    }
    expect((await joinQueue(database.db, productId, { network: "2001:db8:6:0::/64", now })).ok).toBe(true);
  });

  it("starts a new line for a later opening of the same product (a restock's drop)", async () => {
    const first = new Date(Date.now() - minutes(60));
    const productId = await drop({ stock: 1, opening: first });
    const network = "2001:db8:7:0::/64";
    const old: string[] = [];
    for (let i = 0; i < TICKETS_PER_IPV6_NETWORK; i++) old.push(await join(productId, new Date(first.getTime() + i), network));
    expect(await joinQueue(database.db, productId, { network, now: new Date(first.getTime() + 5) })).toMatchObject({ ok: false, status: 429 });

    // The seller sets a new opening: the earlier tickets have no place in its line, and the network may join it.
    const second = new Date(Date.now() + minutes(1));
    await database.db.update(products).set({ dropTime: second }).where(eq(products.id, productId));
    const now = new Date(second.getTime() - minutes(5));
    expect(await queueView(database.db, productId, old[0]!, now)).toMatchObject({ state: "open" });
    const fresh = await join(productId, now, network);
    expect(await queueView(database.db, productId, fresh, new Date(now.getTime() + 1_500))).toMatchObject({ state: "waiting", position: 1 });
    expect(await advanceQueue(database.db, productId, second)).toBe(1);
    expect(await statusOf(productId, fresh)).toBe("admitted");
    expect(await Promise.all(old.map((ticket) => statusOf(productId, ticket)))).toEqual(["waiting", "waiting"]);
  });

  it("loses nobody's place when an instance stops mid-drop: another one (or the restarted one) carries on", async () => {
    const opening = new Date(Date.now() - minutes(1));
    const now = new Date();
    // PostgreSQL: a second instance's own pool on the same database. PGlite: one process, restarted
    // on its data directory.
    const dataDir = databaseLabel === "PGlite" ? fs.mkdtempSync(path.join(os.tmpdir(), "comptoir-queue-")) : null;
    let first: Database = dataDir ? await openDatabase({ kind: "pglite", dataDir }) : await openDatabase({ kind: "postgres", url: database.pool!.options.connectionString!, poolSize: 2 });
    try {
      const [product] = await first.db.insert(products).values({ title: "Sortie interrompue", priceCents: 9_999, stock: 1, category: "TCG", subCategory: "Scellés", dropTime: opening }).returning();
      await first.db.insert(productDrops).values({ productId: product!.id });
      const tickets: string[] = [];
      for (let i = 0; i < 3; i++) {
        const joined = await joinQueue(first.db, product!.id, { network: `192.0.2.${i}`, now: new Date(now.getTime() + i) });
        if (joined.ok) tickets.push(joined.ticketId);
      }
      expect(await advanceQueue(first.db, product!.id, now)).toBe(2);
      await first.close();
      // The instance is gone; the places are not.
      const second = dataDir ? await openDatabase({ kind: "pglite", dataDir }) : database;
      first = second;
      expect(await queueView(second.db, product!.id, tickets[2]!, now)).toMatchObject({ state: "waiting", position: 1 });
      expect(await queueView(second.db, product!.id, tickets[0]!, now)).toMatchObject({ state: "admitted" });
      const later = new Date(now.getTime() + minutes(ADMISSION_MINUTES) + 1);
      expect(await advanceQueue(second.db, product!.id, later)).toBe(1);
      expect(await queueView(second.db, product!.id, tickets[2]!, later)).toMatchObject({ state: "admitted" });
    } finally {
      if (dataDir) {
        await first.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    }
  });

  it("says sold out once no unit is on sale or held", async () => {
    const productId = await drop({ stock: 0, opening: new Date(Date.now() - minutes(1)) });
    expect(await queueView(database.db, productId, null, new Date())).toMatchObject({ state: "sold_out", figures: { available: 0, held: 0 } });
    const [{ n }] = (await database.db.select({ n: sql<number>`count(*)::int` }).from(dropQueue).where(eq(dropQueue.productId, productId))) as [{ n: number }];
    expect(n).toBe(0);
  });
});
