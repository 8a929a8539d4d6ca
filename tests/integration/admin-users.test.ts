import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import pino from "pino";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { inboxEvents, inboxMessages, orderEvents, orderItems, orders, outboxEmails, rateLimits, sessions, testPaymentSessions, twoFactors, users, verifications } from "~/db/schema";
import type { OrderStatus } from "~/domain/catalog-values";
import { formatDay, UNCONFIRMED_PROMOTION } from "~/domain/admin-users";
import { formatEuros } from "~/domain/money";
import { type Auth, createAuth } from "~/lib/auth.server";
import type { AppContext } from "~/lib/context";
import * as exportRoute from "~/routes/admin/user-export";
import * as userRoute from "~/routes/admin/user";
import * as usersRoute from "~/routes/admin/users";
import { changeRole, getUserDetails, listUsers } from "~/services/admin-users.server";
import { exportUserData } from "~/services/gdpr.server";
import { localDiskStore } from "~/services/storage.server";
import { createUserWithPassword } from "~/services/users.server";
import { databaseLabel, openTestDatabase } from "./test-database";
import { outcome } from "./route-outcome";
import { signInAdminWithCode } from "./admin-second-factor";

/**
 * The users page and a user's page over a real database: the paid-order figures, search and
 * pages, role changes (self, last admin, two at once), the GDPR export and erasure, and every
 * action refused to a customer. Routes are called as the server calls them, with real sessions.
 */
const ORIGIN = "http://shop.test";
const PASSWORD = "Ronflex-2026-secret";
const HORTENSE = { name: "Hortense Vasseur-Lemaire", email: "hortense.vasseur@example.org" };
const address = {
  method: "home" as const,
  fullName: "Hortense Vasseur-Lemaire",
  line1: "8 rue des Glycines",
  postalCode: "69004",
  city: "Lyon",
  country: "FR",
  phone: "0698765432",
};

describe(`admin users and GDPR tools on ${databaseLabel}`, () => {
  let database: Database;
  let auth: Auth;
  let context: AppContext;
  let privateDir: string;
  const resetTokens = new Map<string, string>();
  let orderSeq = 0;

  async function account(name: string, email: string, role: "user" | "admin" = "user", emailVerified = true) {
    const { id } = await createUserWithPassword(database.db, { name, email, password: PASSWORD, role, emailVerified });
    return id;
  }

  /** Signs in through better-auth, as /login does; the session cookie. */
  async function signIn(email: string, password = PASSWORD): Promise<string> {
    // Admins pass their second factor (enrolled on their first sign-in).
    const [account] = await database.db.select({ role: users.role }).from(users).where(eq(users.email, email));
    if (account?.role === "admin") return signInAdminWithCode(auth, email, password);
    const result = await auth.api.signInEmail({ body: { email, password }, headers: new Headers(), returnHeaders: true });
    return result.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  }

  async function order(values: { userId: string | null; status: OrderStatus; totalCents: number; createdAt: string; email?: string }) {
    const createdAt = new Date(values.createdAt);
    const [row] = await database.db
      .insert(orders)
      .values({
        number: `CPT-${String(100_000 + ++orderSeq)}-${String(orderSeq).padStart(4, "0")}`,
        status: values.status,
        userId: values.userId,
        customerEmail: values.email ?? HORTENSE.email,
        customerName: HORTENSE.name,
        subtotalCents: values.totalCents,
        totalCents: values.totalCents,
        paymentProvider: "test",
        shippingAddress: address,
        createdAt,
        paidAt: values.status === "paid" || values.status === "shipped" ? new Date(createdAt.getTime() + 60_000) : null,
      })
      .returning();
    await database.db.insert(orderItems).values({ orderId: row!.id, name: "Display Écarlate et Violet", unitPriceCents: values.totalCents, quantity: 1 });
    return row!;
  }

  const request = (pathname: string, cookie: string, form?: Record<string, string>) =>
    new Request(`${ORIGIN}${pathname}`, {
      method: form ? "POST" : "GET",
      headers: { cookie, origin: ORIGIN },
      body: form ? new URLSearchParams(form) : undefined,
    });

  type Args = Parameters<typeof userRoute.action>[0];
  const userAction = (id: string, cookie: string, intent: string) =>
    userRoute.action({ request: request(`/admin/users/${id}`, cookie, { intent }), context, params: { id } } as unknown as Args);
  const exportFile = (id: string, cookie: string) =>
    exportRoute.loader({ request: request(`/admin/users/${id}/export`, cookie), context, params: { id } } as unknown as Parameters<typeof exportRoute.loader>[0]);

  beforeAll(async () => {
    database = await openTestDatabase();
    privateDir = fs.mkdtempSync(path.join(os.tmpdir(), "comptoir-users-private-"));
    const noMail = async () => {};
    auth = createAuth({
      db: database.db,
      secret: "integration-secret-admin-users-0123456789",
      baseUrl: ORIGIN,
      mail: { verification: noMail, existingAccount: noMail, passwordReset: async (user, token) => void resetTokens.set(user.email, token) },
    });
    context = {
      db: database.db,
      auth,
      publicUrl: ORIGIN,
      clientIp: "203.0.113.7",
      logger: pino({ level: "silent" }),
      privateFiles: localDiskStore(privateDir),
    } as unknown as AppContext;
  });
  afterAll(async () => {
    await database?.close();
    fs.rmSync(privateDir, { recursive: true, force: true });
  });

  describe("the figures of paid orders", () => {
    let hortenseId = "";
    let nobodyId = "";
    beforeAll(async () => {
      hortenseId = await account(HORTENSE.name, HORTENSE.email);
      nobodyId = await account("Basile Sansachat", "basile@example.net");
      // Two paid orders count; an abandoned, an expired and a refunded one do not.
      await order({ userId: hortenseId, status: "paid", totalCents: 12_999, createdAt: "2026-03-01T09:00:00Z" });
      await order({ userId: hortenseId, status: "shipped", totalCents: 4_550, createdAt: "2026-03-10T22:30:00Z" });
      await order({ userId: hortenseId, status: "pending_payment", totalCents: 99_900, createdAt: "2026-03-20T10:00:00Z" });
      await order({ userId: hortenseId, status: "expired", totalCents: 5_000, createdAt: "2026-03-21T10:00:00Z" });
      await order({ userId: hortenseId, status: "refunded", totalCents: 7_000, createdAt: "2026-03-22T10:00:00Z" });
    });

    it("shows 2 orders, the day of the last paid one in Paris and the exact total", async () => {
      const { rows } = await listUsers(database.db, { q: "hortense", page: 1 });
      expect(rows).toHaveLength(1);
      const [row] = rows;
      expect(row).toMatchObject({ id: hortenseId, orderCount: 2, spentCents: 17_549 });
      // 22:30 UTC on 10 March is 23:30 in Paris: still the 10th.
      expect(formatDay(row!.lastOrderAt)).toBe("10/03/2026");
      expect(formatEuros(row!.spentCents)).toBe("175,49\u00a0€");
    });

    it("shows 0, N/A and 0,00 € for an account without paid orders", async () => {
      const [row] = (await listUsers(database.db, { q: "basile", page: 1 })).rows;
      expect(row).toMatchObject({ id: nobodyId, orderCount: 0, lastOrderAt: null, spentCents: 0 });
      expect(formatDay(row!.lastOrderAt)).toBe("N/A");
      expect(formatEuros(row!.spentCents)).toBe("0,00\u00a0€");
    });

    it("searches names and e-mails in any case, wildcards taken literally", async () => {
      const names = async (q: string) => (await listUsers(database.db, { q, page: 1 })).rows.map((r) => r.name);
      expect(await names("VASSEUR-lem")).toEqual([HORTENSE.name]);
      expect(await names("BASILE@EXAMPLE")).toEqual(["Basile Sansachat"]);
      expect(await names("@example.")).toEqual(["Basile Sansachat", HORTENSE.name]);
      expect(await names("%")).toEqual([]);
      expect(await names("_asile")).toEqual([]);
      expect(await listUsers(database.db, { q: "personne-de-ce-nom", page: 1 })).toMatchObject({ rows: [], total: 0, pageCount: 0 });
    });

    it("pages by 20 with the total, a page past the end showing the last one", async () => {
      // Accounts without a password are enough here (and quicker than 21 password hashes).
      await database.db.insert(users).values(
        Array.from({ length: 21 }, (_, i) => ({ id: `pagination-${i + 1}`, name: `Client Pagination ${String(i + 1).padStart(2, "0")}`, email: `pagination-${i + 1}@example.com` })),
      );
      const first = await listUsers(database.db, { q: "pagination", page: 1 });
      expect(first).toMatchObject({ total: 21, page: 1, pageCount: 2 });
      expect(first.rows).toHaveLength(20);
      expect(first.rows[0]!.name).toBe("Client Pagination 01");
      const last = await listUsers(database.db, { q: "pagination", page: 9 });
      expect(last).toMatchObject({ total: 21, page: 2, pageCount: 2 });
      expect(last.rows.map((r) => r.name)).toEqual(["Client Pagination 21"]);
    });

    it("the user's page lists every order, newest first, with the same figures", async () => {
      const details = await getUserDetails(database.db, hortenseId);
      expect(details?.user).toMatchObject({ orderCount: 2, spentCents: 17_549, emailVerified: true, role: "user" });
      expect(details?.orders.map((o) => o.status)).toEqual(["refunded", "expired", "pending_payment", "shipped", "paid"]);
      expect(await getUserDetails(database.db, "inconnu")).toBeNull();
    });

    it("the page says so when the users cannot be read", async () => {
      const admin = await account("Admin Panne", "admin-panne@comptoir.test", "admin");
      const broken = await openTestDatabase();
      await broken.close();
      const answer = await outcome(() =>
        usersRoute.loader({ request: request("/admin/users", ""), context: { ...context, db: broken.db }, params: {} } as unknown as Parameters<typeof usersRoute.loader>[0]),
      );
      // Signed out first: sent to the login page.
      expect(answer).toMatchObject({ status: 302, location: "/admin/login" });
      const cookie = await signIn("admin-panne@comptoir.test");
      const failed = await outcome(() =>
        usersRoute.loader({ request: request("/admin/users", cookie), context: { ...context, db: broken.db }, params: {} } as unknown as Parameters<typeof usersRoute.loader>[0]),
      );
      expect(failed).toMatchObject({ status: 500, body: { failed: true } });
      const Stub = createRoutesStub([
        { path: "/admin/users", Component: () => createElement(usersRoute.default, { loaderData: failed.body, params: {}, matches: [] } as never) },
      ]);
      const html = renderToString(createElement(Stub, { initialEntries: ["/admin/users"] }));
      expect(html).toContain("Erreur");
      expect(html).toContain("Impossible de charger les utilisateurs.");
      expect(html).toContain('placeholder="Rechercher un utilisateur..."');
      await database.db.delete(users).where(eq(users.id, admin));
    });
  });

  describe("roles", () => {
    it("refuses to promote an address nobody confirmed: the squatter of a colleague's address never becomes admin", async () => {
      const chef = await account("Chef Squat", "chef-squat@comptoir.test", "admin");
      const cookie = await signIn("chef-squat@comptoir.test");
      // Someone signs up first with the colleague's address, and never confirms it (they cannot).
      await auth.api.signUpEmail({ body: { name: "Collègue", email: "collegue@comptoir.test", password: "Squatteur-2026-secret" } });
      const [squatter] = await database.db.select().from(users).where(eq(users.email, "collegue@comptoir.test"));
      expect(squatter).toMatchObject({ role: "user", emailVerified: false });
      // The seller promotes the address they were given: refused, with the reason.
      expect(await outcome(() => userAction(squatter!.id, cookie, "promote"))).toMatchObject({
        status: 409,
        body: { ok: false, toast: { title: "Action refusée", description: UNCONFIRMED_PROMOTION } },
      });
      expect((await getUserDetails(database.db, squatter!.id))!.user).toMatchObject({ role: "user", emailVerified: false });
      // The squatter signs in with their password: still no session, so no enrolment either.
      await expect(auth.api.signInEmail({ body: { email: "collegue@comptoir.test", password: "Squatteur-2026-secret" } })).rejects.toMatchObject({
        body: { code: "EMAIL_NOT_VERIFIED" },
      });
      expect(await database.db.select().from(sessions).where(eq(sessions.userId, squatter!.id))).toEqual([]);
      await database.db.delete(users).where(eq(users.id, squatter!.id));
      await database.db.delete(users).where(eq(users.id, chef));
    });

    it("promotes a customer whose address is confirmed and demotes them again", async () => {
      const chef = await account("Chef Rôles", "chef-roles@comptoir.test", "admin");
      const cookie = await signIn("chef-roles@comptoir.test");
      const client = await account("Client Promu", "promu@example.com", "user", true);
      expect(await outcome(() => userAction(client, cookie, "promote"))).toMatchObject({ status: 200, body: { ok: true, toast: { title: "Rôle modifié" } } });
      expect((await getUserDetails(database.db, client))!.user).toMatchObject({ role: "admin", emailVerified: true });
      // Twice: nothing more happens.
      expect(await outcome(() => userAction(client, cookie, "promote"))).toMatchObject({ status: 200, body: { toast: { title: "Aucun changement" } } });
      // As an admin they enrolled a second factor and have a session open.
      await database.db.insert(twoFactors).values({ id: "tf-promu", secret: "chiffre", backupCodes: "chiffres", userId: client });
      await database.db.update(users).set({ twoFactorEnabled: true }).where(eq(users.id, client));
      await database.db.insert(sessions).values({ id: "s-promu", token: "jeton-promu", userId: client, expiresAt: new Date(Date.now() + 3_600_000) });
      expect(await outcome(() => userAction(client, cookie, "demote"))).toMatchObject({ status: 200, body: { ok: true } });
      expect((await getUserDetails(database.db, client))!.user.role).toBe("user");
      // Demoted: signed out everywhere, and no second factor left to bar the customer sign-in.
      expect(await database.db.select().from(sessions).where(eq(sessions.userId, client))).toEqual([]);
      expect(await database.db.select().from(twoFactors).where(eq(twoFactors.userId, client))).toEqual([]);
      expect((await database.db.select({ on: users.twoFactorEnabled }).from(users).where(eq(users.id, client)))[0]!.on).toBe(false);
      expect(await outcome(() => userAction(client, cookie, "supprimer"))).toMatchObject({ status: 400, body: { ok: false, toast: { description: "Action inconnue." } } });
      expect(await outcome(() => userAction("inconnu", cookie, "promote"))).toMatchObject({ status: 404 });
      await database.db.delete(users).where(eq(users.id, chef));
    });

    it("never demotes yourself nor the last admin", async () => {
      const [{ n: before }] = (await database.db.select({ n: sql<number>`count(*)::int` }).from(users).where(eq(users.role, "admin"))) as [{ n: number }];
      expect(before).toBe(0);
      const solo = await account("Seule Admin", "seule@comptoir.test", "admin");
      const cookie = await signIn("seule@comptoir.test");
      expect(await outcome(() => userAction(solo, cookie, "demote"))).toMatchObject({
        status: 409,
        body: { ok: false, toast: { description: "Vous ne pouvez pas retirer vos propres droits d'administrateur." } },
      });
      expect(await changeRole(database.db, { actorId: "quelqu-un", targetId: solo, role: "user" })).toEqual({
        outcome: "refused",
        message: "Impossible de retirer le dernier administrateur.",
      });
      expect((await getUserDetails(database.db, solo))!.user.role).toBe("admin");
      await database.db.delete(users).where(eq(users.id, solo));
    });

    it("two admins demoting each other at once leave one admin", async () => {
      for (let round = 0; round < 5; round++) {
        const a = await account(`Admin A${round}`, `a${round}@comptoir.test`, "admin");
        const b = await account(`Admin B${round}`, `b${round}@comptoir.test`, "admin");
        const results = await Promise.all([
          changeRole(database.db, { actorId: a, targetId: b, role: "user" }),
          changeRole(database.db, { actorId: b, targetId: a, role: "user" }),
        ]);
        expect(results.map((r) => r.outcome).sort()).toEqual(["changed", "refused"]);
        const admins = await database.db.select({ id: users.id }).from(users).where(eq(users.role, "admin"));
        expect(admins).toHaveLength(1);
        await database.db.delete(users).where(sql`${users.id} in (${a}, ${b})`);
      }
    });
  });

  describe("GDPR", () => {
    let adminId = "";
    let adminCookie = "";
    let customerId = "";
    let customerCookie = "";
    let paidOrder: typeof orders.$inferSelect;
    let shippedOrder: typeof orders.$inferSelect;
    let guestOrder: typeof orders.$inferSelect;
    const person = { name: "Ombeline Fauconnier", email: "ombeline.fauconnier@example.fr", phone: "0611223344" };
    const personAddress = { ...address, fullName: person.name, line1: "3 impasse des Ormeaux", postalCode: "35400", city: "Saint-Malo", phone: person.phone };
    const photoKey = "rachat/ombeline-photo-1.webp";

    beforeAll(async () => {
      adminId = await account("Gérante RGPD", "gerante@comptoir.test", "admin");
      adminCookie = await signIn("gerante@comptoir.test");
      customerId = await account(person.name, person.email);
      customerCookie = await signIn(person.email);
      const mine = (status: OrderStatus, totalCents: number, createdAt: string, userId: string | null = customerId, email = person.email) =>
        order({ userId, status, totalCents, createdAt, email }).then(async (row) => {
          await database.db.update(orders).set({ customerName: person.name, shippingAddress: personAddress }).where(eq(orders.id, row.id));
          return row;
        });
      paidOrder = await mine("paid", 20_000, "2026-04-01T10:00:00Z");
      shippedOrder = await mine("shipped", 3_500, "2026-04-02T10:00:00Z");
      // Ordered as a guest, the address typed in capitals.
      guestOrder = await mine("shipped", 1_250, "2026-04-03T10:00:00Z", null, person.email.toUpperCase());
      await database.db.insert(orderEvents).values({ orderId: shippedOrder.id, type: "shipped", details: { carrier: "colissimo", to: person.email, trackingNumber: "6A123456789" } });
      await database.db.insert(testPaymentSessions).values({
        id: "cs_test_erasure_0001",
        idempotencyKey: paidOrder.id,
        orderId: paidOrder.id,
        orderNumber: paidOrder.number,
        lines: [],
        totalCents: 20_000,
        customerEmail: person.email,
        successUrl: `${ORIGIN}/merci`,
        cancelUrl: `${ORIGIN}/cart`,
        expiresAt: new Date("2026-04-01T10:30:00Z"),
      });
      await context.privateFiles.put(photoKey, Buffer.from("photo"), "image/webp");
      const [request] = await database.db
        .insert(inboxMessages)
        .values({ kind: "rachat", lastName: "Fauconnier", firstName: "Ombeline", email: "Ombeline.Fauconnier@example.fr", phone: person.phone, message: "Ma collection de cartes Base Set.", photos: [photoKey], offerCents: 15_000, offerNote: "Offre pour Ombeline" })
        .returning();
      await database.db.insert(inboxEvents).values({ messageId: request!.id, type: "reply", body: "Bonjour Ombeline, merci pour votre demande.", actorId: adminId });
      await database.db.insert(outboxEmails).values([
        { to: person.email, kind: "order-confirmation", subject: `Commande ${paidOrder.number} confirmée`, html: `<p>Bonjour ${person.name}</p>`, text: `Bonjour ${person.name}`, status: "sent", sentAt: new Date() },
        { to: person.email, kind: "inbox-offer", subject: "Votre offre de rachat", html: "<p>Bonjour Ombeline</p>", text: "Bonjour Ombeline", status: "pending" },
        { to: "vendeur@comptoir.test", kind: "seller-new-order", subject: `Nouvelle commande ${shippedOrder.number}`, html: "<p>Client : O. F.</p>", text: "Client : O. F.", status: "sent" },
        { to: "vendeur@comptoir.test", kind: "seller-contact", subject: "Nouveau message", html: `<p>De : ${person.email}</p>`, text: `De : ${person.email}`, status: "sent" },
        { to: "autre@example.com", kind: "order-confirmation", subject: "Commande d'un autre client", html: "<p>Bonjour Paul</p>", text: "Bonjour Paul", status: "sent" },
      ]);
      await database.db.insert(rateLimits).values({ key: `signInPerAccount:${person.email}`, count: 2, resetAt: new Date(Date.now() + 60_000) });
      await auth.api.requestPasswordReset({ body: { email: person.email } });
      expect(resetTokens.get(person.email)).toBeTruthy();
    });

    it("refuses every action, the page data and the export to a customer, and changes nothing", async () => {
      for (const intent of ["promote", "demote", "erase"]) {
        expect(await outcome(() => userAction(customerId, customerCookie, intent)), intent).toMatchObject({ status: 403, body: { error: "Accès refusé." } });
      }
      expect(await outcome(() => userAction(customerId, "", "erase"))).toMatchObject({ status: 401 });
      // From another site, even with the admin's cookie.
      const crossSite = new Request(`${ORIGIN}/admin/users/${customerId}`, { method: "POST", headers: { cookie: adminCookie, origin: "https://evil.example" }, body: new URLSearchParams({ intent: "erase" }) });
      expect(await outcome(() => userRoute.action({ request: crossSite, context, params: { id: customerId } } as unknown as Args))).toMatchObject({ status: 403 });
      expect(await outcome(() => exportFile(customerId, customerCookie))).toMatchObject({ status: 302, location: "/admin/unauthorized" });
      expect(await outcome(() => exportFile(customerId, ""))).toMatchObject({ status: 302, location: "/admin/login" });
      const page = await outcome(() =>
        userRoute.loader({ request: request(`/admin/users/${customerId}`, customerCookie), context, params: { id: customerId } } as unknown as Parameters<typeof userRoute.loader>[0]),
      );
      expect(page).toMatchObject({ status: 302, location: "/admin/unauthorized" });
      const [row] = await database.db.select().from(users).where(eq(users.id, customerId));
      expect(row).toMatchObject({ name: person.name, email: person.email, role: "user", erasedAt: null });
      expect(await database.db.select().from(sessions).where(eq(sessions.userId, customerId))).toHaveLength(1);
    });

    it("exports the customer's data as a JSON download, without secrets", async () => {
      const answer = (await exportFile(customerId, adminCookie)) as Response;
      expect(answer.status).toBe(200);
      expect(answer.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(answer.headers.get("content-disposition")).toMatch(new RegExp(`^attachment; filename="donnees-client-${customerId}-\\d{4}-\\d{2}-\\d{2}\\.json"$`));
      expect(answer.headers.get("cache-control")).toBe("no-store");
      const text = await answer.text();
      const body = JSON.parse(text);
      expect(body.account).toMatchObject({ id: customerId, name: person.name, email: person.email, role: "user" });
      expect(body.sessions).toHaveLength(1);
      expect(body.orders.map((o: { number: string }) => o.number)).toEqual([paidOrder.number, shippedOrder.number, guestOrder.number]);
      expect(body.orders[0]).toMatchObject({ withAccount: true, totalCents: 20_000, shippingAddress: { line1: "3 impasse des Ormeaux" }, lines: [{ name: "Display Écarlate et Violet", quantity: 1, unitPriceCents: 20_000 }] });
      expect(body.orders[2]).toMatchObject({ withAccount: false });
      expect(body.requests).toEqual([
        expect.objectContaining({ kind: "rachat", firstName: "Ombeline", phone: person.phone, photoCount: 1, offerCents: 15_000, answers: [expect.objectContaining({ type: "reply", body: "Bonjour Ombeline, merci pour votre demande." })] }),
      ]);
      expect(body.emails.map((e: { subject: string }) => e.subject).sort()).toEqual([`Commande ${paidOrder.number} confirmée`, "Votre offre de rachat"]);
      expect(body.emails[0]).not.toHaveProperty("html");
      // No password hash, session token or reset token.
      const [session] = await database.db.select().from(sessions).where(eq(sessions.userId, customerId));
      expect(text).not.toContain(session!.token);
      expect(text).not.toContain("scrypt");
      expect(text).not.toContain(resetTokens.get(person.email)!);
      expect(text).not.toMatch(/"password"/);
      expect(await exportUserData(database.db, "inconnu")).toBeNull();
      const missing = await outcome(() =>
        userRoute.loader({ request: request("/admin/users/inconnu", adminCookie), context, params: { id: "inconnu" } } as unknown as Parameters<typeof userRoute.loader>[0]),
      );
      expect(missing).toMatchObject({ status: 404, body: { found: false } });
      expect(await outcome(() => exportFile("inconnu", adminCookie))).toMatchObject({ status: 404 });
    });

    it("refuses to erase yourself, an admin, and a customer whose order is still to ship", async () => {
      expect(await outcome(() => userAction(adminId, adminCookie, "erase"))).toMatchObject({ status: 409, body: { toast: { description: "Vous ne pouvez pas effacer votre propre compte." } } });
      const other = await account("Autre Admin", "autre-admin@comptoir.test", "admin");
      expect(await outcome(() => userAction(other, adminCookie, "erase"))).toMatchObject({ status: 409, body: { toast: { description: expect.stringContaining("Retirez d'abord") } } });
      await database.db.delete(users).where(eq(users.id, other));
      expect(await outcome(() => userAction(customerId, adminCookie, "erase"))).toMatchObject({ status: 409, body: { toast: { description: expect.stringContaining("commande en cours") } } });
      expect((await database.db.select({ name: users.name }).from(users).where(eq(users.id, customerId)))[0]!.name).toBe(person.name);
    });

    it("erases the customer: no sign-in, no session, no trace of name or address; the orders still count", async () => {
      await database.db.update(orders).set({ status: "shipped" }).where(eq(orders.id, paidOrder.id));
      const before = (await listUsers(database.db, { q: "ombeline", page: 1 })).rows[0]!;
      expect(before).toMatchObject({ orderCount: 2, spentCents: 23_500 });
      expect(await auth.api.getSession({ headers: new Headers({ cookie: customerCookie }) })).not.toBeNull();

      expect(await outcome(() => userAction(customerId, adminCookie, "erase"))).toMatchObject({ status: 200, body: { ok: true, toast: { title: "Données effacées" } } });

      // Signing in fails, with the old address or the placeholder; the session is over; the
      // reset link sent before is dead.
      await expect(auth.api.signInEmail({ body: { email: person.email, password: PASSWORD }, headers: new Headers() })).rejects.toMatchObject({ body: { code: "INVALID_EMAIL_OR_PASSWORD" } });
      await expect(auth.api.signInEmail({ body: { email: `efface-${customerId.toLowerCase()}@invalid.invalid`, password: PASSWORD }, headers: new Headers() })).rejects.toBeTruthy();
      expect(await auth.api.getSession({ headers: new Headers({ cookie: customerCookie }) })).toBeNull();
      await expect(auth.api.resetPassword({ body: { token: resetTokens.get(person.email)!, newPassword: "Nouveau-mot-de-passe-1" } })).rejects.toBeTruthy();
      expect(await database.db.select().from(verifications).where(eq(verifications.value, customerId))).toEqual([]);

      // Name, address, phone and street appear in no text or JSON column of any table.
      for (const needle of [person.email, "ombeline", "fauconnier", person.phone, "impasse des Ormeaux", "35400", "Saint-Malo"]) {
        expect(await columnsContaining(needle), needle).toEqual([]);
      }

      // The orders stay, with their lines and totals, and still count for the account.
      const kept = await database.db.select().from(orders).where(sql`${orders.id} in (${paidOrder.id}, ${shippedOrder.id}, ${guestOrder.id})`);
      expect(kept.map((o) => o.totalCents).sort((x, y) => x - y)).toEqual([1_250, 3_500, 20_000]);
      for (const o of kept) {
        expect(o).toMatchObject({ customerName: "Client supprimé", customerEmail: `efface-${customerId.toLowerCase()}@invalid.invalid`, shippingAddress: { method: "home", country: "FR", postalCode: "" } });
      }
      expect(await database.db.select().from(orderItems).where(eq(orderItems.orderId, paidOrder.id))).toHaveLength(1);
      const after = await getUserDetails(database.db, customerId);
      expect(after?.user).toMatchObject({ name: "Client supprimé", orderCount: 2, spentCents: 23_500, emailVerified: false });
      expect(after?.user.erasedAt).not.toBeNull();
      // The timeline keeps what is not about the person.
      const [event] = await database.db.select().from(orderEvents).where(eq(orderEvents.orderId, shippedOrder.id));
      expect(event!.details).toEqual({ carrier: "colissimo", to: "[effacé]", trackingNumber: "6A123456789" });
      // The unsent e-mail will never go; another customer's e-mail is untouched; the photo is gone.
      const mails = await database.db.select().from(outboxEmails);
      expect(mails.filter((m) => m.subject === "[effacé]")).toHaveLength(4);
      expect(mails.find((m) => m.kind === "inbox-offer")).toMatchObject({ status: "failed", to: `efface-${customerId.toLowerCase()}@invalid.invalid` });
      expect(mails.find((m) => m.to === "autre@example.com")).toMatchObject({ subject: "Commande d'un autre client", text: "Bonjour Paul" });
      expect(await context.privateFiles.exists(photoKey)).toBe(false);
      const [message] = await database.db.select().from(inboxMessages);
      expect(message).toMatchObject({ message: "[effacé]", phone: null, photos: [], offerCents: 15_000, offerNote: "[effacé]" });

      // Twice: harmless.
      expect(await outcome(() => userAction(customerId, adminCookie, "erase"))).toMatchObject({ status: 200, body: { ok: true, toast: { title: "Déjà effacé" } } });
      expect(await outcome(() => userAction(customerId, adminCookie, "promote"))).toMatchObject({ status: 409 });
    });

    /** "table.column" of every text, varchar or JSON column that holds `needle` (any case). */
    async function columnsContaining(needle: string): Promise<string[]> {
      const result = (await database.db.execute(sql`
        select table_name, column_name from information_schema.columns
        where table_schema = 'public' and data_type in ('text', 'character varying', 'jsonb', 'json')`)) as unknown as { rows: { table_name: string; column_name: string }[] };
      const found: string[] = [];
      for (const { table_name: table, column_name: column } of result.rows) {
        const hits = (await database.db.execute(
          sql`select count(*)::int as n from ${sql.identifier(table)} where ${sql.identifier(column)}::text ilike ${`%${needle}%`}`,
        )) as unknown as { rows: { n: number }[] };
        if (hits.rows[0]!.n > 0) found.push(`${table}.${column}`);
      }
      return found;
    }
  });
});
