import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { inboxEvents, inboxMessages, orders, outboxEmails, products, stockAlerts, users } from "~/db/schema";
import { ERASED_NAME, ERASED_TEXT, erasedAddress, erasedEmail } from "~/domain/admin-users";
import type { ShippingAddress } from "~/domain/order-view";
import { formatParisDate } from "~/domain/paris-time";
import { RETENTION } from "~/domain/retention";
import { type Auth, createAuth } from "~/lib/auth.server";
import { runContactRetention } from "~/services/retention.server";
import { alertLinkToken, unsubscribeAlert } from "~/services/stock-alerts.server";
import { type FileStore, localDiskStore } from "~/services/storage.server";
import { createUserWithPassword } from "~/services/users.server";
import { databaseLabel, openTestDatabase } from "./test-database";

/**
 * The retention job's second part (runContactRetention) against the periods the privacy notice
 * states (domain/retention.ts): a row a day inside its period stays, a day outside is cleared,
 * and nothing else is touched. `NOW` is the real time: a real sign-in (better-auth, its clock)
 * must count as activity.
 */
const NOW = new Date();
const DAY = 24 * 60 * 60 * 1000;
const SHOP = { name: "Comptoir", email: "boutique@example.org", publicUrl: "http://shop.test" };
const PASSWORD = "Ronflex-2026-secret";
const SECRET = "integration-secret-retention-privacy";
const days = (n: number) => n * DAY;
/** `months` months before `from`, moved by `shiftMs` (positive: later). */
function monthsBefore(months: number, shiftMs = 0, from = NOW): Date {
  const date = new Date(from);
  date.setUTCMonth(date.getUTCMonth() - months);
  return new Date(date.getTime() + shiftMs);
}
const ADDRESS: ShippingAddress = { method: "home", fullName: "Léa Martin", line1: "12 rue des Cartes", postalCode: "69002", city: "Lyon", country: "FR", phone: "0612345678" };
const BILLING = { fullName: "Léa Martin", line1: "12 rue des Cartes", postalCode: "69002", city: "Lyon", country: "FR" };

describe(`retention of requests, accounts, order contacts, alerts and e-mails on ${databaseLabel}`, () => {
  let database: Database;
  let filesDir: string;
  let privateFiles: FileStore;
  let auth: Auth;
  const run = (at = NOW, files = privateFiles) => runContactRetention({ db: database.db, privateFiles: files, shop: SHOP }, at);

  beforeAll(async () => {
    database = await openTestDatabase();
    filesDir = await fs.mkdtemp(path.join(os.tmpdir(), "comptoir-retention-privacy-"));
    privateFiles = localDiskStore(filesDir);
    const noMail = async () => {};
    auth = createAuth({ db: database.db, secret: `${SECRET}-0123456789`, baseUrl: SHOP.publicUrl, mail: { verification: noMail, existingAccount: noMail, passwordReset: noMail } });
  });
  afterAll(async () => {
    await database?.close();
    await fs.rm(filesDir, { recursive: true, force: true });
  });

  async function request(label: string, updatedAt: Date) {
    const key = `rachat_${label}.webp`;
    await privateFiles.put(key, Buffer.from(`photo ${label}`), "image/webp");
    const [row] = await database.db
      .insert(inboxMessages)
      .values({ kind: "rachat", lastName: "Martin", firstName: label, email: `${label}@example.org`, phone: "0600000000", message: "Mon classeur", photos: [key], status: "payee", offerCents: 4500, offerNote: "Offre pour Léa", createdAt: updatedAt, updatedAt })
      .returning({ id: inboxMessages.id });
    await database.db.insert(inboxEvents).values({ messageId: row!.id, type: "reply", body: `Bonjour ${label}`, createdAt: updatedAt });
    return { id: row!.id, key };
  }
  const requestRow = async (id: string) => (await database.db.select().from(inboxMessages).where(eq(inboxMessages.id, id)))[0]!;

  it("anonymises contact and buy-back requests 3 years after their last change, not a day before", async () => {
    expect(RETENTION.inboxRequestYears).toBe(3);
    const outside = await request("ancienne", monthsBefore(36, -DAY));
    const inside = await request("recente", monthsBefore(36, DAY));
    const stuck = await request("bloquee", monthsBefore(40));

    const failing: FileStore = { ...privateFiles, delete: async (key) => (key.includes("bloquee") ? Promise.reject(new Error("S3 indisponible")) : privateFiles.delete(key)) };
    expect(await run(NOW, failing)).toMatchObject({ requests: 1, requestsLeft: 1 });

    expect(await requestRow(outside.id)).toMatchObject({
      kind: "rachat",
      status: "payee",
      offerCents: 4500,
      firstName: ERASED_TEXT,
      lastName: ERASED_TEXT,
      email: erasedEmail(outside.id),
      phone: null,
      message: ERASED_TEXT,
      offerNote: ERASED_TEXT,
      photos: [],
    });
    expect(await privateFiles.get(outside.key)).toBeNull();
    expect((await database.db.select({ body: inboxEvents.body }).from(inboxEvents).where(eq(inboxEvents.messageId, outside.id)))[0]!.body).toBe(ERASED_TEXT);
    // A day inside: untouched, photo included.
    expect(await requestRow(inside.id)).toMatchObject({ firstName: "recente", email: "recente@example.org", phone: "0600000000", message: "Mon classeur", photos: [inside.key] });
    expect(await privateFiles.get(inside.key)).not.toBeNull();
    // Its photo could not be deleted: the request waits, whole, for the next run.
    expect(await requestRow(stuck.id)).toMatchObject({ firstName: "bloquee", photos: [stuck.key] });
    expect(await run()).toMatchObject({ requests: 1, requestsLeft: 0 });
    expect(await requestRow(stuck.id)).toMatchObject({ firstName: ERASED_TEXT, photos: [] });
    expect(await run()).toMatchObject({ requests: 0, requestsLeft: 0 });
  });

  /** A customer with a password, created and last signed in `inactiveSince`. */
  async function customer(label: string, inactiveSince: Date, role: "user" | "admin" = "user") {
    const email = `${label}@example.org`;
    const { id } = await createUserWithPassword(database.db, { email, password: PASSWORD, name: `Client ${label}`, role, emailVerified: true });
    await database.db.update(users).set({ createdAt: inactiveSince, lastSignInAt: inactiveSince }).where(eq(users.id, id));
    return { id, email };
  }
  const warningsTo = async (email: string) => database.db.select().from(outboxEmails).where(eq(outboxEmails.to, email));
  const userRow = async (id: string) => (await database.db.select().from(users).where(eq(users.id, id)))[0]!;

  it("warns an inactive account once a month before, erases it as the admin does after 3 years, and a sign-in cancels it", async () => {
    const warningStart = monthsBefore(36, days(RETENTION.inactiveAccountWarningDays));
    const notYet = await customer("pas-encore", new Date(warningStart.getTime() + DAY));
    const due = await customer("inactif", new Date(warningStart.getTime() - DAY));
    const returning = await customer("revenu", new Date(warningStart.getTime() - DAY));
    const busy = await customer("commande-ouverte", monthsBefore(48));
    const admin = await customer("vendeur", monthsBefore(48), "admin");
    await database.db.insert(orders).values([
      { number: "INA-0001", userId: due.id, customerEmail: due.email, customerName: "Client inactif", status: "shipped", subtotalCents: 1000, totalCents: 1000, paymentProvider: "test", shippingAddress: ADDRESS, billingAddress: BILLING, createdAt: monthsBefore(40), shippedAt: monthsBefore(40) },
      { number: "INA-0002", userId: busy.id, customerEmail: busy.email, customerName: "Client occupé", status: "paid", subtotalCents: 1000, totalCents: 1000, paymentProvider: "test", shippingAddress: ADDRESS, createdAt: monthsBefore(1) },
    ]);

    expect(await run()).toMatchObject({ accountsWarned: 3, accountsErased: 0 });
    const [warning, ...more] = await warningsTo(due.email);
    expect(more).toEqual([]);
    // Erased when both the 3 years and the warning's month are over: the month, here.
    expect(warning).toMatchObject({ kind: "account-inactive", subject: `Votre compte sera supprimé le ${formatParisDate(new Date(NOW.getTime() + days(RETENTION.inactiveAccountWarningDays)))} – Comptoir` });
    expect(warning!.text).toContain("http://shop.test/login");
    expect(await warningsTo(notYet.email)).toEqual([]);
    expect(await warningsTo(admin.email)).toEqual([]);
    // Once: the next runs send nothing more.
    expect(await run()).toMatchObject({ accountsWarned: 0 });
    expect(await warningsTo(due.email)).toHaveLength(1);

    // The owner of "revenu" signs in (better-auth, a real session).
    await auth.api.signInEmail({ body: { email: returning.email, password: PASSWORD }, headers: new Headers() });
    expect((await userRow(returning.id)).lastSignInAt!.getTime()).toBeGreaterThanOrEqual(NOW.getTime());

    // A day before the warning's month is over: nobody is erased.
    expect(await run(new Date(NOW.getTime() + days(RETENTION.inactiveAccountWarningDays) - DAY))).toMatchObject({ accountsErased: 0 });
    expect((await userRow(due.id)).erasedAt).toBeNull();

    const later = new Date(NOW.getTime() + days(RETENTION.inactiveAccountWarningDays) + DAY);
    expect(await run(later)).toMatchObject({ accountsErased: 1, accountsKept: 1 });
    // Erased as /admin/users erases: placeholders, orders kept with their amounts, address reduced.
    expect(await userRow(due.id)).toMatchObject({ name: ERASED_NAME, email: erasedEmail(due.id), erasedAt: later });
    const [order] = await database.db.select().from(orders).where(eq(orders.number, "INA-0001"));
    expect(order).toMatchObject({ customerEmail: erasedEmail(due.id), customerName: ERASED_NAME, totalCents: 1000, shippingAddress: erasedAddress(ADDRESS), billingAddress: null });
    // Signed in since the warning, an open order, an admin, not yet due: kept as they were.
    expect(await userRow(returning.id)).toMatchObject({ email: returning.email, erasedAt: null });
    expect(await userRow(busy.id)).toMatchObject({ email: busy.email, erasedAt: null });
    expect(await userRow(admin.id)).toMatchObject({ email: admin.email, erasedAt: null });
    expect(await userRow(notYet.id)).toMatchObject({ email: notYet.email, erasedAt: null });
    // The one who signed in is not warned again: their 3 years start over.
    expect(await warningsTo(returning.email)).toHaveLength(1);
  });

  it("clears an order's delivery address and phone 25 months after shipping, once the order is closed", async () => {
    expect(RETENTION.orderContactMonths).toBe(25);
    const order = (number: string, values: Partial<typeof orders.$inferInsert>) => ({
      number,
      customerEmail: "lea@example.org",
      customerName: "Léa Martin",
      status: "shipped" as const,
      subtotalCents: 2000,
      totalCents: 2000,
      paymentProvider: "test",
      shippingAddress: ADDRESS,
      billingAddress: BILLING,
      buyerAddressKey: "cle-adresse",
      ...values,
    });
    await database.db.insert(orders).values([
      order("CTC-OUT", { createdAt: monthsBefore(26), shippedAt: monthsBefore(25, -DAY) }),
      order("CTC-IN", { createdAt: monthsBefore(26), shippedAt: monthsBefore(25, DAY) }),
      order("CTC-CANCELLED", { status: "cancelled", createdAt: monthsBefore(25, -DAY) }),
      order("CTC-OPEN", { status: "refund_pending", createdAt: monthsBefore(30) }),
    ]);
    expect(await run()).toMatchObject({ orderContacts: 2 });
    const rows = await database.db.select().from(orders).where(inArray(orders.number, ["CTC-OUT", "CTC-IN", "CTC-CANCELLED", "CTC-OPEN"]));
    const byNumber = new Map(rows.map((row) => [row.number, row]));
    for (const number of ["CTC-OUT", "CTC-CANCELLED"]) {
      // The method and the country stay (VAT follows the destination); the invoice's buyer stays.
      expect(byNumber.get(number), number).toMatchObject({ shippingAddress: erasedAddress(ADDRESS), buyerAddressKey: null, billingAddress: BILLING, customerName: "Léa Martin", customerEmail: "lea@example.org", totalCents: 2000 });
    }
    for (const number of ["CTC-IN", "CTC-OPEN"]) expect(byNumber.get(number), number).toMatchObject({ shippingAddress: ADDRESS, buyerAddressKey: "cle-adresse" });
    expect(await run()).toMatchObject({ orderContacts: 0 });
  });

  it("deletes alerts 30 days after they were sent, withdrawn or left unconfirmed; an active one waits", async () => {
    const [product] = await database.db.insert(products).values({ title: "Coffret attendu", priceCents: 4000, stock: 0, category: "TCG" }).returning();
    const alert = async (label: string, values: Partial<typeof stockAlerts.$inferInsert>) =>
      (
        await database.db
          .insert(stockAlerts)
          .values({ productId: product!.id, email: `${label}@example.org`, consentText: "J'accepte", ...values })
          .returning({ id: stockAlerts.id })
      )[0]!.id;
    const cut = days(RETENTION.stockAlertClosedDays);
    const ids = {
      pendingOut: await alert("attente-ancienne", { status: "pending", createdAt: new Date(NOW.getTime() - cut - DAY) }),
      pendingIn: await alert("attente-recente", { status: "pending", createdAt: new Date(NOW.getTime() - cut + DAY) }),
      sentOut: await alert("envoyee-ancienne", { status: "sent", createdAt: monthsBefore(6), notifiedAt: new Date(NOW.getTime() - cut - DAY) }),
      sentIn: await alert("envoyee-recente", { status: "sent", createdAt: monthsBefore(6), notifiedAt: new Date(NOW.getTime() - cut + DAY) }),
      withdrawnOut: await alert("retiree-ancienne", { status: "unsubscribed", createdAt: monthsBefore(6), unsubscribedAt: new Date(NOW.getTime() - cut - DAY) }),
      active: await alert("active", { status: "active", createdAt: monthsBefore(14), confirmedAt: monthsBefore(14) }),
    };
    // Withdrawn through the e-mail's link: its date is recorded, and kept if followed again.
    const withdrawn = await alert("retiree-recente", { status: "active", createdAt: monthsBefore(6) });
    expect(await unsubscribeAlert(database.db, SECRET, withdrawn, alertLinkToken(SECRET, "desinscription", withdrawn))).toBe(true);
    const [first] = await database.db.select({ at: stockAlerts.unsubscribedAt }).from(stockAlerts).where(eq(stockAlerts.id, withdrawn));
    expect(first!.at).not.toBeNull();
    await unsubscribeAlert(database.db, SECRET, withdrawn, alertLinkToken(SECRET, "desinscription", withdrawn));
    expect((await database.db.select({ at: stockAlerts.unsubscribedAt }).from(stockAlerts).where(eq(stockAlerts.id, withdrawn)))[0]!.at).toEqual(first!.at);

    expect(await run()).toMatchObject({ stockAlerts: 3 });
    const left = (await database.db.select({ id: stockAlerts.id }).from(stockAlerts)).map((row) => row.id).sort();
    expect(left).toEqual([ids.pendingIn, ids.sentIn, ids.active, withdrawn].sort());
    // 30 days after the withdrawal, it goes too.
    expect(await run(new Date(first!.at!.getTime() + cut + DAY))).toMatchObject({ stockAlerts: 3 });
    expect((await database.db.select({ id: stockAlerts.id }).from(stockAlerts)).map((row) => row.id)).toEqual([ids.active]);
  });

  it("deletes what stays of an e-mail 3 years after it went, but the order confirmation and one still to send", async () => {
    const email = async (label: string, values: Partial<typeof outboxEmails.$inferInsert>) =>
      (
        await database.db
          .insert(outboxEmails)
          .values({ to: `${label}@example.org`, subject: "[contenu effacé : conservé 90 jours]", html: "", text: "", kind: "order-shipped", status: "sent", ...values })
          .returning({ id: outboxEmails.id })
      )[0]!.id;
    const ids = {
      out: await email("trace-ancienne", { sentAt: monthsBefore(36, -DAY), createdAt: monthsBefore(36, -DAY) }),
      failedOut: await email("echec-ancien", { status: "failed", createdAt: monthsBefore(36, -DAY) }),
      in: await email("trace-recente", { sentAt: monthsBefore(36, DAY), createdAt: monthsBefore(37) }),
      confirmation: await email("confirmation", { kind: "order-confirmation", sentAt: monthsBefore(60), createdAt: monthsBefore(60) }),
      pending: await email("en-attente", { status: "pending", createdAt: monthsBefore(40) }),
    };
    expect(await run()).toMatchObject({ emailTraces: 2 });
    const left = new Set((await database.db.select({ id: outboxEmails.id }).from(outboxEmails).where(inArray(outboxEmails.id, Object.values(ids)))).map((row) => row.id));
    expect(left).toEqual(new Set([ids.in, ids.confirmation, ids.pending]));
    expect(await run()).toMatchObject({ emailTraces: 0 });
  });

  it("repeats harmlessly: a second run at the same instant changes nothing", async () => {
    await run();
    expect(await run()).toEqual({ requests: 0, requestsLeft: 0, accountsWarned: 0, accountsErased: 0, accountsKept: 0, orderContacts: 0, stockAlerts: 0, emailTraces: 0 });
  });
});
