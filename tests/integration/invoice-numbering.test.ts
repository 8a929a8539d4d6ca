import { spawnSync } from "node:child_process";
import { and, asc, count, eq, gt, inArray, like, or, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "~/db/client.server";
import { documentSequences, invoices, orderRefunds, orders, outboxEmails, paymentEvents, products, rateLimits, shippingMethods, testPaymentSessions, testRefunds } from "~/db/schema";
import type { Db } from "~/db/types";
import { documentNumber } from "~/domain/invoice";
import { formatEuros } from "~/domain/money";
import { parisWallClock } from "~/domain/paris-time";
import { defaultWeightGrams, quoteShipping } from "~/domain/shipping";
import { type LegalIdentity, frenchVatKey } from "~/domain/shop-identity";
import { cancelAndRefundOrder } from "~/services/admin-orders.server";
import { type CheckoutContext, startCheckout } from "~/services/checkout.server";
import { documentPdf, issueInvoice, sellerIdentity } from "~/services/invoices.server";
import { finishRefund } from "~/services/partial-refunds.server";
import { renderInvoicePdf } from "~/services/invoice-pdf.server";
import { type WebhookDeps, receiveWebhook } from "~/services/payment-webhooks.server";
import { createTestProvider, type TestProvider, testWebhook } from "~/services/payments/test-provider.server";
import type { PaymentProvider } from "~/services/payments/types";
import { completeRefund } from "~/services/refunds.server";
import { saveShopIdentity } from "~/services/shop-identity.server";
import { createUserWithPassword } from "~/services/users.server";
import { baseIncluded, expectedVat } from "../support/expected-vat";
import { databaseLabel, openTestDatabase } from "./test-database";

/**
 * Invoice and credit-note numbers on a real database (services/invoices.server.ts): one
 * gap-free, chronological sequence per kind, the number taken in the transaction that marks the
 * order paid (or refunds it), a rollback giving it back; the document's content frozen when it
 * is issued; and the delivery charged as the server prices it, whatever the checkout body says.
 *
 * "Two instances": on PostgreSQL, two database handles, each with its own connection pool on the
 * same database (what two server processes have), each with its own test-provider object; the
 * checkouts, payments and refunds alternate between them. On PGlite one process can open a
 * database only once, so there the two "instances" share one handle (and PGlite runs one
 * transaction at a time): the same code paths, without real parallelism.
 */
const deps: WebhookDeps = { shop: { name: "Comptoir", email: "contact@comptoir.example", publicUrl: "https://comptoir.example" }, sellerEmail: "vendeur@comptoir.example" };
const address = { method: "home" as const, fullName: "Marie Curie", line1: "12 rue des Lilas", postalCode: "75011", city: "Paris", country: "FR", phone: "0612345678" };
const SECRET = "invoice-numbering-secret";
const instancesNote = databaseLabel === "PostgreSQL" ? "two pools on one PostgreSQL database" : "PGlite: both share one handle";

/**
 * The PDF's text as a reader gets it (pdftotext, poppler-utils). On CI a missing pdftotext fails
 * the run; elsewhere the tests that read a PDF's text are skipped, and show as skipped (the
 * tests that make the PDFs still run and compare their bytes).
 */
const hasPdftotext = spawnSync("pdftotext", ["-v"], { stdio: "ignore" }).status === 0;
if (!hasPdftotext && process.env.CI) throw new Error("pdftotext is missing: the invoice-numbering suite reads the invoices' PDF text on CI (install poppler-utils)");
if (!hasPdftotext) console.warn("invoice-numbering: no pdftotext on this machine (Debian: poppler-utils), the PDFs' text is not checked");

/** The PDF's text (`pdftotext -layout`), every run of spaces (no-break ones included) as one space. */
function pdfText(pdf: Uint8Array): string {
  const result = spawnSync("pdftotext", ["-layout", "-enc", "UTF-8", "-", "-"], { input: Buffer.from(pdf), encoding: "utf8" });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout.replace(/\s+/g, " ");
}
/** As the PDF's text has it: formatEuros's and formatVatRate's no-break spaces read as spaces. */
const plain = (text: string) => text.replace(/\s+/g, " ");

const SIREN = "123456782";
const IDENTITY: LegalIdentity = {
  companyName: "Comptoir des Collectionneurs",
  legalForm: "SASU",
  shareCapital: "2\u202f500\u00a0€",
  rcsCity: "Lyon",
  rcsNumber: "B 123 456 782",
  siren: "123 456 782",
  vatNumber: `FR${frenchVatKey(SIREN)}${SIREN}`,
  address: "12 rue des Collectionneurs, 69002 Lyon",
  email: "bonjour@comptoir-collection.fr",
  phone: "04 78 00 00 00",
  publicationDirector: "Camille Martin",
  hostName: "Hébergeur Exemple SAS",
  hostAddress: "2 rue de l'Hébergement, 59100 Roubaix",
  hostPhone: "09 72 00 00 00",
  mediatorName: "Médiation Exemple",
  mediatorUrl: "https://www.mediation-exemple.fr/",
};
/** What the seller saves later: another name, address, capital and e-mail. */
const NEW_IDENTITY: LegalIdentity = {
  ...IDENTITY,
  companyName: "Grand Comptoir Nouvelle Dénomination",
  legalForm: "SAS",
  shareCapital: "10\u202f000\u00a0€",
  address: "99 avenue du Déménagement, 13001 Marseille",
  email: "nouveau@grand-comptoir.fr",
};

type Instance = { name: string; db: Db; provider: TestProvider };
type OrderRow = typeof orders.$inferSelect;

describe(`invoice and credit-note numbering on ${databaseLabel}, two instances (${instancesNote})`, () => {
  let primary: Database;
  let secondary: Database | null = null;
  let instances: [Instance, Instance];
  let adminId: string;
  let ip = 0;
  let titles = 0;
  /** Made by the tests that issue them, read as text by the tests after them (those need pdftotext). */
  let creditNotePdf: { pdf: Uint8Array; number: string; cancels: string } | undefined;
  let invoicePdfs: { pdf: Uint8Array; invoice: { number: string }; order: OrderRow }[] | undefined;

  const db = () => instances[0].db;
  /** The instance serving request `i`: they alternate. */
  const on = (i: number) => instances[i % 2]!;
  const ctx = (): CheckoutContext => ({
    now: new Date(),
    customer: null,
    // A new address per checkout: the rate limits have their own test.
    clientIp: `198.51.100.${++ip % 250}-${ip}`,
    orderPrefix: "CPT",
    origin: "http://shop.test",
    reservationMinutes: 30,
  });

  async function product(values: Partial<typeof products.$inferInsert> = {}) {
    const [row] = await db()
      .insert(products)
      .values({ title: `Display Écarlate et Violet n° ${++titles}`, priceCents: 1_499, stock: 50, category: "TCG", subCategory: "Scellés", ...values })
      .returning();
    return row!;
  }
  const manga = (values: Partial<typeof products.$inferInsert> = {}) => product({ title: `One Piece – Tome ${100 + ++titles}`, priceCents: 715, category: "Gaming & Mangas", subCategory: "Manga", ...values });
  const stockOf = async (id: number) => (await db().select({ stock: products.stock }).from(products).where(eq(products.id, id)))[0]!.stock;
  const orderOf = async (number: string) => (await db().select().from(orders).where(eq(orders.number, number)))[0]!;
  const orderCount = async () => (await db().select({ n: count() }).from(orders))[0]!.n;
  const methodNamed = async (name: string) => (await db().select().from(shippingMethods).where(eq(shippingMethods.name, name)))[0]!;

  /** The counters' last values, by kind. */
  async function counters(): Promise<{ invoice: number; credit_note: number }> {
    const rows = await db().select().from(documentSequences);
    return { invoice: rows.find((row) => row.kind === "invoice")!.lastValue, credit_note: rows.find((row) => row.kind === "credit_note")!.lastValue };
  }
  const documentsOf = (orderIds: string[], kind: "invoice" | "credit_note") =>
    db()
      .select()
      .from(invoices)
      .where(and(inArray(invoices.orderId, orderIds), eq(invoices.kind, kind)))
      .orderBy(asc(invoices.sequence));
  const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);
  const yearOf = (at: Date) => parisWallClock(at).year;

  async function checkout(instance: Instance, items: { productId: number; quantity: number }[], extra: Record<string, unknown> = {}): Promise<OrderRow> {
    const result = await startCheckout(instance.db, instance.provider, { items, insuranceSelected: false, ...extra }, ctx());
    if (result.status !== 200) throw new Error(`checkout refused: ${JSON.stringify(result.body)}`);
    return orderOf(result.body.orderNumber);
  }

  /** The provider's signed "paid" webhook for an order's session (both instances share the webhook secret). */
  const paidWebhook = (instance: Instance, order: OrderRow) =>
    testWebhook(instance.provider, "checkout.session.completed", {
      sessionId: order.providerSessionId!,
      paid: true,
      paymentReference: `pi_test_${order.id.slice(0, 8)}`,
      customerEmail: "marie@example.com",
      customerName: "Marie Curie",
      shippingAddress: address,
      amountTotalCents: order.totalCents,
    });

  /** Paid through the webhook path on an instance, as the provider would deliver it. */
  async function pay(instance: Instance, order: OrderRow) {
    const { raw, headers } = paidWebhook(instance, order);
    expect(await receiveWebhook(instance.db, instance.provider, raw, headers, deps)).toEqual({ status: 200, body: { received: true, outcome: "paid" } });
    return orderOf(order.number);
  }

  beforeAll(async () => {
    primary = await openTestDatabase();
    let other = primary;
    if (primary.kind === "postgres") {
      // The second instance: its own pool on the same database, as a second server process has.
      secondary = await openDatabase({ kind: "postgres", url: primary.pool!.options.connectionString!, poolSize: 5 });
      other = secondary;
    }
    instances = [
      { name: "A", db: primary.db, provider: createTestProvider({ db: primary.db, secret: SECRET }) },
      { name: "B", db: other.db, provider: createTestProvider({ db: other.db, secret: SECRET }) },
    ];
    ({ id: adminId } = await createUserWithPassword(primary.db, { email: "chef@comptoir.test", password: "chef-mot-de-passe-2026", name: "Chef Comptoir", role: "admin", emailVerified: true }));
  });
  afterAll(async () => {
    await secondary?.close();
    await primary?.close();
  });
  beforeEach(async () => {
    await db().delete(rateLimits);
  });

  it("50 concurrent checkouts, then 50 concurrent payments (with replays, unknown sessions and crashes mid-way): invoices 1..50 after the counter, one per order, none twice, in the order of their dates", async () => {
    const book = await manga({ stock: 200 });
    const booster = await product({ stock: 200, priceCents: 595 });
    const start = await counters();
    const began = new Date();

    const started = await Promise.all(
      range(0, 50).map((i) => startCheckout(on(i).db, on(i).provider, { items: [{ productId: i % 3 === 0 ? book.id : booster.id, quantity: 1 + (i % 2) }], insuranceSelected: false }, ctx())),
    );
    expect(started.map((result) => result.status)).toEqual(range(0, 50).map(() => 200));
    const numbers = started.map((result) => (result.status === 200 ? result.body.orderNumber : ""));
    const byNumber = new Map((await db().select().from(orders).where(inArray(orders.number, numbers))).map((order) => [order.number, order]));
    const placed = numbers.map((number) => byNumber.get(number)!);
    expect(placed.every((order) => order.status === "pending_payment" && order.providerSessionId)).toBe(true);
    // Checking out takes no number.
    expect(await counters()).toEqual(start);

    // Each payment lands on the other instance than its checkout's, as a load balancer may send it.
    const webhooks = placed.map((order, i) => ({ order, instance: on(i + 1), ...paidWebhook(on(i + 1), order) }));
    // Crashes after the number is taken: markPaid issues the invoice, queues the customer's
    // e-mail, then the seller's notice, which refuses an unreadable address (a configuration
    // mistake, as a template or the database could fail there). The paid transaction rolls back;
    // the webhook answers 500 and the provider delivers the event again later.
    const CRASHING = new Set([3, 17, 28, 41, 49]);
    const crashingDeps: WebhookDeps = { ...deps, sellerEmail: "vendeur-sans-domaine" };
    const isCrash = (reason: unknown) => reason instanceof Error && reason.message.includes("Adresse du destinataire invalide");
    // Delivered twice at once, on both instances: one is handled, the other is a duplicate.
    const REPLAYED = new Set([0, 5, 10, 22, 33, 44]);
    const unknown = range(0, 4).map((k) =>
      testWebhook(on(k).provider, "checkout.session.completed", { sessionId: `cs_test_inconnue_${k}`, paid: true, paymentReference: `pi_inconnu_${k}`, customerEmail: null, customerName: null, shippingAddress: null, amountTotalCents: null }),
    );

    type Delivery = { index: number | null; promise: Promise<{ status: number; body: { outcome?: string } }> };
    const deliveries: Delivery[] = [];
    webhooks.forEach(({ instance, raw, headers }, i) => {
      deliveries.push({ index: i, promise: receiveWebhook(instance.db, instance.provider, raw, headers, CRASHING.has(i) ? crashingDeps : deps) });
      if (REPLAYED.has(i)) {
        const other = instances[instances.indexOf(instance) === 0 ? 1 : 0];
        deliveries.push({ index: i, promise: receiveWebhook(other.db, other.provider, raw, headers, deps) });
      }
    });
    unknown.forEach(({ raw, headers }, k) => deliveries.push({ index: null, promise: receiveWebhook(on(k).db, on(k).provider, raw, headers, deps) }));
    const settled = await Promise.allSettled(deliveries.map((delivery) => delivery.promise));

    const outcomes = new Map<number | null, (string | undefined)[]>();
    settled.forEach((result, k) => {
      const { index } = deliveries[k]!;
      outcomes.set(index, [...(outcomes.get(index) ?? []), result.status === "fulfilled" ? result.value.body.outcome : isCrash(result.reason) ? "crashed" : String(result.reason)]);
    });
    for (const i of range(0, 50)) {
      const expected = CRASHING.has(i) ? ["crashed"] : REPLAYED.has(i) ? ["duplicate", "paid"] : ["paid"];
      expect({ i, outcomes: outcomes.get(i)!.sort() }).toEqual({ i, outcomes: expected });
    }
    expect(outcomes.get(null)).toEqual(["unknown-session", "unknown-session", "unknown-session", "unknown-session"]);

    // A crashed payment left nothing: the order waits, no invoice, the event not even recorded.
    const crashed = [...CRASHING].map((i) => placed[i]!);
    for (const order of crashed) expect((await orderOf(order.number)).status).toBe("pending_payment");
    expect(await documentsOf(crashed.map((order) => order.id), "invoice")).toEqual([]);
    expect(await db().select().from(paymentEvents).where(inArray(paymentEvents.orderId, crashed.map((order) => order.id)))).toEqual([]);
    expect(await db().select().from(outboxEmails).where(or(...crashed.map((order) => like(outboxEmails.subject, `%${order.number}%`))))).toEqual([]);
    // 45 numbers went out, and the ones the crashes took came back: no gap so far.
    expect((await counters()).invoice).toBe(start.invoice + 45);

    // The provider retries the crashed events (on either instance), once each and once more.
    const retries = await Promise.all(
      [...CRASHING].flatMap((i) => [0, 1].map((k) => receiveWebhook(on(i + k).db, on(i + k).provider, webhooks[i]!.raw, webhooks[i]!.headers, deps))),
    );
    expect(retries.map((answer) => answer.body.outcome).sort()).toEqual([...Array(5).fill("duplicate"), ...Array(5).fill("paid")]);

    // Now paid, with their e-mails (the customer's confirmation, the seller's notice) once each.
    for (const order of crashed) expect((await db().select({ kind: outboxEmails.kind }).from(outboxEmails).where(like(outboxEmails.subject, `%${order.number}%`))).map((email) => email.kind).sort()).toEqual(["order-confirmation", "seller-new-order"]);
    const paid = await db().select().from(orders).where(inArray(orders.number, numbers));
    expect(paid.map((order) => order.status)).toEqual(paid.map(() => "paid"));
    const issued = await documentsOf(placed.map((order) => order.id), "invoice");
    // Exactly one invoice per paid order…
    expect(issued).toHaveLength(50);
    expect(new Set(issued.map((invoice) => invoice.orderId)).size).toBe(50);
    // …numbered start+1 … start+50, contiguous, none twice.
    expect(issued.map((invoice) => invoice.sequence)).toEqual(range(start.invoice + 1, 50));
    expect(new Set(issued.map((invoice) => invoice.number)).size).toBe(50);
    for (const invoice of issued) {
      const order = paid.find((candidate) => candidate.id === invoice.orderId)!;
      expect(invoice.number).toBe(documentNumber("invoice", yearOf(invoice.issuedAt), invoice.sequence));
      expect(invoice.snapshot).toMatchObject({ kind: "invoice", number: invoice.number, orderNumber: order.number, cancelsInvoice: null, totals: { inclVatCents: order.totalCents } });
      expect(invoice.totalCents).toBe(order.totalCents);
      expect(invoice.issuedAt >= began && invoice.issuedAt <= new Date()).toBe(true);
    }
    // The counter stands at the last number, and nothing else took one.
    expect(await counters()).toEqual({ invoice: start.invoice + 50, credit_note: start.credit_note });
    expect((await db().select({ n: count() }).from(invoices).where(and(eq(invoices.kind, "invoice"), gt(invoices.sequence, start.invoice))))[0]!.n).toBe(50);
    // Chronological: a later number never bears an earlier date (CGI art. 242 nonies A).
    const outOfOrder = issued.slice(1).flatMap((invoice, k) =>
      invoice.issuedAt < issued[k]!.issuedAt ? [`${issued[k]!.number} issued ${issued[k]!.issuedAt.toISOString()}, then ${invoice.number} issued ${invoice.issuedAt.toISOString()}`] : [],
    );
    expect(outOfOrder).toEqual([]);
  });

  it("a number taken in a transaction that rolls back is given back: the next invoice takes it, on the other instance", async () => {
    const [a, b] = instances;
    const order = await checkout(a, [{ productId: (await product()).id, quantity: 1 }]);
    const before = await counters();
    let taken = "";
    const failure = new Error("panne après la numérotation");
    await expect(
      b.db.transaction(async (tx) => {
        taken = (await issueInvoice(tx as unknown as Db, order.id, await sellerIdentity(tx as unknown as Db, deps), new Date())).number;
        // Inside the transaction, the number is taken and the invoice written…
        expect((await tx.select().from(documentSequences).where(eq(documentSequences.kind, "invoice")))[0]!.lastValue).toBe(before.invoice + 1);
        expect(await tx.select({ number: invoices.number }).from(invoices).where(eq(invoices.orderId, order.id))).toEqual([{ number: taken }]);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(taken).toBe(documentNumber("invoice", yearOf(new Date()), before.invoice + 1));
    // …and the rollback undoes both.
    expect(await counters()).toEqual(before);
    expect(await documentsOf([order.id], "invoice")).toEqual([]);

    // The real payment comes, on the other instance: its invoice bears the number given back.
    await pay(a, order);
    expect((await documentsOf([order.id], "invoice")).map(({ number, sequence }) => ({ number, sequence }))).toEqual([{ number: taken, sequence: before.invoice + 1 }]);
    expect(await counters()).toEqual({ ...before, invoice: before.invoice + 1 });
  });

  it("a refund issues one credit note A-… from its own contiguous sequence, naming the invoice it cancels, negated; refunding again issues none", async () => {
    const book = await manga({ stock: 20 });
    const booster = await product({ stock: 20 });
    // Seven paid orders, placed side by side (their invoices' order is not what this test checks).
    const placed = await Promise.all(range(0, 7).map(async (i) => pay(on(i + 1), await checkout(on(i), [{ productId: book.id, quantity: 1 + (i % 2) }, { productId: booster.id, quantity: 1 }]))));
    const invoiceOf = new Map((await documentsOf(placed.map((order) => order.id), "invoice")).map((invoice) => [invoice.orderId, invoice]));
    expect(invoiceOf.size).toBe(7);
    const start = await counters();
    const began = new Date();

    // The seller's "Annuler et rembourser" for six orders at once over both instances, two of
    // them clicked on both instances at the same time.
    const answers = await Promise.all([
      ...placed.slice(0, 6).map((order, i) => cancelAndRefundOrder(on(i).db, on(i).provider, order.number, adminId, deps)),
      ...placed.slice(0, 2).map((order, i) => cancelAndRefundOrder(on(i + 1).db, on(i + 1).provider, order.number, adminId, deps)),
    ]);
    expect(answers.filter((answer) => answer.ok)).toHaveLength(6);
    expect(answers.filter((answer) => !answer.ok).map((answer) => answer.status)).toEqual([409, 409]);

    // The seventh: the provider fails first (no money back, so no credit note), then the retry refunds it.
    const last = placed[6]!;
    const broken: PaymentProvider = { ...instances[0].provider, refund: () => Promise.reject(new Error("prestataire indisponible")) };
    expect(await cancelAndRefundOrder(db(), broken, last.number, adminId, deps)).toMatchObject({ ok: false, status: 502 });
    expect(await documentsOf([last.id], "credit_note")).toEqual([]);
    expect(await counters()).toEqual({ ...start, credit_note: start.credit_note + 6 });
    expect(await completeRefund(instances[1].db, instances[1].provider, last.id, deps)).toMatchObject({ outcome: "refunded" });

    const notes = await documentsOf(placed.map((order) => order.id), "credit_note");
    expect(notes).toHaveLength(7);
    expect(new Set(notes.map((note) => note.orderId)).size).toBe(7);
    expect(notes.map((note) => note.sequence)).toEqual(range(start.credit_note + 1, 7));
    expect(await counters()).toEqual({ invoice: start.invoice, credit_note: start.credit_note + 7 });
    for (const note of notes) {
      const order = await orderOf(placed.find((candidate) => candidate.id === note.orderId)!.number);
      const invoice = invoiceOf.get(note.orderId)!;
      expect(order.status).toBe("refunded");
      expect(note.number).toMatch(/^A-\d{4}-\d{6}$/);
      expect(note.number).toBe(documentNumber("credit_note", yearOf(note.issuedAt), note.sequence));
      expect(note.issuedAt >= began && note.issuedAt <= new Date() && note.issuedAt >= invoice.issuedAt).toBe(true);
      const snapshot = note.snapshot;
      expect(snapshot).toMatchObject({ kind: "credit_note", number: note.number, cancelsInvoice: invoice.number, orderNumber: order.number });
      // Every amount of the invoice, negated.
      expect(note.totalCents).toBe(-order.totalCents);
      expect(note.totalCents).toBeLessThan(0);
      expect(snapshot.totals).toEqual({
        inclVatCents: -invoice.snapshot.totals.inclVatCents,
        vatCents: -invoice.snapshot.totals.vatCents,
        exclVatCents: -invoice.snapshot.totals.exclVatCents,
        marginSchemeCents: 0,
      });
      expect(snapshot.totals.vatCents).toBeLessThan(0);
      expect(snapshot.totals.exclVatCents).toBeLessThan(0);
      expect(snapshot.lines.map((line) => line.totalCents)).toEqual(invoice.snapshot.lines.map((line) => -line.totalCents));
      expect(snapshot.lines.every((line) => line.totalCents < 0)).toBe(true);
      expect(snapshot.vatBreakdown.map((row) => row.rateBp).sort((x, y) => x - y)).toEqual([550, 2000]);
      expect(snapshot.vatBreakdown.every((row) => row.baseCents < 0 && row.vatCents < 0 && row.totalCents < 0)).toBe(true);
    }

    // Refunding again: refused, nothing issued, however it is asked.
    const again = await Promise.all(placed.map((order, i) => cancelAndRefundOrder(on(i).db, on(i).provider, order.number, adminId, deps)));
    expect(again.map((answer) => answer.status)).toEqual(placed.map(() => 409));
    expect((await Promise.all(placed.map((order, i) => completeRefund(on(i).db, on(i).provider, order.id, deps)))).map((outcome) => outcome.outcome)).toEqual(placed.map(() => "not-pending"));
    // Even the refund itself, finished again directly: the note already issued, no new number.
    const [lastRefund] = await db().select().from(orderRefunds).where(eq(orderRefunds.orderId, last.id));
    const direct = await finishRefund(db(), on(0).provider, lastRefund!.id, deps);
    expect(direct.ok && direct.refund.creditNoteNumber).toBe(notes[notes.length - 1]!.number);
    expect(await counters()).toEqual({ invoice: start.invoice, credit_note: start.credit_note + 7 });
    expect(await documentsOf(placed.map((order) => order.id), "credit_note")).toHaveLength(7);
    // One refund at the provider per order (its idempotency key).
    expect((await db().select({ n: count() }).from(testRefunds).where(inArray(testRefunds.idempotencyKey, placed.map((order) => `refund:${order.id}`))))[0]!.n).toBe(7);

    // The credit note's PDF, read as text by the next test.
    creditNotePdf = { pdf: (await documentPdf(db(), last.id, notes[6]!.number))!.pdf, number: notes[6]!.number, cancels: invoiceOf.get(last.id)!.number };
  });

  it.skipIf(!hasPdftotext)("the credit note's PDF says what it is and what it cancels (read by pdftotext)", () => {
    expect(creditNotePdf, "made by the refund test above").toBeDefined();
    const text = pdfText(creditNotePdf!.pdf);
    expect(text).toContain("AVOIR");
    expect(text).toContain(`N° ${creditNotePdf!.number}`);
    expect(text).toContain(`Annule la facture ${creditNotePdf!.cancels}`);
  });

  it("dates follow numbers when a payment's or a refund's transaction waits for its order row while a later one goes through", async () => {
    const [a, b] = instances;
    const booster = await product({ stock: 10 });
    const [x, y] = [await pay(a, await checkout(a, [{ productId: booster.id, quantity: 1 }])), await pay(b, await checkout(b, [{ productId: booster.id, quantity: 1 }]))];
    const [px, py] = [await checkout(a, [{ productId: booster.id, quantity: 1 }]), await checkout(b, [{ productId: booster.id, quantity: 1 }])];
    // Both refunds left pending by a provider failure; the retries below give the money back.
    const broken: PaymentProvider = { ...a.provider, refund: () => Promise.reject(new Error("prestataire indisponible")) };
    for (const order of [x, y]) expect(await cancelAndRefundOrder(a.db, broken, order.number, adminId, deps)).toMatchObject({ status: 502 });
    const start = await counters();

    /**
     * Holds an order's row (on instance A), as a sweeper or an admin action does for a moment;
     * meanwhile `first` starts on instance B and waits for that row, then `second` starts a few
     * milliseconds later on instance A and goes through. `second` takes the next number; `first`
     * the one after it, and its date must not be earlier.
     */
    async function race(orderId: string, first: () => Promise<unknown>, second: () => Promise<unknown>) {
      let release!: () => void;
      let held!: () => void;
      const holding = new Promise<void>((resolve) => (held = resolve));
      const holder = a.db.transaction(async (tx) => {
        await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, orderId)).for("update");
        held();
        await new Promise<void>((resolve) => (release = resolve));
      });
      await holding;
      const waiting = first();
      if (databaseLabel === "PostgreSQL") {
        // Until `first` waits for the row (PGlite runs one transaction at a time, in the order they start).
        await expect.poll(async () => (await primary.pool!.query<{ n: number }>("select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'")).rows[0]?.n, { timeout: 5_000 }).toBe(1);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
      const passing = second();
      if (databaseLabel === "PostgreSQL") await passing;
      release();
      await Promise.all([holder, waiting, passing]);
    }

    const { raw, headers } = paidWebhook(b, px);
    const later = paidWebhook(a, py);
    await race(
      px.id,
      () => receiveWebhook(b.db, b.provider, raw, headers, deps),
      () => receiveWebhook(a.db, a.provider, later.raw, later.headers, deps),
    );
    await race(
      x.id,
      () => completeRefund(b.db, b.provider, x.id, deps),
      () => completeRefund(a.db, a.provider, y.id, deps),
    );

    const issued = await documentsOf([px.id, py.id], "invoice");
    const notes = await documentsOf([x.id, y.id], "credit_note");
    expect(issued.map((invoice) => invoice.sequence)).toEqual(range(start.invoice + 1, 2));
    expect(notes.map((note) => note.sequence)).toEqual(range(start.credit_note + 1, 2));
    expect([px, py, x, y].map((order) => order.id).sort()).toEqual([...issued, ...notes].map((document) => document.orderId).sort());
    const backwards = [issued, notes].flatMap((documents) =>
      documents[1]!.issuedAt < documents[0]!.issuedAt ? [`${documents[0]!.number} issued ${documents[0]!.issuedAt.toISOString()}, then ${documents[1]!.number} issued ${documents[1]!.issuedAt.toISOString()}`] : [],
    );
    // The number and its date are taken together (never before the previous document's date).
    expect(backwards).toEqual([]);
  });

  it("a payment refunded before it was ever paid for good has no invoice, hence no credit note, and takes no number", async () => {
    const [a, b] = instances;
    const last = await product({ stock: 1 });
    const order = await checkout(a, [{ productId: last.id, quantity: 1 }]);
    const expiry = testWebhook(a.provider, "checkout.session.expired", { sessionId: order.providerSessionId!, paid: false, paymentReference: null, customerEmail: null, customerName: null, shippingAddress: null, amountTotalCents: null });
    expect((await receiveWebhook(a.db, a.provider, expiry.raw, expiry.headers, deps)).body.outcome).toBe("released");
    // The unit is sold to someone else meanwhile.
    await db().update(products).set({ stock: 0 }).where(eq(products.id, last.id));
    const before = await counters();
    const { raw, headers } = paidWebhook(b, order);
    expect((await receiveWebhook(b.db, b.provider, raw, headers, deps)).body.outcome).toBe("refund-pending");
    expect((await orderOf(order.number)).status).toBe("refunded");
    expect(await db().select().from(invoices).where(eq(invoices.orderId, order.id))).toEqual([]);
    expect(await counters()).toEqual(before);
  });

  it("an issued invoice does not change: the product, the price and the shop's identity change after it, its snapshot and its PDF bytes stay", async () => {
    const [a, b] = instances;
    await saveShopIdentity(db(), IDENTITY);
    const book = await manga({ title: "Chainsaw Man – Tome 1", priceCents: 699, stock: 10 });
    const booster = await product({ title: "Booster Mascarade Crépusculaire", priceCents: 650, stock: 10 });
    const colissimo = await methodNamed("Colissimo à domicile");
    const cart = [
      { productId: book.id, quantity: 2 },
      { productId: booster.id, quantity: 3 },
    ];
    const delivery = { methodId: colissimo.id, country: "FR" };
    // Two paid orders: the first one's PDF is downloaded before the changes, the second one's only after.
    const early = await pay(b, await checkout(a, cart, { delivery }));
    const late = await pay(a, await checkout(b, cart, { delivery }));
    expect(early.shippingCents).toBeGreaterThan(0);
    const [issued] = await documentsOf([early.id], "invoice");
    const [lateIssued] = await documentsOf([late.id], "invoice");
    expect(issued!.snapshot).toMatchObject({
      seller: { name: IDENTITY.companyName, address: IDENTITY.address, siren: IDENTITY.siren },
      lines: [
        { name: "Booster Mascarade Crépusculaire", quantity: 3, unitPriceCents: 650, vatRateBp: 2000 },
        { name: "Chainsaw Man – Tome 1", quantity: 2, unitPriceCents: 699, vatRateBp: 550 },
      ],
      charges: [{ label: "Livraison – Colissimo à domicile", totalCents: early.shippingCents }],
      delivery: { methodName: "Colissimo à domicile" },
      totals: { inclVatCents: early.totalCents },
    });
    expect(issued!.snapshot.vatBreakdown.map((row) => row.rateBp).sort((x, y) => x - y)).toEqual([550, 2000]);
    const first = (await documentPdf(a.db, early.id, issued!.number))!.pdf;

    // Everything the invoice was made from changes: the products, their prices, the delivery
    // method's name and price, the seller's identity.
    await db().update(products).set({ title: "Chainsaw Man – Tome 1 (réédition)", priceCents: 799 }).where(eq(products.id, book.id));
    await db().update(products).set({ title: "Booster Mascarade Crépusculaire – nouvelle version", priceCents: 750 }).where(eq(products.id, booster.id));
    await db()
      .update(shippingMethods)
      .set({ name: "Colissimo Domicile Express", bands: colissimo.bands.map((band) => ({ ...band, priceCents: band.priceCents + 100 })) })
      .where(eq(shippingMethods.id, colissimo.id));
    await saveShopIdentity(b.db, NEW_IDENTITY);

    try {
      const [after] = await documentsOf([early.id], "invoice");
      expect(after!.snapshot).toEqual(issued!.snapshot);
      expect({ number: after!.number, sequence: after!.sequence, issuedAt: after!.issuedAt, totalCents: after!.totalCents }).toEqual({
        number: issued!.number,
        sequence: issued!.sequence,
        issuedAt: issued!.issuedAt,
        totalCents: issued!.totalCents,
      });
      const second = (await documentPdf(b.db, early.id, issued!.number))!.pdf;
      expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true);
      // Made again from the stored snapshot, the PDF is the same to the byte: nothing else goes in.
      expect(Buffer.from(await renderInvoicePdf(after!.snapshot)).equals(Buffer.from(first))).toBe(true);

      // The second order's PDF, first made now, is still the document as issued.
      const [lateAfter] = await documentsOf([late.id], "invoice");
      expect(lateAfter!.snapshot).toEqual(lateIssued!.snapshot);
      const latePdf = (await documentPdf(b.db, late.id, lateIssued!.number))!.pdf;
      expect(Buffer.from(latePdf).equals(Buffer.from(await renderInvoicePdf(lateIssued!.snapshot)))).toBe(true);

      // An invoice issued now does carry the new identity (the change did happen).
      const now = await pay(b, await checkout(a, [{ productId: booster.id, quantity: 1 }]));
      const [current] = await documentsOf([now.id], "invoice");
      expect(current!.snapshot.seller).toMatchObject({ name: NEW_IDENTITY.companyName, address: NEW_IDENTITY.address });
      expect(current!.snapshot.lines[0]).toMatchObject({ name: "Booster Mascarade Crépusculaire – nouvelle version", unitPriceCents: 750 });

      // Both PDFs, read as text by the next test.
      invoicePdfs = [
        { pdf: first, invoice: issued!, order: early },
        { pdf: latePdf, invoice: lateIssued!, order: late },
      ];
    } finally {
      await db().update(shippingMethods).set({ name: colissimo.name, bands: colissimo.bands }).where(eq(shippingMethods.id, colissimo.id));
    }
  });

  it.skipIf(!hasPdftotext)("an issued invoice's PDF says Facture, its number, the delivery and each VAT rate, and the seller as they were, after the changes (read by pdftotext)", () => {
    expect(invoicePdfs, "made by the test above").toHaveLength(2);
    for (const { pdf, invoice, order } of invoicePdfs!) {
      const text = pdfText(pdf);
      expect(text).toContain("FACTURE");
      expect(text).toContain(`Facture ${invoice.number}`);
      expect(text).toContain(`N° ${invoice.number}`);
      // The manga at 5,5 %, the booster at 20 %, before VAT (layout 2): the unit price / (1 +
      // rate), each line's part of its rate's base as the test works it out, in the lines and in
      // the VAT breakdown; the delivery, at the price charged then, a line per rate.
      const vat = expectedVat(
        [
          { totalCents: 2 * 699, rateBp: 550 },
          { totalCents: 3 * 650, rateBp: 2000 },
        ],
        order.shippingCents,
      );
      const [mangaBase, boosterBase] = [2 * 699 - vat.lineVatCents[0]!, 3 * 650 - vat.lineVatCents[1]!];
      const euros = (cents: number) => plain(formatEuros(cents));
      expect(text).toMatch(new RegExp(`Chainsaw Man – Tome 1 +2 +${euros(baseIncluded(699, 550))} +5,5 % +${euros(mangaBase)}`));
      expect(text).toMatch(new RegExp(`Booster Mascarade Crépusculaire +3 +${euros(baseIncluded(650, 2000))} +20 % +${euros(boosterBase)}`));
      const [at20, at55] = [vat.rows.find((row) => row.rateBp === 2000)!, vat.rows.find((row) => row.rateBp === 550)!];
      expect(text).toMatch(new RegExp(`Livraison – Colissimo à domicile +1 +${euros(at20.baseCents - boosterBase)} +20 % +${euros(at20.baseCents - boosterBase)}`));
      expect(text).toMatch(new RegExp(`Livraison – Colissimo à domicile +1 +${euros(at55.baseCents - mangaBase)} +5,5 % +${euros(at55.baseCents - mangaBase)}`));
      expect(at20.totalCents + at55.totalCents).toBe(order.totalCents);
      expect(text).toContain("DÉTAIL DE LA TVA");
      for (const row of vat.rows) expect(text).toContain(`${row.rateBp === 550 ? "5,5" : "20"} % ${euros(row.baseCents)} ${euros(row.vatCents)} ${euros(row.totalCents)}`);
      expect(text).toMatch(/5,5 % +\S+ € +\S+ € +\S+ €/);
      expect(text).toMatch(/20 % +\S+ € +\S+ € +\S+ €/);
      // The seller as they were when it was issued; nothing of what changed after.
      expect(text).toContain(IDENTITY.companyName);
      expect(text).toContain(IDENTITY.address);
      for (const changed of [NEW_IDENTITY.companyName, NEW_IDENTITY.address, "réédition", "nouvelle version", "Express", "7,99 €"]) expect(text).not.toContain(changed);
    }
  });

  it("a forged delivery price or method in the checkout body is refused in French (nothing written) or ignored: the order carries the server's price", async () => {
    const [a, b] = instances;
    const book = await manga({ title: "Frieren – Tome 3", priceCents: 705, stock: 20 });
    const booster = await product({ title: "Booster Couronne Stellaire", priceCents: 650, stock: 20 });
    const items = [
      { productId: book.id, quantity: 1 },
      { productId: booster.id, quantity: 2 },
    ];
    const colissimo = await methodNamed("Colissimo à domicile");
    const europe = await methodNamed("Colissimo Europe");
    const relay = await methodNamed("Point relais");
    const [inactive] = await db()
      .insert(shippingMethods)
      .values({ name: "Coursier gratuit (retiré)", kind: "home", countries: ["FR", "DE"], bands: [{ upToGrams: null, fromSubtotalCents: 0, priceCents: 0 }], freeFromCents: 0, active: false })
      .returning();
    const relayPoint = { id: "FR-75011-042", name: "Librairie du Coin", line1: "3 rue Oberkampf", postalCode: "75011", city: "Paris" };

    const shippingRefusal = (details: string) => ({ status: 422, code: "SHIPPING", details, fieldErrors: { delivery: details } });
    const unreadable = { status: 400, code: "INVALID", details: "Votre panier contient des données illisibles. Actualisez la page et réessayez.", fieldErrors: { "delivery.methodId": "Choisissez un mode de livraison." } };
    const cases: [string, Record<string, unknown>, ReturnType<typeof shippingRefusal> | typeof unreadable][] = [
      ["a method that does not serve the country", { shippingCents: 0, delivery: { methodId: colissimo.id, country: "DE" } }, shippingRefusal("« Colissimo à domicile » ne livre pas en Allemagne. Choisissez un autre mode de livraison.")],
      ["an inactive method", { shippingCents: 0, delivery: { methodId: inactive!.id, country: "FR" } }, shippingRefusal("Ce mode de livraison n'est plus proposé. Choisissez-en un autre dans votre panier.")],
      ["a method that does not exist", { delivery: { methodId: 2_000_000_000, country: "FR" } }, shippingRefusal("Ce mode de livraison n'est plus proposé. Choisissez-en un autre dans votre panier.")],
      ["a relay method without its relay point", { delivery: { methodId: relay.id, country: "FR", priceCents: 0 } }, shippingRefusal("Indiquez le point relais choisi : son nom, son identifiant et son adresse complète.")],
      ["a method id beyond an integer column", { delivery: { methodId: 2 ** 31, country: "FR" } }, unreadable],
      ["a huge method id", { delivery: { methodId: 1e20, country: "FR" } }, unreadable],
      ["a negative method id", { delivery: { methodId: -colissimo.id, country: "FR" } }, unreadable],
      ["a zero method id", { delivery: { methodId: 0, country: "FR" } }, unreadable],
      ["a fractional method id", { delivery: { methodId: colissimo.id + 0.5, country: "FR" } }, unreadable],
      ["a method id as text", { delivery: { methodId: `${colissimo.id}; drop table orders`, country: "FR" } }, unreadable],
    ];
    const ordersBefore = await orderCount();
    const stockBefore = [await stockOf(book.id), await stockOf(booster.id)];
    for (const [what, extra, expected] of cases) {
      const result = await startCheckout(a.db, a.provider, { items, insuranceSelected: false, email: "forgee@example.com", ...extra }, ctx());
      const body = result.body as { code?: string; details?: string; fieldErrors?: Record<string, string> };
      expect({ what, status: result.status, code: body.code, details: body.details, fieldErrors: body.fieldErrors }).toEqual({ what, ...expected });
    }
    // Nothing written: no order, no session, the stock as it was.
    expect(await orderCount()).toBe(ordersBefore);
    expect(await db().select().from(orders).where(eq(orders.customerEmail, "forgee@example.com"))).toEqual([]);
    expect([await stockOf(book.id), await stockOf(booster.id)]).toEqual(stockBefore);
    expect(await db().select().from(testPaymentSessions).where(sql`${testPaymentSessions.lines}::text like '%Couronne Stellaire%'`)).toEqual([]);

    // A valid choice with a forged price: the price is the server's, from the method's stored bands.
    const cart = async (country: string) => {
      const rows = await db().select().from(products).where(inArray(products.id, [book.id, booster.id]));
      const weightGrams = items.reduce((sum, item) => {
        const row = rows.find((candidate) => candidate.id === item.productId)!;
        return sum + (row.weightGrams ?? defaultWeightGrams(row.category, row.subCategory)) * item.quantity;
      }, 0);
      const goodsCents = items.reduce((sum, item) => sum + rows.find((candidate) => candidate.id === item.productId)!.priceCents * item.quantity, 0);
      return { weightGrams, goodsCents, country };
    };
    const chosen: [Instance, typeof europe, Record<string, unknown>, string][] = [
      [b, europe, { methodId: europe.id, country: "DE", priceCents: 0, shippingCents: 0, name: "Gratuit" }, "DE"],
      [a, relay, { methodId: relay.id, country: "FR", relayPoint, priceCents: 1 }, "FR"],
      [b, colissimo, { methodId: colissimo.id, country: "FR" }, "FR"],
    ];
    for (const [instance, method, choice, country] of chosen) {
      const stored = (await db().select().from(shippingMethods).where(eq(shippingMethods.id, method.id)))[0]!;
      const quote = quoteShipping(stored, await cart(country));
      expect(quote).not.toBeNull();
      expect(quote!.priceCents).toBeGreaterThan(0);
      const order = await checkout(instance, items, { shippingCents: 0, shipping: { priceCents: 0 }, totalCents: 100, delivery: choice });
      expect(order).toMatchObject({ shippingCents: quote!.priceCents, shippingMethodId: method.id, shippingMethodName: method.name, shippingCountry: country, subtotalCents: (await cart(country)).goodsCents });
      expect(order.totalCents).toBe(order.subtotalCents + quote!.priceCents);
      if (method.kind === "relay") expect(order.shippingAddress).toMatchObject({ method: "relay", relayPointId: relayPoint.id, relayPointName: relayPoint.name, country: "FR" });
      const [session] = await db().select().from(testPaymentSessions).where(eq(testPaymentSessions.id, order.providerSessionId!));
      expect(session!.lines.at(-1)).toEqual({ name: `Livraison – ${method.name}`, unitAmountCents: quote!.priceCents, quantity: 1 });
      expect(session!.totalCents).toBe(order.totalCents);
    }
  });
});
