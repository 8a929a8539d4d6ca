import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import pino from "pino";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { invoices, orderItems, orders, products, stockAlerts } from "~/db/schema";
import { PRIVACY_IS_ACCOUNT, PRIVACY_NOTHING, PRIVACY_OPEN_ORDER } from "~/domain/privacy";
import { type Auth, createAuth } from "~/lib/auth.server";
import type { AppContext } from "~/lib/context";
import * as privacyRoute from "~/routes/admin/privacy";
import * as privacyExportRoute from "~/routes/admin/privacy-export";
import { cancelAndRefundOrder } from "~/services/admin-orders.server";
import { startCheckout } from "~/services/checkout.server";
import { eraseGuest, exportGuestData } from "~/services/gdpr.server";
import { submitInboxRequest } from "~/services/inbox.server";
import { receiveWebhook } from "~/services/payment-webhooks.server";
import { createTestProvider, type TestProvider, testWebhook } from "~/services/payments/test-provider.server";
import { type FileStore, localDiskStore } from "~/services/storage.server";
import { alertLinkToken, confirmAlert, requestAlert } from "~/services/stock-alerts.server";
import { createUserWithPassword } from "~/services/users.server";
import { requestWithdrawal } from "~/services/withdrawal.server";
import { signInAdminWithCode } from "./admin-second-factor";
import { databaseLabel, openTestDatabase } from "./test-database";

/**
 * A guest's data by e-mail address (GDPR access and erasure for people without an account): a
 * guest orders and pays, writes through /contact and /rachat with a photo, withdraws; the export
 * holds all of it; the erasure leaves their address, name and phone in no text or JSON column
 * of any table and their photo in no storage, while the order's amounts and the invoice remain.
 */
const shop = { name: "Comptoir", email: "contact@comptoir.example", publicUrl: "https://comptoir.example" };
const SELLER = "vendeur@comptoir.example";
const ALERT_SECRET = "secret-des-alertes-0123456789";
const deps = { shop, sellerEmail: SELLER };
const ORIGIN = "https://comptoir.example";
const PASSWORD = "mot-de-passe-solide-42";
/** As typed at the checkout; the forms and the seller use other cases. */
const GUEST = { email: "Gaelle.Invitee@Example.org", name: "Gaëlle Invitée", phone: "0698765432", spacedPhone: "06 98 76 54 32" };
const address = { method: "home" as const, fullName: GUEST.name, line1: "3 impasse des Mouettes", postalCode: "29200", city: "Brest", country: "FR", phone: GUEST.phone };

describe(`a guest's data by e-mail address on ${databaseLabel}`, () => {
  let database: Database;
  let provider: TestProvider;
  let filesDir: string;
  let privateFiles: FileStore;
  let orderNumber: string;
  let orderId: string;
  let photoKeys: string[];
  let auth: Auth;
  let context: AppContext;
  let adminId: string;
  let adminCookie: string;
  let customerCookie: string;

  /** Signs in through better-auth, as /login does; the session cookie. */
  async function signIn(email: string): Promise<string> {
    const result = await auth.api.signInEmail({ body: { email, password: PASSWORD }, headers: new Headers(), returnHeaders: true });
    return result.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  }
  const post = (pathname: string, cookie: string, form: Record<string, string>, origin = ORIGIN) =>
    new Request(`${ORIGIN}${pathname}`, { method: "POST", headers: { cookie, origin }, body: new URLSearchParams(form) });
  /** A route's answer, thrown or returned, as status and body. */
  async function outcome(run: () => Promise<unknown>): Promise<{ status: number; body: unknown }> {
    let value: unknown;
    try {
      value = await run();
    } catch (thrown) {
      value = thrown;
    }
    if (value instanceof Response) return { status: value.status, body: await value.text() };
    const { data: body, init } = value as { data: unknown; init?: { status?: number } };
    return { status: init?.status ?? 200, body };
  }
  const pageAction = (cookie: string, form: Record<string, string>, origin?: string) =>
    outcome(() => privacyRoute.action({ request: post("/admin/privacy", cookie, form, origin), context, params: {} } as unknown as Parameters<typeof privacyRoute.action>[0]));

  beforeAll(async () => {
    database = await openTestDatabase();
    provider = createTestProvider({ db: database.db, secret: "integration-secret" });
    filesDir = await fs.mkdtemp(path.join(os.tmpdir(), "comptoir-gdpr-guest-"));
    privateFiles = localDiskStore(filesDir);
    const noMail = async () => {};
    auth = createAuth({ db: database.db, secret: "integration-secret-gdpr-guest-0123456789", baseUrl: ORIGIN, mail: { verification: noMail, existingAccount: noMail, passwordReset: noMail } });
    context = { db: database.db, auth, publicUrl: ORIGIN, clientIp: "203.0.113.7", logger: pino({ level: "silent" }), privateFiles } as unknown as AppContext;
    ({ id: adminId } = await createUserWithPassword(database.db, { name: "Vendeur", email: "admin.privacy@comptoir.example", password: PASSWORD, role: "admin", emailVerified: true }));
    await createUserWithPassword(database.db, { name: "Client", email: "client.privacy@example.net", password: PASSWORD, role: "user", emailVerified: true });
    // Admin pages require a session that passed its second factor (enrolled on this first sign-in).
    adminCookie = await signInAdminWithCode(auth, "admin.privacy@comptoir.example", PASSWORD);
    customerCookie = await signIn("client.privacy@example.net");

    // The guest orders and pays through the test provider: the invoice is issued.
    const [product] = await database.db.insert(products).values({ title: "Display Flammes Obsidiennes", priceCents: 15_990, stock: 3, category: "TCG", subCategory: "Scellés" }).returning();
    const started = await startCheckout(database.db, provider, { items: [{ productId: product!.id, quantity: 1 }], insuranceSelected: false }, {
      now: new Date(),
      customer: null,
      clientIp: "203.0.113.40",
      orderPrefix: "CPT",
      origin: "http://shop.test",
      reservationMinutes: 30,
    });
    if (started.status !== 200) throw new Error(JSON.stringify(started.body));
    orderNumber = started.body.orderNumber;
    const [order] = await database.db.select().from(orders).where(eq(orders.number, orderNumber));
    orderId = order!.id;
    const paid = testWebhook(provider, "checkout.session.completed", {
      sessionId: order!.providerSessionId!,
      paid: true,
      paymentReference: "pi_test_guest",
      customerEmail: GUEST.email,
      customerName: GUEST.name,
      shippingAddress: address,
      amountTotalCents: null,
    });
    expect((await receiveWebhook(database.db, provider, paid.raw, paid.headers, deps)).body.outcome).toBe("paid");

    // They write through /contact and /rachat (with a photo), in other cases.
    const inbox = { db: database.db, privateFiles, shop, sellerEmail: SELLER };
    const contact = await submitInboxRequest(inbox, {
      kind: "contact",
      values: { lastName: "Invitée", firstName: "Gaëlle", email: "gaelle.invitee@example.org", message: `Bonjour, ma commande ${orderNumber} ?` },
      photos: [],
      clientIp: "203.0.113.41",
    });
    expect(contact.ok).toBe(true);
    const photo = await sharp({ create: { width: 400, height: 300, channels: 3, background: { r: 200, g: 40, b: 40 } } }).png().toBuffer();
    const rachat = await submitInboxRequest(inbox, {
      kind: "rachat",
      values: { lastName: "Invitée", firstName: "Gaëlle", email: "GAELLE.INVITEE@EXAMPLE.ORG", phone: GUEST.spacedPhone, message: "Classeur de cartes Base Set à vendre." },
      photos: [{ name: "classeur.png", bytes: photo }],
      clientIp: "203.0.113.42",
    });
    expect(rachat.ok).toBe(true);
    photoKeys = await privateFiles.list("");
    expect(photoKeys).toHaveLength(1);

    // They withdraw, as a guest (number and e-mail).
    const withdrawal = await requestWithdrawal(
      { db: database.db, shop, sellerEmail: SELLER, returnAddress: "12 rue des Lilas, 69001 Lyon", orderPrefix: "CPT" },
      { kind: "guest", orderNumber, email: GUEST.email.toUpperCase() },
      GUEST.name,
    );
    expect(withdrawal).toMatchObject({ ok: true });

    // They asked to be told when another product comes back ("Prévenez-moi"), and confirmed.
    const [awaited] = await database.db.insert(products).values({ title: "Coffret Évolutions attendu", priceCents: 4_990, stock: 0, category: "TCG", subCategory: "Scellés" }).returning();
    expect(await requestAlert({ db: database.db, shop, secret: ALERT_SECRET }, { productId: awaited!.id, email: "Gaelle.Invitee@example.org" })).toBe(true);
    const [alert] = await database.db.select().from(stockAlerts);
    expect(await confirmAlert(database.db, ALERT_SECRET, alert!.id, alertLinkToken(ALERT_SECRET, "confirmer", alert!.id))).toBe(true);
  });
  afterAll(async () => {
    await database?.close();
    await fs.rm(filesDir, { recursive: true, force: true });
  });

  it("exports everything held under the address, whatever its case", async () => {
    const exported = (await exportGuestData(database.db, "  gaelle.INVITEE@example.ORG "))!;
    expect(exported).toMatchObject({ format: "comptoir-donnees-personnelles/1", email: "gaelle.invitee@example.org", account: null });
    expect(exported.orders).toEqual([
      expect.objectContaining({ number: orderNumber, withAccount: false, customerName: GUEST.name, shippingAddress: expect.objectContaining({ phone: GUEST.phone }) }),
    ]);
    expect(exported.orders[0]!.withdrawal).toMatchObject({ customerName: GUEST.name, source: "guest" });
    expect(exported.requests.map((r) => r.kind).sort()).toEqual(["contact", "rachat"]);
    expect(exported.requests.find((r) => r.kind === "rachat")).toMatchObject({ phone: GUEST.spacedPhone, photoCount: 1 });
    expect(exported.emails.length).toBeGreaterThanOrEqual(3);
    expect(exported.alerts).toEqual([expect.objectContaining({ product: "Coffret Évolutions attendu", status: "active", consent: expect.stringContaining("J'accepte") })]);
    expect(await exportGuestData(database.db, "pas une adresse")).toBeNull();
  });

  it("at /admin/privacy: admins only, the lookup counts what is held, the export is a JSON download", async () => {
    expect(await pageAction(customerCookie, { intent: "lookup", email: GUEST.email })).toMatchObject({ status: 403 });
    expect(await pageAction(adminCookie, { intent: "erase", email: GUEST.email }, "https://evil.example")).toMatchObject({ status: 403 });
    expect(await pageAction(adminCookie, { intent: "lookup", email: "n'importe quoi" })).toMatchObject({ status: 400, body: { ok: false } });
    expect(await pageAction(adminCookie, { intent: "lookup", email: GUEST.email.toUpperCase() })).toEqual({
      status: 200,
      body: { ok: true, toast: { title: "Recherche effectuée" }, held: { email: "gaelle.invitee@example.org", accountId: null, orders: 1, requests: 2, withdrawals: 1, alerts: 1, emails: expect.any(Number) } },
    });
    expect(await pageAction(adminCookie, { intent: "lookup", email: "client.privacy@EXAMPLE.net" })).toMatchObject({ body: { held: { accountId: expect.any(String) } } });

    const exportArgs = (cookie: string) =>
      ({ request: post("/admin/privacy/export", cookie, { email: GUEST.email }), context, params: {} }) as unknown as Parameters<typeof privacyExportRoute.action>[0];
    expect(await outcome(() => privacyExportRoute.action(exportArgs(customerCookie)))).toMatchObject({ status: 403 });
    const file = (await privacyExportRoute.action(exportArgs(adminCookie))) as Response;
    expect(file.headers.get("Content-Disposition")).toMatch(/^attachment; filename="donnees-par-adresse-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(file.headers.get("Cache-Control")).toBe("no-store");
    const json = (await file.json()) as { orders: { number: string }[] };
    expect(json.orders.map((o) => o.number)).toEqual([orderNumber]);
    expect((privacyExportRoute.loader() as Response).status).toBe(405);
  });

  it("refuses while the order is open, for an account's address, and says when nothing is held", async () => {
    expect(await eraseGuest(database.db, { email: GUEST.email })).toEqual({ outcome: "refused", message: PRIVACY_OPEN_ORDER });
    expect(await eraseGuest(database.db, { email: "ADMIN.privacy@comptoir.example" })).toEqual({ outcome: "refused", message: PRIVACY_IS_ACCOUNT, accountId: adminId });
    expect(await eraseGuest(database.db, { email: "personne@example.org" })).toEqual({ outcome: "missing", message: PRIVACY_NOTHING });
  });

  it("erases the guest from every column and the storage; the amounts and the invoice stay", async () => {
    // The seller refunds the withdrawn order (a credit note is issued): nothing is open any more.
    expect(await cancelAndRefundOrder(database.db, provider, orderNumber, adminId, deps)).toMatchObject({ ok: true });
    const [before] = await database.db.select().from(orders).where(eq(orders.id, orderId));
    const invoicesBefore = await database.db.select({ number: invoices.number, totalCents: invoices.totalCents }).from(invoices).where(eq(invoices.orderId, orderId));
    expect(invoicesBefore.length).toBe(2);
    for (const needle of [GUEST.email, GUEST.name, GUEST.phone, GUEST.spacedPhone, "Invitée"]) expect(await columnsContaining(needle)).not.toEqual([]);

    expect(await pageAction(adminCookie, { intent: "erase", email: "gaelle.invitee@EXAMPLE.org" })).toMatchObject({ status: 200, body: { ok: true, toast: { title: "Données effacées" } } });

    for (const needle of [GUEST.email, GUEST.name, GUEST.phone, GUEST.spacedPhone, "Invitée", "Gaëlle", "Mouettes"]) expect(await columnsContaining(needle), needle).toEqual([]);
    expect(await privateFiles.list("")).toEqual([]);
    for (const key of photoKeys) expect(await privateFiles.get(key)).toBeNull();

    // What the accounts need stays: the order, its lines and amounts, both documents.
    const [after] = await database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(after).toMatchObject({ number: orderNumber, status: before!.status, subtotalCents: before!.subtotalCents, totalCents: before!.totalCents, vatBreakdown: before!.vatBreakdown, shippingCountry: "FR" });
    expect(after!.shippingAddress).toMatchObject({ method: "home", country: "FR" });
    expect(await database.db.select({ n: sql<number>`count(*)::int` }).from(orderItems).where(eq(orderItems.orderId, orderId))).toEqual([{ n: 1 }]);
    expect(await database.db.select({ number: invoices.number, totalCents: invoices.totalCents }).from(invoices).where(eq(invoices.orderId, orderId))).toEqual(invoicesBefore);
    // The invoices keep the buyer as issued: a legal obligation (GDPR art. 17(3)(b)).
    const snapshots = await database.db.select({ snapshot: sql<string>`${invoices.snapshot}::text` }).from(invoices).where(eq(invoices.orderId, orderId));
    expect(snapshots.every((s) => s.snapshot.includes(GUEST.name))).toBe(true);

    // A second erasure finds nothing left.
    expect(await eraseGuest(database.db, { email: GUEST.email })).toEqual({ outcome: "missing", message: PRIVACY_NOTHING });
  });

  /**
   * "table.column" of every text, varchar, JSON or text-array column holding `needle` (any case),
   * except the invoices' frozen snapshot and PDF: an issued invoice is kept as issued for 10
   * years (legal obligation), asserted separately above.
   */
  async function columnsContaining(needle: string): Promise<string[]> {
    const result = (await database.db.execute(sql`
      select table_name, column_name from information_schema.columns
      where table_schema = 'public' and data_type in ('text', 'character varying', 'character', 'jsonb', 'json', 'ARRAY')
      and not (table_name = 'invoices' and column_name in ('snapshot', 'pdf'))`)) as unknown as { rows: { table_name: string; column_name: string }[] };
    expect(result.rows.length).toBeGreaterThan(40);
    const found: string[] = [];
    for (const { table_name: table, column_name: column } of result.rows) {
      const hits = (await database.db.execute(sql`select count(*)::int as n from ${sql.identifier(table)} where ${sql.identifier(column)}::text ilike ${`%${needle}%`}`)) as unknown as {
        rows: { n: number }[];
      };
      if (hits.rows[0]!.n > 0) found.push(`${table}.${column}`);
    }
    return found;
  }
});
