import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { eq, inArray } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { dropIdentityCodes, dropQueue, inboxMessages, orders, outboxEmails, products, rateLimits, sessions, users, verifications } from "~/db/schema";
import { RETAINED_EMAIL_TEXT } from "~/domain/retention";
import { retryEmail } from "~/services/mail.server";
import { runRetention, startRetentionJob } from "~/services/retention.server";
import { type FileStore, localDiskStore } from "~/services/storage.server";
import { databaseLabel, openTestDatabase } from "./test-database";

/**
 * The retention job at an injected `now`: each kind of data is cleared the day after its period
 * and not the day before (docs/privacy.md), and the server's timer runs it.
 */
const NOW = new Date("2027-03-15T10:00:00.000Z");
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 24 * 60 * 60 * 1000);
const monthsAgo = (months: number, extraDays = 0) => {
  const date = new Date(NOW);
  date.setUTCMonth(date.getUTCMonth() - months);
  return new Date(date.getTime() - extraDays * 24 * 60 * 60 * 1000);
};

describe(`retention job on ${databaseLabel}`, () => {
  let database: Database;
  let filesDir: string;
  let privateFiles: FileStore;

  beforeAll(async () => {
    database = await openTestDatabase();
    filesDir = await fs.mkdtemp(path.join(os.tmpdir(), "comptoir-retention-"));
    privateFiles = localDiskStore(filesDir);
  });
  afterAll(async () => {
    await database?.close();
    await fs.rm(filesDir, { recursive: true, force: true });
  });

  async function email(label: string, values: Partial<typeof outboxEmails.$inferInsert>) {
    const [row] = await database.db
      .insert(outboxEmails)
      .values({ to: `${label}@example.org`, subject: `Sujet ${label}`, html: `<p>Lien ${label}</p>`, text: `Lien ${label}`, kind: "order-shipped", ...values })
      .returning({ id: outboxEmails.id });
    return row!.id;
  }
  async function request(label: string, status: (typeof inboxMessages.$inferInsert)["status"], updatedAt: Date) {
    const key = `rachat_${updatedAt.getTime()}_${label.padEnd(16, "0").slice(0, 16)}.webp`;
    await privateFiles.put(key, Buffer.from(`photo ${label}`), "image/webp");
    const [row] = await database.db
      .insert(inboxMessages)
      .values({ kind: "rachat", lastName: "Martin", firstName: label, email: `${label}@example.org`, message: "Classeur", photos: [key], status, createdAt: updatedAt, updatedAt })
      .returning({ id: inboxMessages.id });
    return { id: row!.id, key };
  }

  it("clears what is past its period, keeps what is not, and repeats harmlessly", async () => {
    const old = await email("ancien", { status: "sent", sentAt: daysAgo(91), createdAt: daysAgo(91) });
    const recent = await email("recent", { status: "sent", sentAt: daysAgo(89), createdAt: daysAgo(120) });
    const oldFailed = await email("echec", { status: "failed", createdAt: daysAgo(91), lastError: "SMTP 550" });
    const oldPending = await email("attente", { status: "pending", createdAt: daysAgo(200) });

    const closedOld = await request("fermeancien", "refusee", monthsAgo(12, 1));
    const closedRecent = await request("fermerecent", "payee", monthsAgo(11, 25));
    const openOld = await request("ouvertancien", "en_estimation", monthsAgo(14));

    await database.db.insert(users).values({ id: "retention-user", name: "Client", email: "retention@example.org" });
    await database.db.insert(sessions).values([
      { id: "s-old", token: "t-old", userId: "retention-user", expiresAt: daysAgo(2) },
      { id: "s-live", token: "t-live", userId: "retention-user", expiresAt: daysAgo(-10) },
    ]);
    await database.db.insert(verifications).values([
      { id: "v-old", identifier: "reset-password:abc", value: "retention-user", expiresAt: daysAgo(2) },
      { id: "v-live", identifier: "reset-password:def", value: "retention-user", expiresAt: daysAgo(-1) },
    ]);
    await database.db.insert(rateLimits).values([
      { key: "retention:old", count: 3, resetAt: daysAgo(2) },
      { key: "retention:live", count: 3, resetAt: daysAgo(-1) },
    ]);

    const order = (number: string, createdAt: Date) => ({ number, subtotalCents: 100, totalCents: 100, paymentProvider: "test", clientNetwork: "203.0.113.9", createdAt });
    await database.db.insert(orders).values([order("RET-OLD", daysAgo(31)), order("RET-NEW", daysAgo(29))]);
    const [queued] = await database.db.insert(products).values({ title: "Sortie ancienne", priceCents: 100, stock: 0, category: "TCG" }).returning();
    await database.db.insert(dropQueue).values([
      { productId: queued!.id, dropTime: daysAgo(31), rank: 1, network: "203.0.113.9", joinedAt: daysAgo(31) },
      { productId: queued!.id, dropTime: daysAgo(29), rank: 2, network: "203.0.113.10", joinedAt: daysAgo(29) },
    ]);
    // A fair start's one-time codes: one past its minutes, one still valid.
    await database.db.insert(dropIdentityCodes).values([
      { identity: "ancien@example.org", codeHash: "h1", expiresAt: new Date(NOW.getTime() - 1) },
      { identity: "valide@example.org", codeHash: "h2", expiresAt: new Date(NOW.getTime() + 60_000) },
    ]);

    const report = await runRetention({ db: database.db, privateFiles }, NOW);
    expect(report).toEqual({ emails: 2, photoRequests: 1, photos: 1, photosLeft: 0, rateLimits: 1, sessions: 1, verifications: 1, orderNetworks: 1, queueTickets: 1, collectorCodes: 1 });
    const networks = await database.db.select({ number: orders.number, network: orders.clientNetwork }).from(orders).where(inArray(orders.number, ["RET-OLD", "RET-NEW"])).orderBy(orders.number);
    expect(networks).toEqual([
      { number: "RET-NEW", network: "203.0.113.9" },
      { number: "RET-OLD", network: null },
    ]);

    const mails = await database.db.select().from(outboxEmails).where(inArray(outboxEmails.id, [old, recent, oldFailed, oldPending]));
    const byId = new Map(mails.map((m) => [m.id, m]));
    for (const id of [old, oldFailed]) expect(byId.get(id)).toMatchObject({ subject: RETAINED_EMAIL_TEXT, html: RETAINED_EMAIL_TEXT, text: RETAINED_EMAIL_TEXT });
    // Who it went to, what kind and when stay: the seller still sees that it went.
    expect(byId.get(old)).toMatchObject({ to: "ancien@example.org", kind: "order-shipped", status: "sent" });
    expect(byId.get(recent)).toMatchObject({ subject: "Sujet recent", text: "Lien recent" });
    expect(byId.get(oldPending)).toMatchObject({ status: "pending", text: "Lien attente" });
    // A cleared failed e-mail cannot be sent again, blank.
    expect(await retryEmail(database.db, oldFailed)).toBe(false);

    const photosOf = async (id: string) => (await database.db.select({ photos: inboxMessages.photos, updatedAt: inboxMessages.updatedAt }).from(inboxMessages).where(eq(inboxMessages.id, id)))[0]!;
    expect(await photosOf(closedOld.id)).toEqual({ photos: [], updatedAt: monthsAgo(12, 1) });
    expect(await privateFiles.get(closedOld.key)).toBeNull();
    for (const kept of [closedRecent, openOld]) {
      expect((await photosOf(kept.id)).photos).toEqual([kept.key]);
      expect(await privateFiles.get(kept.key)).not.toBeNull();
    }
    expect((await database.db.select({ id: sessions.id }).from(sessions)).map((s) => s.id)).toEqual(["s-live"]);
    expect((await database.db.select({ id: verifications.id }).from(verifications).where(eq(verifications.value, "retention-user"))).map((v) => v.id)).toEqual(["v-live"]);
    expect((await database.db.select({ key: rateLimits.key }).from(rateLimits)).map((r) => r.key)).toEqual(["retention:live"]);

    // Again: nothing more to do.
    expect(await runRetention({ db: database.db, privateFiles }, NOW)).toEqual({ emails: 0, photoRequests: 0, photos: 0, photosLeft: 0, rateLimits: 0, sessions: 0, verifications: 0, orderNetworks: 0, queueTickets: 0, collectorCodes: 0 });
    // A month later, the recent ones' turn.
    const later = await runRetention({ db: database.db, privateFiles }, new Date(NOW.getTime() + 31 * 24 * 60 * 60 * 1000));
    expect(later).toMatchObject({ emails: 1, photoRequests: 1, photos: 1 });
  });

  it("a photo whose file cannot be deleted keeps its key for the next run", async () => {
    const stuck = await request("bloquee", "traite", monthsAgo(13));
    const failing: FileStore = { ...privateFiles, delete: async () => Promise.reject(new Error("S3 indisponible")) };
    expect(await runRetention({ db: database.db, privateFiles: failing }, NOW)).toMatchObject({ photoRequests: 1, photos: 0, photosLeft: 1 });
    expect((await database.db.select({ photos: inboxMessages.photos }).from(inboxMessages).where(eq(inboxMessages.id, stuck.id)))[0]!.photos).toEqual([stuck.key]);
    expect(await runRetention({ db: database.db, privateFiles }, NOW)).toMatchObject({ photoRequests: 1, photos: 1, photosLeft: 0 });
  });

  it("runs on the server's timer", async () => {
    const id = await email("minuteur", { status: "sent", sentAt: daysAgo(100) });
    const job = startRetentionJob({ db: database.db, privateFiles, shop: { name: "Comptoir", email: "boutique@example.org", publicUrl: "http://shop.test" }, logger: pino({ level: "silent" }), firstRunMs: 10, intervalMs: 50, now: () => NOW });
    try {
      await expect.poll(async () => (await database.db.select({ text: outboxEmails.text }).from(outboxEmails).where(eq(outboxEmails.id, id)))[0]!.text, { timeout: 5_000 }).toBe(RETAINED_EMAIL_TEXT);
    } finally {
      await job.stop();
    }
  });
});
