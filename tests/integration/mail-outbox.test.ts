import { eq, inArray, sql } from "drizzle-orm";
import pino from "pino";
import PostalMime from "postal-mime";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ZodError } from "zod";
import type { Database } from "~/db/client.server";
import { outboxEmails } from "~/db/schema";
import { type EmailContent, verifyEmail } from "~/domain/email-templates";
import { getOutboxEmail, listOutbox, queueEmail, retryEmail } from "~/services/mail.server";
import { type MailWorker, startMailWorker } from "../../server/mail-worker";
import { UNKNOWN_MAILBOX, startSmtpServer } from "./smtp-server";
import { databaseLabel, openTestDatabase } from "./test-database";

const logger = pino({ level: "silent" });
const shop = { name: "Comptoir", email: "contact@comptoir.example", publicUrl: "https://comptoir.example" };
const from = { name: "Comptoir", address: "contact@comptoir.example" };

function content(subject: string): EmailContent {
  return { subject, html: `<p>${subject}</p>`, text: subject };
}

describe(`mail outbox on ${databaseLabel}`, () => {
  let database: Database;
  const workers: MailWorker[] = [];
  const closers: (() => Promise<void>)[] = [];

  async function row(id: string) {
    return (await getOutboxEmail(database.db, id))!;
  }
  function worker(port: number) {
    // A long poll: the tests drive the worker with kick(), as the application does after queuing.
    const started = startMailWorker({ db: database.db, smtpUrl: `smtp://127.0.0.1:${port}`, from, logger, shopName: "Comptoir", pollMs: 60_000 });
    workers.push(started);
    return started;
  }
  async function makeDue(id: string) {
    await database.db.update(outboxEmails).set({ nextAttemptAt: sql`now()` }).where(eq(outboxEmails.id, id));
  }
  const waitFor = <T>(check: () => Promise<T>) => vi.waitFor(check, { timeout: 5_000, interval: 20 });

  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop()));
    await Promise.all(closers.splice(0).map((close) => close()));
    // Each test starts from an empty outbox, even after one that failed half-way.
    await database.db.delete(outboxEmails);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("refuses a bad address or a multi-line subject, and queues nothing", async () => {
    await expect(queueEmail(database.db, { to: "pas-une-adresse", kind: "test", content: content("Objet") })).rejects.toThrow(ZodError);
    await expect(queueEmail(database.db, { to: "a@example.com", kind: "test", content: content("Objet\nBcc: x@y.z") })).rejects.toThrow(ZodError);
    expect((await listOutbox(database.db, { page: 1, pageSize: 10 })).total).toBe(0);
  });

  it("writes the e-mail in the transaction of its cause: rolled back with it", async () => {
    const failure = database.db.transaction(async (tx) => {
      await queueEmail(tx, { to: "a@example.com", kind: "test", content: content("Annulé") });
      throw new Error("the cause failed");
    });
    await expect(failure).rejects.toThrow("the cause failed");
    expect((await listOutbox(database.db, { page: 1, pageSize: 10 })).total).toBe(0);
  });

  it("lists the outbox for the admin: newest first, by status, with counts and the full e-mail", async () => {
    const ids: string[] = [];
    for (const subject of ["Premier", "Deuxième", "Troisième"]) {
      const { id } = await queueEmail(database.db, { to: "a@example.com", kind: "test", content: content(subject) });
      ids.push(id);
    }
    // All three at the same instant, as on PGlite, whose clock counts milliseconds: they still
    // list in the order they were queued, not in the order of their random ids.
    await database.db.update(outboxEmails).set({ createdAt: new Date("2026-11-26T10:00:00.000Z") });
    await database.db
      .update(outboxEmails)
      .set({ status: "failed", lastError: "550 Mailbox unknown" })
      .where(eq(outboxEmails.id, ids[0]!));
    const all = await listOutbox(database.db, { page: 1, pageSize: 2 });
    expect(all).toMatchObject({ total: 3, page: 1, pageCount: 2, counts: { pending: 2, sent: 0, failed: 1 } });
    expect(all.emails.map((e) => e.subject)).toEqual(["Troisième", "Deuxième"]);
    expect(all.emails[0]).not.toHaveProperty("html");
    const failed = await listOutbox(database.db, { page: 9, pageSize: 2, status: "failed" });
    expect(failed).toMatchObject({ total: 1, page: 1, pageCount: 1 });
    expect(failed.emails.map((e) => e.subject)).toEqual(["Premier"]);
    expect(await getOutboxEmail(database.db, ids[1]!)).toMatchObject({ subject: "Deuxième", html: "<p>Deuxième</p>", text: "Deuxième", status: "pending" });
    expect(await getOutboxEmail(database.db, "00000000-0000-4000-8000-000000000000")).toBeNull();
    expect(await getOutboxEmail(database.db, "pas-un-id")).toBeNull();
  });

  it("delivers a queued e-mail over SMTP and marks it sent", async () => {
    const smtp = await startSmtpServer();
    closers.push(smtp.close);
    const mailer = worker(smtp.port);
    const email = verifyEmail({ shop, url: "https://comptoir.example/verifier?token=abc" });
    const { id } = await database.db.transaction((tx) => queueEmail(tx, { to: "marie@example.com", kind: "verify-email", content: email }));
    mailer.kick();

    await waitFor(async () => expect((await row(id)).status).toBe("sent"));
    expect(await row(id)).toMatchObject({ attempts: 1, lastError: null, sentAt: expect.any(Date) });
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.to).toEqual(["marie@example.com"]);
    const message = await PostalMime.parse(smtp.received[0]!.raw);
    expect(message.from).toMatchObject({ name: "Comptoir", address: "contact@comptoir.example" });
    expect(message.to).toMatchObject([{ address: "marie@example.com" }]);
    expect(message.subject).toBe("Confirmez votre adresse e-mail – Comptoir");
    expect(message.text?.trim()).toBe(email.text.trim());
    expect(message.html).toContain('href="https://comptoir.example/verifier?token=abc"');
    expect(message.html).toContain("Bonjour,");
  });

  it("sends an e-mail's Reply-To (a request's notification answers the customer)", async () => {
    const smtp = await startSmtpServer();
    closers.push(smtp.close);
    const mailer = worker(smtp.port);
    const email = verifyEmail({ shop, url: "https://comptoir.example/verifier?token=abc" });
    const { id } = await queueEmail(database.db, { to: "vendeur@comptoir.example", replyTo: "lea@example.com", kind: "inbox-contact-seller", content: email });
    mailer.kick();

    await waitFor(async () => expect((await row(id)).status).toBe("sent"));
    const message = await PostalMime.parse(smtp.received.at(-1)!.raw);
    expect(message.replyTo).toMatchObject([{ address: "lea@example.com" }]);
    await expect(queueEmail(database.db, { to: "vendeur@comptoir.example", replyTo: "pas une adresse", kind: "x", content: email })).rejects.toThrow("Adresse de réponse invalide");
  });

  it("keeps an e-mail while the relay is down, retries it with backoff, and delivers it once the relay is back", async () => {
    const smtp = await startSmtpServer();
    const port = smtp.port;
    await smtp.close();
    const mailer = worker(port);
    const { id } = await queueEmail(database.db, { to: "paul@example.com", kind: "test", content: content("Relais en panne") });
    mailer.kick();

    await waitFor(async () => expect((await row(id)).attempts).toBe(1));
    const first = await row(id);
    expect(first.status).toBe("pending");
    expect(first.lastError).toMatch(/ECONNREFUSED|connect/i);
    expect(first.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 20_000); // 30 s, less up to 20 % jitter

    await makeDue(id);
    mailer.kick();
    await waitFor(async () => expect((await row(id)).attempts).toBe(2));
    const second = await row(id);
    expect(second.status).toBe("pending");
    expect(second.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 45_000); // doubled

    const back = await startSmtpServer(port);
    closers.push(back.close);
    await makeDue(id);
    mailer.kick();
    await waitFor(async () => expect((await row(id)).status).toBe("sent"));
    expect((await row(id)).attempts).toBe(3);
    expect(back.received.map((r) => r.to)).toEqual([["paul@example.com"]]);
  });

  it("marks an e-mail refused for good (5xx) failed, and the admin can put it back in the queue", async () => {
    const smtp = await startSmtpServer();
    closers.push(smtp.close);
    const mailer = worker(smtp.port);
    const { id } = await queueEmail(database.db, { to: UNKNOWN_MAILBOX, kind: "test", content: content("Adresse inconnue") });
    mailer.kick();

    await waitFor(async () => expect((await row(id)).status).toBe("failed"));
    expect(await row(id)).toMatchObject({ attempts: 1, lastError: expect.stringContaining("550") });
    expect(smtp.received).toHaveLength(0);

    // The worker stopped first: a claim of its own between the retry and the reads below would push the attempt a lease ahead.
    await mailer.stop();
    expect(await retryEmail(database.db, id)).toBe(true);
    expect(await row(id)).toMatchObject({ status: "pending", attempts: 1 });
    expect((await row(id)).nextAttemptAt.getTime()).toBeLessThanOrEqual(Date.now() + 1_000);
    expect(await retryEmail(database.db, id)).toBe(false); // only a failed e-mail goes back

    worker(smtp.port).kick();
    await waitFor(async () => expect((await row(id)).attempts).toBe(2));
    expect((await row(id)).status).toBe("failed");
  });

  it("never sends an e-mail twice when several workers share the outbox", async () => {
    const smtp = await startSmtpServer();
    closers.push(smtp.close);
    const addresses = Array.from({ length: 12 }, (_, i) => `client${i}@example.com`);
    for (const to of addresses) await queueEmail(database.db, { to, kind: "test", content: content(`Pour ${to}`) });
    const mailers = [worker(smtp.port), worker(smtp.port), worker(smtp.port)];
    for (const mailer of mailers) mailer.kick();

    await waitFor(async () => expect(smtp.received).toHaveLength(addresses.length));
    await Promise.all(mailers.map((m) => m.stop()));
    expect(smtp.received.flatMap((r) => r.to).sort()).toEqual([...addresses].sort());
    const rows = await database.db
      .select({ status: outboxEmails.status, attempts: outboxEmails.attempts })
      .from(outboxEmails)
      .where(inArray(outboxEmails.to, addresses));
    expect(rows).toEqual(addresses.map(() => ({ status: "sent", attempts: 1 })));
  });
});
