import fs from "node:fs";
import { asc, count, eq } from "drizzle-orm";
import pino from "pino";
import PostalMime from "postal-mime";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { orderItems, orders, outboxEmails, products } from "~/db/schema";
import { TOO_SOON } from "~/domain/email-test";
import { escapeHtml } from "~/domain/email-templates";
import { formatEuros } from "~/domain/money";
import { type EmailTestDeps, runOrderEmailTest } from "~/services/email-test.server";
import { getOutboxEmail } from "~/services/mail.server";
import { seedSampleCatalogue } from "~/services/seed.server";
import { type MailWorker, startMailWorker } from "../../server/mail-worker";
import { ensureBuild, type RunningServer, startServer } from "./server-process";
import { type SmtpRelay, startSmtpServer } from "./smtp-server";
import { databaseLabel, onPostgresPass, openTestDatabase, serverDataDir, suiteServerDatabase } from "./test-database";
import { cookiesOf, signInAdmin } from "./http-accounts";
import { asPageText } from "../support/page-text";
import { runsOn } from "../support/by-design";

/**
 * The admin's order e-mail test (SPEC.md section 2, Test-email page): with the outbox by default,
 * against a local SMTP relay that accepts, refuses or is down, and over HTTP as the page shows it.
 */
const logger = pino({ level: "silent" });
const shop = { name: "Comptoir", email: "contact@comptoir.example", publicUrl: "https://comptoir.example" };
const admin = { name: "Admin Test", email: "admin@comptoir.test" };
const SELLER = "vendeur@comptoir.test";

// The HTTP suite's server starts at once, and the in-process suite runs meanwhile (a start is
// seconds of another process's work); the HTTP suite waits for it.
const serverDatabase = suiteServerDatabase("comptoir_email_test");
const ADMIN = { email: "admin-mails@comptoir.test", password: "admin-mails-mot-de-passe" };
let dataDir = "";
let smtp: SmtpRelay;
let starting: Promise<RunningServer> | null = null;

beforeAll(async () => {
  ensureBuild();
  smtp = await startSmtpServer();
  dataDir = await serverDataDir("comptoir-email-test-");
  starting = startServer({ DATA_DIR: dataDir, ...serverDatabase, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, SELLER_EMAIL: SELLER });
  starting.catch(() => {}); // its failure is the HTTP suite's
}, 120_000);

afterAll(async () => {
  const server = await starting?.catch(() => null);
  const code = await server?.stop();
  await smtp?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  // 0: stopped at once. An answer left unread holds its connection: forced out after 10 s, with 1.
  if (server) expect(code).toBe(0);
});

describe(`order e-mail test on ${databaseLabel}`, () => {
  let database: Database;
  const closers: (() => Promise<void>)[] = [];

  const deps = (sendNow: EmailTestDeps["sendNow"]): EmailTestDeps => ({ shop, sellerEmail: SELLER, admin, sendNow });
  async function relay(): Promise<{ smtp: SmtpRelay; worker: MailWorker }> {
    const smtp = await startSmtpServer();
    // A long poll: nothing but the test's own sends reach the relay.
    const worker = startMailWorker({ db: database.db, smtpUrl: `smtp://127.0.0.1:${smtp.port}`, from: { name: shop.name, address: shop.email }, logger, shopName: shop.name, pollMs: 60_000 });
    closers.push(() => worker.stop(), smtp.close);
    return { smtp, worker };
  }
  const stocks = () => database.db.select({ id: products.id, stock: products.stock }).from(products).orderBy(asc(products.id));
  const orderCount = async () => {
    const [o] = await database.db.select({ n: count() }).from(orders);
    const [i] = await database.db.select({ n: count() }).from(orderItems);
    return o!.n + i!.n;
  };

  beforeAll(async () => {
    database = await openTestDatabase();
    await seedSampleCatalogue(database.db);
  });
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    await database.db.delete(outboxEmails);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("by default queues both e-mails in the outbox, and writes no order and moves no stock", async () => {
    const before = await stocks();
    const result = await runOrderEmailTest(database.db, deps(null));

    // The first two products online, once and twice; the totals are the checkout's.
    const [first, second] = await database.db
      .select({ title: products.title, priceCents: products.priceCents })
      .from(products)
      .where(eq(products.status, "en_ligne"))
      .orderBy(asc(products.id))
      .limit(2);
    const subtotal = first!.priceCents + 2 * second!.priceCents;
    expect(result.orderDetails.orderNumber).toMatch(/^TEST-\d{6}-\d{4}$/);
    expect(result.orderDetails.items).toBe(3);
    expect(result.orderDetails.totalCents).toBeGreaterThan(subtotal); // the parcel insurance, chosen
    expect(result).toMatchObject({
      success: true,
      error: null,
      confirmationEmail: { status: "queued", sentTo: admin.email, error: null },
      notificationEmail: { status: "queued", sentTo: SELLER, error: null },
    });

    const number = result.orderDetails.orderNumber;
    const confirmation = await getOutboxEmail(database.db, result.confirmationEmail.id);
    const notification = await getOutboxEmail(database.db, result.notificationEmail.id);
    expect(result.confirmationEmail.outboxId).toBe(result.confirmationEmail.id);
    expect(confirmation).toMatchObject({ to: admin.email, status: "pending", kind: "test-order-confirmation", subject: `Confirmation de votre commande ${number} – Comptoir` });
    expect(notification).toMatchObject({ to: SELLER, status: "pending", kind: "test-seller-new-order", subject: `Nouvelle commande ${number} – ${formatEuros(result.orderDetails.totalCents)}` });
    // Due now: the worker sends them as soon as there is an SMTP relay.
    expect(confirmation!.nextAttemptAt.getTime()).toBeLessThanOrEqual(Date.now() + 1_000);
    expect(confirmation!.text).toContain(first!.title);
    expect(confirmation!.html).toContain(escapeHtml(second!.title));
    expect(confirmation!.text).toContain("Bonjour Admin Test,");
    expect(notification!.text).toContain(formatEuros(result.orderDetails.totalCents));

    expect(await database.db.select({ n: count() }).from(outboxEmails)).toEqual([{ n: 2 }]);
    expect(await orderCount()).toBe(0);
    expect(await stocks()).toEqual(before);
  });

  it("sends both e-mails at once through the SMTP relay, with their message ids, recorded as sent", async () => {
    const { smtp, worker } = await relay();
    const result = await runOrderEmailTest(database.db, deps(worker.send));

    expect(result).toMatchObject({ success: true, error: null, confirmationEmail: { status: "sent", sentTo: admin.email }, notificationEmail: { status: "sent", sentTo: SELLER } });
    expect(smtp.received.map((r) => r.to).sort()).toEqual([[admin.email], [SELLER]]);
    const received = await Promise.all(smtp.received.map((r) => PostalMime.parse(r.raw)));
    const byTo = new Map(received.map((message) => [message.to![0]!.address, message]));
    expect(byTo.get(admin.email)!.messageId).toBe(result.confirmationEmail.id);
    expect(byTo.get(SELLER)!.messageId).toBe(result.notificationEmail.id);
    expect(byTo.get(admin.email)!.subject).toBe(`Confirmation de votre commande ${result.orderDetails.orderNumber} – Comptoir`);
    expect(byTo.get(SELLER)!.subject).toContain(`Nouvelle commande ${result.orderDetails.orderNumber}`);

    for (const outcome of [result.confirmationEmail, result.notificationEmail]) {
      expect(await getOutboxEmail(database.db, outcome.outboxId)).toMatchObject({ status: "sent", attempts: 1, lastError: null, sentAt: expect.any(Date) });
    }
    // Sent once: the worker finds nothing left to send (stop waits for that pass to end).
    worker.kick();
    await worker.stop();
    expect(smtp.received).toHaveLength(2);
    expect(await orderCount()).toBe(0);
  });

  it("shows and records the relay's refusal of one e-mail, and sends the other", async () => {
    const { smtp, worker } = await relay();
    smtp.refuse = (address) => address === admin.email;
    const result = await runOrderEmailTest(database.db, deps(worker.send));

    expect(result.success).toBe(false);
    expect(result.error).toMatch(/^Envoi impossible \(confirmation client\)\u00a0: .*550/);
    expect(result.confirmationEmail).toMatchObject({ status: "failed", sentTo: admin.email, error: expect.stringContaining("550") });
    expect(result.confirmationEmail.id).toBe(result.confirmationEmail.outboxId);
    expect(result.notificationEmail).toMatchObject({ status: "sent", error: null });
    expect(smtp.received.map((r) => r.to)).toEqual([[SELLER]]);
    expect(await getOutboxEmail(database.db, result.confirmationEmail.outboxId)).toMatchObject({ status: "failed", lastError: expect.stringContaining("550") });
    expect(await getOutboxEmail(database.db, result.notificationEmail.outboxId)).toMatchObject({ status: "sent" });
  });

  it("shows and records both failures when the relay is down", async () => {
    const { smtp, worker } = await relay();
    await smtp.close();
    const result = await runOrderEmailTest(database.db, deps(worker.send));

    expect(result.success).toBe(false);
    expect(result.error).toMatch(/^Envoi impossible \(confirmation client et notification vendeur\)\u00a0: .*(ECONNREFUSED|connect)/i);
    for (const outcome of [result.confirmationEmail, result.notificationEmail]) {
      expect(outcome).toMatchObject({ status: "failed", error: expect.stringMatching(/ECONNREFUSED|connect/i) });
      expect(await getOutboxEmail(database.db, outcome.outboxId)).toMatchObject({ status: "failed", attempts: 1, lastError: expect.stringMatching(/ECONNREFUSED|connect/i) });
    }
    expect(await orderCount()).toBe(0);
  });
});

/** The page as a browser without JavaScript gets it, from the built server with SMTP_URL set. */
describe.skipIf(onPostgresPass)(`order e-mail test over HTTP on ${databaseLabel}`, runsOn("PGlite"), () => {
  const CUSTOMER = { name: "Cliente Test", email: "cliente@example.com", password: "Evoli-2026-test" };
  let server: RunningServer;
  let adminCookie = "";
  let customerCookie = "";

  const post = (pathname: string, values: Record<string, string>, cookie = "") =>
    fetch(`${server.url}${pathname}`, { method: "POST", body: new URLSearchParams(values), headers: cookie ? { cookie } : {}, redirect: "manual" });
  const get = (pathname: string, cookie = "") => fetch(`${server.url}${pathname}`, { headers: cookie ? { cookie } : {}, redirect: "manual" });
  const waitFor = async (check: () => boolean) => {
    for (let i = 0; i < 100 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(check()).toBe(true);
  };

  beforeAll(async () => {
    server = await starting!;
    // The admin first: enrolling the second factor e-mails them, before the customer's e-mail is
    // awaited (and the relay emptied for the tests).
    adminCookie = await signInAdmin(server.url, ADMIN);
    // A confirmed customer: the confirmation link arrives at the relay.
    const signup = await post("/signup", CUSTOMER);
    expect(signup.status).toBe(200);
    await signup.arrayBuffer();
    await waitFor(() => smtp.received.some((r) => r.to.includes(CUSTOMER.email)));
    const confirmation = await PostalMime.parse(smtp.received.find((r) => r.to.includes(CUSTOMER.email))!.raw);
    const link = new URL(confirmation.text!.match(/https?:\/\/\S+\/verify-email\?token=\S+/)![0]);
    const verified = await get(link.pathname + link.search);
    expect(verified.status).toBe(200);
    await verified.arrayBuffer();
    const login = await post("/login", CUSTOMER);
    expect(login.headers.get("location")).toBe("/account");
    customerCookie = cookiesOf(login);
    smtp.received.length = 0;
  }, 120_000);

  it("refuses the page to visitors and customers, and a customer's POST sends nothing", async () => {
    const read = async (answer: Promise<Response>) => {
      const response = await answer;
      await response.arrayBuffer();
      return response;
    };
    await Promise.all(
      ["/test-email", "/admin/test-email"].map(async (pathname) => {
        expect((await read(get(pathname))).headers.get("location"), pathname).toBe("/admin/login");
        expect((await read(get(pathname, customerCookie))).headers.get("location"), pathname).toBe("/admin/unauthorized");
        expect((await read(post(pathname, {}, customerCookie))).status, pathname).toBe(403);
        expect((await read(post(pathname, {}))).status, pathname).toBe(401);
      }),
    );
    // Anything sent after the answers would arrive by now.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(smtp.received).toHaveLength(0);
    const outbox = await (await get("/admin/emails", adminCookie)).text();
    expect(outbox).not.toContain("TEST-");
  });

  it("keeps the header link out of the shared page: the admin's browser adds it (decision 014)", async () => {
    const linked = (html: string) => html.includes('href="/test-email"');
    expect(linked(await (await get("/", adminCookie)).text())).toBe(false);
    expect(linked(await (await get("/", customerCookie)).text())).toBe(false);
    expect(linked(await (await get("/")).text())).toBe(false);
  });

  it("runs the test from the page without JavaScript: both e-mails sent, with their message ids, then refuses a second run at once", async () => {
    const page = await (await get("/admin/test-email", adminCookie)).text();
    expect(page).toContain("Tester les e-mails de commande");
    expect(page).toContain(SELLER);
    expect(page).toContain(ADMIN.email);

    const answer = await post("/admin/test-email", {}, adminCookie);
    expect(answer.status).toBe(200);
    const html = await answer.text();
    expect(smtp.received.map((r) => r.to).sort()).toEqual([[ADMIN.email], [SELLER]]);
    expect(html).toContain("Test réussi");
    expect(html).toContain("Les emails de test ont été envoyés avec succès.");
    expect(html.match(/>Envoyé</g)).toHaveLength(2);
    for (const received of smtp.received) {
      const { messageId } = await PostalMime.parse(received.raw);
      expect(messageId).toMatch(/^<.+@.+>$/);
      expect(html).toContain(asPageText(messageId!));
    }
    const number = html.match(/TEST-\d{6}-\d{4}/)![0];
    const notification = await PostalMime.parse(smtp.received.find((r) => r.to.includes(SELLER))!.raw);
    expect(notification.subject).toContain(number);
    const total = notification.subject!.split("– ")[1]!;
    expect(html).toContain(total);

    // A second click at once: refused, nothing more sent.
    const again = await post("/test-email", {}, adminCookie);
    expect(again.status).toBe(429);
    // React writes the apostrophe its own way: compare what follows it.
    expect(await again.text()).toContain(TOO_SOON.split("d'")[1]);
    expect(smtp.received).toHaveLength(2);
  });

  it("shows the relay's refusal on /test-email, with the error and the advice to read the logs, and records it", async () => {
    smtp.received.length = 0;
    smtp.refuse = () => true;
    // The previous run's few seconds must pass.
    let answer = await post("/test-email", {}, adminCookie);
    for (let i = 0; answer.status === 429 && i < 40; i++) {
      await answer.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, 250));
      answer = await post("/test-email", {}, adminCookie);
    }
    expect(answer.status).toBe(200);
    const html = await answer.text();
    expect(html).toContain("Échec du test");
    expect(html).toContain("Envoi impossible (confirmation client et notification vendeur)");
    expect(html).toContain("550");
    expect(html).toContain("Consultez les journaux du serveur pour plus de détails.");
    expect(html.match(/>Échec</g)).toHaveLength(2);
    expect(smtp.received).toHaveLength(0);

    const outbox = await (await get("/admin/emails", adminCookie)).text();
    const rows = (outbox.match(/<tr[\s\S]*?<\/tr>/g) ?? []).filter((row) => row.includes("TEST-"));
    expect(rows).toHaveLength(4);
    expect(rows.filter((row) => row.includes("Échec"))).toHaveLength(2);
    expect(rows.filter((row) => row.includes("Envoyé"))).toHaveLength(2);
  });
});
