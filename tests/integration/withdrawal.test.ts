import { count, eq, sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { orderEvents, orderItems, orders, outboxEmails, rateLimits, withdrawalRequests } from "~/db/schema";
import type { OrderStatus } from "~/domain/catalog-values";
import { RATE_LIMITS, rateLimitKey } from "~/domain/rate-limits";
import { ERASED_NAME } from "~/domain/admin-users";
import { WITHDRAWAL_NOT_FOUND, type WithdrawalView } from "~/domain/withdrawal";
import { WITHDRAWAL_NAME_MESSAGES } from "~/domain/withdrawal-lookup-schema";
import type { Auth } from "~/lib/auth.server";
import type { AppContext } from "~/lib/context";
import * as accountRoute from "~/routes/account";
import * as accountOrderRoute from "~/routes/account-order";
import * as withdrawalRoute from "~/routes/withdrawal";
import { WITHDRAWN_NOT_SHIPPED } from "~/domain/order-workflow";
import { countOrdersToShip, getAdminOrder, listAdminOrders, shipOrder } from "~/services/admin-orders.server";
import { eraseUser, exportUserData } from "~/services/gdpr.server";
import type { Viewer } from "~/services/session.server";
import { createUserWithPassword } from "~/services/users.server";
import { type WithdrawalDeps, requestWithdrawal, withdrawalPost } from "~/services/withdrawal.server";
import { databaseLabel, openTestDatabase } from "./test-database";
import { testAuth } from "./route-context";

/**
 * The withdrawal function over a real database: a signed-in customer's and a guest's requests,
 * the same answer for a wrong number or a wrong e-mail, one request per order (twice, or at the
 * same time), the statuses that allow none, the acknowledgement and the seller's notice in the
 * outbox with the date and time, the timeline event, the guest form's rate limit, the pages'
 * routes as the server calls them, what the seller sees, and the GDPR erasure.
 */
const ORIGIN = "http://shop.test";
const SELLER = "vendeur@comptoir.example";
const PASSWORD = "Rétractation-2026-secret";
const shop = { name: "Comptoir", email: "contact@comptoir.example", publicUrl: ORIGIN };
// 14:05 in Paris.
const NOW = new Date("2026-06-21T12:05:00.000Z");
const CLAIRE = { name: "Claire Rétractée", email: "claire.retractee@example.org" };
/** What a guest types in the confirmation's name field. */
const GUEST_NAME = "Gaston Invité";

describe(`withdrawal function on ${databaseLabel}`, () => {
  let database: Database;
  let auth: Auth;
  let context: AppContext;
  let claire: Viewer;
  let otherId: string;
  let adminId: string;
  let seq = 0;
  let ip = 0;
  const nextIp = () => `198.51.100.${++ip}`;

  const deps = (now = NOW): WithdrawalDeps => ({ db: database.db, shop, sellerEmail: SELLER, returnAddress: "12 rue des Lilas, 69001 Lyon", orderPrefix: "CPT", now: () => now });

  async function order(values: { userId?: string | null; email?: string; status?: OrderStatus } = {}) {
    const n = ++seq;
    const [row] = await database.db
      .insert(orders)
      .values({
        number: `CPT-${String(500_000 + n)}-${String(n).padStart(4, "0")}`,
        status: values.status ?? "paid",
        userId: values.userId ?? null,
        customerEmail: values.email ?? CLAIRE.email,
        customerName: CLAIRE.name,
        subtotalCents: 4_990,
        totalCents: 4_990,
        paymentProvider: "test",
        shippingAddress: { method: "home", fullName: CLAIRE.name, line1: "8 allée des Tilleuls", postalCode: "35400", city: "Saint-Malo", country: "FR", phone: "0611223344" },
        paidAt: new Date("2026-06-15T08:00:00Z"),
      })
      .returning();
    await database.db.insert(orderItems).values([
      { orderId: row!.id, name: "Display Écarlate et Violet", unitPriceCents: 3_990, quantity: 1 },
      { orderId: row!.id, name: "Booster <b>Fusion</b>", unitPriceCents: 500, quantity: 2 },
    ]);
    return row!;
  }

  const post = (form: Record<string, string>, viewer: Viewer | null = null, clientIp = nextIp(), now = NOW) => withdrawalPost(deps(now), { form, viewer, clientIp });
  const guest = (intent: "lookup" | "confirm", orderNumber: string, email: string, clientIp?: string, customerName = GUEST_NAME) =>
    post({ intent, orderNumber, email, customerName }, null, clientIp);
  const asAccount = (orderNumber: string, viewer: Viewer = claire, now = NOW, customerName: string = viewer.name) =>
    post({ intent: "confirm", source: "account", orderNumber, customerName }, viewer, nextIp(), now);

  const written = async (orderId: string) => {
    const [[requests], [events], emails] = await Promise.all([
      database.db.select({ n: count() }).from(withdrawalRequests).where(eq(withdrawalRequests.orderId, orderId)),
      database.db.select({ n: count() }).from(orderEvents).where(eq(orderEvents.orderId, orderId)),
      database.db.select().from(outboxEmails).where(sql`${outboxEmails.kind} like 'withdrawal-%' and ${outboxEmails.subject} like ${`%${(await database.db.select({ number: orders.number }).from(orders).where(eq(orders.id, orderId)))[0]!.number}%`}`),
    ]);
    return { requests: requests!.n, events: events!.n, emails };
  };

  beforeAll(async () => {
    database = await openTestDatabase();
    auth = testAuth(database.db, ORIGIN);
    const { id } = await createUserWithPassword(database.db, { ...CLAIRE, password: PASSWORD, role: "user", emailVerified: true });
    claire = { id, ...CLAIRE, role: "user", createdAt: NOW.toISOString() };
    otherId = (await createUserWithPassword(database.db, { name: "Autre Client", email: "autre@example.org", password: PASSWORD, role: "user", emailVerified: true })).id;
    adminId = (await createUserWithPassword(database.db, { name: "Admin", email: "admin-retractation@comptoir.test", password: PASSWORD, role: "admin", emailVerified: true })).id;
    context = {
      db: database.db,
      shop: { name: shop.name, email: shop.email, socials: [], legal: { address: "12 rue des Lilas, 69001 Lyon" } },
      publicUrl: ORIGIN,
      nonce: "",
      logger: pino({ level: "silent" }),
      auth,
      clientIp: "203.0.113.1",
      kickMail: () => {},
      checkout: { orderPrefix: "CPT", reservationMinutes: 30, sellerEmail: SELLER },
    } as unknown as AppContext;
  });
  afterAll(() => database?.close());

  describe("a signed-in customer", () => {
    it("withdraws from a paid order: the request, the timeline event, the acknowledgement with the date and time, the seller's notice", async () => {
      const paid = await order({ userId: claire.id });
      const result = await asAccount(paid.number);
      expect(result).toMatchObject({
        status: 200,
        created: true,
        view: { step: "done", receipt: { number: paid.number, requestedAt: NOW.toISOString(), email: CLAIRE.email, customerName: CLAIRE.name, alreadyRequested: false } },
      });

      const [request] = await database.db.select().from(withdrawalRequests).where(eq(withdrawalRequests.orderId, paid.id));
      expect(request).toMatchObject({ email: CLAIRE.email, customerName: CLAIRE.name, userId: claire.id, source: "account", requestedAt: NOW });
      const [ack] = await database.db.select().from(outboxEmails).where(eq(outboxEmails.id, request!.emailId!));
      expect(ack).toMatchObject({ to: CLAIRE.email, replyTo: shop.email, kind: "withdrawal-ack", status: "pending", subject: `Accusé de réception de votre rétractation – commande ${paid.number}` });
      expect(ack!.text).toContain("le 21 juin 2026 à 14:05 (heure de Paris)");
      expect(ack!.text).toContain("Display Écarlate et Violet");
      expect(ack!.text).toContain("au plus tard le 5 juillet 2026");
      expect(ack!.text).toContain(`Au nom de : ${CLAIRE.name}`);
      // The product's name is shown as text, never as markup.
      expect(ack!.html).toContain("Booster &lt;b&gt;Fusion&lt;/b&gt;");
      expect(ack!.html).not.toContain("<b>Fusion");

      const [notice] = await database.db.select().from(outboxEmails).where(eq(outboxEmails.kind, "withdrawal-seller"));
      expect(notice).toMatchObject({ to: SELLER, replyTo: CLAIRE.email, subject: `Rétractation demandée – commande ${paid.number}` });
      expect(notice!.text).toContain("ne l'expédiez pas");
      expect(notice!.text).toContain(`${ORIGIN}/admin/orders/${paid.number}`);

      const [event] = await database.db.select().from(orderEvents).where(eq(orderEvents.orderId, paid.id));
      expect(event).toMatchObject({ type: "withdrawal_requested", actorId: claire.id, createdAt: NOW, details: { email: CLAIRE.email, source: "account", emailIds: [ack!.id, notice!.id] } });
    });

    it("asks twice, or five times at once: one request, one acknowledgement, and the first date shown", async () => {
      const shipped = await order({ userId: claire.id, status: "shipped" });
      expect((await asAccount(shipped.number)).created).toBe(true);
      const later = new Date(NOW.getTime() + 3 * 60 * 60_000);
      const again = await asAccount(shipped.number, claire, later);
      expect(again).toMatchObject({ status: 200, created: false, view: { step: "done", receipt: { requestedAt: NOW.toISOString(), alreadyRequested: true } } });
      expect(await written(shipped.id)).toMatchObject({ requests: 1, events: 1, emails: [expect.anything(), expect.anything()] });

      const racing = await order({ userId: claire.id });
      const outcomes = await Promise.all(
        Array.from({ length: 5 }, () => requestWithdrawal(deps(), { kind: "account", userId: claire.id, email: claire.email, orderNumber: racing.number }, CLAIRE.name)),
      );
      expect(outcomes.filter((outcome) => outcome.ok && outcome.created)).toHaveLength(1);
      expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
      const { requests, events, emails } = await written(racing.id);
      expect({ requests, events, emails: emails.length }).toEqual({ requests: 1, events: 1, emails: 2 });
    });

    it("says the shipped order's return address and the refund deadline in the acknowledgement", async () => {
      const shipped = await order({ userId: claire.id, status: "shipped" });
      await asAccount(shipped.number);
      const { emails } = await written(shipped.id);
      const ack = emails.find((email) => email.kind === "withdrawal-ack")!;
      expect(ack.text).toContain("Renvoyez-nous les articles au plus tard le 5 juillet 2026");
      expect(ack.text).toContain("12 rue des Lilas, 69001 Lyon");
    });

    it("cannot withdraw from another customer's order, nor without being signed in", async () => {
      const theirs = await order({ userId: otherId, email: "autre@example.org" });
      expect(await asAccount(theirs.number)).toMatchObject({ status: 404, created: false, view: { step: "form", failure: { title: "Commande introuvable dans votre compte" } } });
      expect(await post({ intent: "confirm", source: "account", orderNumber: theirs.number }, null)).toMatchObject({ status: 401, view: { step: "form", failure: { title: "Session expirée" } } });
      expect(await written(theirs.id)).toMatchObject({ requests: 0, events: 0, emails: [] });
    });
  });

  describe("a guest, with the order number and its e-mail", () => {
    it("finds the order whatever the case of the e-mail and the number, confirms, and gets the acknowledgement at the order's address", async () => {
      const guestOrder = await order({ email: "Invite.Client@Example.com" });
      const found = await guest("lookup", guestOrder.number.toLowerCase(), "  invite.client@EXAMPLE.com ");
      expect(found.status).toBe(200);
      expect(found.view).toEqual({
        step: "confirm",
        source: "guest",
        // Where the acknowledgement goes: the order's address (the typed one, but for the case); the name field starts empty.
        email: "Invite.Client@Example.com",
        customerName: "",
        order: {
          number: guestOrder.number,
          status: "paid",
          createdAt: guestOrder.createdAt.toISOString(),
          totalCents: 4_990,
          lines: [
            { id: expect.any(String), name: "Booster <b>Fusion</b>", quantity: 2 },
            { id: expect.any(String), name: "Display Écarlate et Violet", quantity: 1 },
          ],
        },
      });
      // The confirmation step shows no delivery address.
      expect(JSON.stringify(found.view)).not.toContain("Tilleuls");
      expect(await written(guestOrder.id)).toMatchObject({ requests: 0 });

      const done = await guest("confirm", guestOrder.number, "invite.client@example.com");
      expect(done).toMatchObject({ status: 200, created: true, view: { step: "done", receipt: { email: "Invite.Client@Example.com", customerName: GUEST_NAME, alreadyRequested: false } } });
      const [request] = await database.db.select().from(withdrawalRequests).where(eq(withdrawalRequests.orderId, guestOrder.id));
      expect(request).toMatchObject({ source: "guest", userId: null, email: "Invite.Client@Example.com", customerName: GUEST_NAME });
      // No quantities posted: every unit of every article (the default), stored line by line.
      expect(request!.lines).toEqual([
        { orderItemId: expect.any(String), quantity: 2 },
        { orderItemId: expect.any(String), quantity: 1 },
      ]);
      const { emails } = await written(guestOrder.id);
      expect(emails.find((email) => email.kind === "withdrawal-ack")).toMatchObject({ to: "Invite.Client@Example.com" });
      expect(emails.find((email) => email.kind === "withdrawal-ack")!.text).toContain(`Au nom de : ${GUEST_NAME}`);
      expect(emails.find((email) => email.kind === "withdrawal-seller")!.text).toContain("avec le formulaire public");
      expect(emails.find((email) => email.kind === "withdrawal-seller")!.text).toContain(`Au nom de : ${GUEST_NAME}`);
    });

    it("answers a wrong e-mail and an unknown number the same way, and writes nothing", async () => {
      const guestOrder = await order({ email: "discret@example.com" });
      const wrongEmail = await guest("confirm", guestOrder.number, "quelquun@example.com");
      const wrongNumber = await guest("confirm", "CPT-999999-9999", "discret@example.com");
      const wrongBoth = await guest("lookup", "CPT-999999-9998", "personne@example.com");
      for (const answer of [wrongEmail, wrongNumber, wrongBoth]) {
        expect(answer.status).toBe(404);
        expect((answer.view as Extract<WithdrawalView, { step: "form" }>).failure).toEqual(WITHDRAWAL_NOT_FOUND);
      }
      expect(wrongEmail.view).toEqual({ step: "form", values: { orderNumber: guestOrder.number, email: "quelquun@example.com" }, failure: WITHDRAWAL_NOT_FOUND });
      expect(await written(guestOrder.id)).toMatchObject({ requests: 0, events: 0, emails: [] });
    });

    it("refuses a malformed number or e-mail with the French messages of the form", async () => {
      expect(await guest("lookup", "12345", "pas-un-email")).toEqual({
        status: 400,
        created: false,
        view: {
          step: "form",
          values: { orderNumber: "12345", email: "pas-un-email" },
          failure: { title: "Champs à corriger", description: "Vérifiez le numéro de commande et l'adresse e-mail." },
          fieldErrors: { orderNumber: "Numéro de commande invalide : il s'écrit comme CPT-123456-0042.", email: "Merci d'entrer une adresse email valide" },
        },
      });
    });

    it("is rate-limited per client network (an IPv6 /64, whichever of its addresses) with a French 429", async () => {
      await database.db.insert(rateLimits).values({ key: rateLimitKey("withdrawalPerIp", "2001:db8:48:1::1"), count: RATE_LIMITS.withdrawalPerIp.limit - 1, resetAt: new Date(Date.now() + 30 * 60_000) });
      const guestOrder = await order({ email: "limite@example.com" });
      expect((await guest("lookup", guestOrder.number, "limite@example.com", "2001:db8:48:1::2")).status).toBe(200);
      const blocked = await guest("confirm", guestOrder.number, "limite@example.com", "2001:db8:48:1:ffff::3");
      expect(blocked).toMatchObject({ status: 429, created: false, view: { step: "form", failure: { title: "Trop de tentatives", description: "Trop de tentatives. Réessayez dans 30 minutes." } } });
      expect(blocked.retryAfterMs).toBeGreaterThan(29 * 60_000);
      expect(await written(guestOrder.id)).toMatchObject({ requests: 0 });
      // Another network still can.
      expect((await guest("confirm", guestOrder.number, "limite@example.com", "2001:db8:48:2::1")).created).toBe(true);
    });
  });

  describe("the consumer's name, given with the confirmation button", () => {
    it("is stored as typed (trimmed), repeated in both e-mails and shown to the seller; asking again keeps the first", async () => {
      const paid = await order({ userId: claire.id, status: "shipped" });
      const done = await asAccount(paid.number, claire, NOW, "  Claire et Jean   Rétractés ");
      expect(done).toMatchObject({ status: 200, created: true, view: { step: "done", receipt: { customerName: "Claire et Jean Rétractés" } } });
      const [request] = await database.db.select().from(withdrawalRequests).where(eq(withdrawalRequests.orderId, paid.id));
      expect(request!.customerName).toBe("Claire et Jean Rétractés");
      const { emails } = await written(paid.id);
      const ack = emails.find((email) => email.kind === "withdrawal-ack")!;
      expect(ack.text).toContain("Bonjour Claire et Jean Rétractés,");
      expect(ack.text).toContain("Au nom de : Claire et Jean Rétractés");
      expect(ack.html).toContain("Claire et Jean Rétractés");
      const notice = emails.find((email) => email.kind === "withdrawal-seller")!;
      expect(notice.text).toContain("Au nom de : Claire et Jean Rétractés");
      expect(notice.text).toContain(`Client de la commande : ${CLAIRE.name}`);
      expect((await getAdminOrder(database.db, paid.number))!.withdrawal).toMatchObject({ customerName: "Claire et Jean Rétractés" });

      const again = await asAccount(paid.number, claire, NOW, "Quelqu'un d'autre");
      expect(again).toMatchObject({ created: false, view: { step: "done", receipt: { customerName: "Claire et Jean Rétractés", alreadyRequested: true } } });
      expect((await written(paid.id)).requests).toBe(1);
    });

    it.each([
      ["missing", undefined, WITHDRAWAL_NAME_MESSAGES.missing],
      ["blank", "   ", WITHDRAWAL_NAME_MESSAGES.missing],
      ["one letter", "C", WITHDRAWAL_NAME_MESSAGES.missing],
      ["too long", "C".repeat(201), WITHDRAWAL_NAME_MESSAGES.tooLong],
      ["with a control character", "Claire\u0007", WITHDRAWAL_NAME_MESSAGES.forbidden],
    ])("refuses a %s name with its French message beside the field, and writes nothing", async (_label, customerName, message) => {
      const mine = await order({ userId: claire.id });
      const guestOrder = await order({ email: "sans.nom@example.com" });
      const form = (extra: Record<string, string>) => (customerName === undefined ? extra : { ...extra, customerName });

      const signedIn = await post(form({ intent: "confirm", source: "account", orderNumber: mine.number }), claire);
      expect(signedIn).toEqual({
        status: 400,
        created: false,
        view: { step: "confirm", source: "account", email: CLAIRE.email, customerName: customerName ?? "", order: expect.objectContaining({ number: mine.number }), fieldErrors: { customerName: message } },
      });
      const asGuest = await post(form({ intent: "confirm", orderNumber: guestOrder.number, email: "sans.nom@example.com" }));
      expect(asGuest).toEqual({
        status: 400,
        created: false,
        view: { step: "confirm", source: "guest", email: "sans.nom@example.com", customerName: customerName ?? "", order: expect.objectContaining({ number: guestOrder.number }), fieldErrors: { customerName: message } },
      });
      for (const id of [mine.id, guestOrder.id]) expect(await written(id)).toMatchObject({ requests: 0, events: 0, emails: [] });
    });
  });

  it.each(["pending_payment", "cancelled", "expired", "refund_pending", "refunded"] as const)("refuses a %s order with a French 409 and writes nothing", async (status) => {
    const closed = await order({ userId: claire.id, status });
    for (const answer of [await asAccount(closed.number), await guest("confirm", closed.number, CLAIRE.email), await guest("lookup", closed.number, CLAIRE.email)]) {
      expect(answer).toMatchObject({ status: 409, created: false, view: { step: "refused", number: closed.number, failure: { title: "Rétractation impossible", description: expect.stringMatching(/^Cette commande /) } } });
    }
    expect(await written(closed.id)).toMatchObject({ requests: 0, events: 0, emails: [] });
  });

  describe("the pages, as the server calls them", () => {
    let cookie: string;
    beforeAll(async () => {
      const result = await auth.api.signInEmail({ body: { email: CLAIRE.email, password: PASSWORD }, returnHeaders: true });
      cookie = result.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    });
    const request = (path: string, init: RequestInit = {}) => new Request(`${ORIGIN}${path}`, { ...init, headers: { cookie, ...(init.headers as Record<string, string>) } });
    type Answer = { data: WithdrawalView; init: { status?: number; headers?: Record<string, string> } | null };
    const call = async (run: () => unknown) => {
      try {
        return (await run()) as Answer;
      } catch (thrown) {
        return thrown as Response | Answer;
      }
    };

    it("takes a signed-in customer from their order to its confirmation, then to the acknowledgement; the account shows the date", async () => {
      const paid = await order({ userId: claire.id });
      const accountPage = await accountRoute.loader({ request: request("/account"), context, params: {} } as never);
      expect(accountPage.orders.find((o) => o.number === paid.number)).toMatchObject({ withdrawalRequestedAt: null });

      const arrival = await withdrawalRoute.loader({ request: request(`/retractation?commande=${paid.number}`), context, params: {} } as never);
      // The name field holds the account's name; the acknowledgement goes to the account's address.
      expect(arrival).toMatchObject({ signedIn: true, orderPrefix: "CPT", view: { step: "confirm", source: "account", email: CLAIRE.email, customerName: CLAIRE.name, order: { number: paid.number } } });

      // Without the name: the confirmation again, the French message beside the field, nothing written.
      const nameless = (await call(() =>
        withdrawalRoute.action({
          request: request(`/retractation?commande=${paid.number}`, { method: "POST", body: new URLSearchParams({ intent: "confirm", source: "account", orderNumber: paid.number }) }),
          context,
          params: {},
        } as never),
      )) as Answer;
      expect(nameless.init?.status).toBe(400);
      expect(nameless.data).toMatchObject({ step: "confirm", email: CLAIRE.email, customerName: "", fieldErrors: { customerName: WITHDRAWAL_NAME_MESSAGES.missing } });
      expect(await written(paid.id)).toMatchObject({ requests: 0, events: 0, emails: [] });

      const body = new URLSearchParams({ intent: "confirm", source: "account", orderNumber: paid.number, customerName: " Claire  Rétractée " });
      const answer = (await call(() => withdrawalRoute.action({ request: request(`/retractation?commande=${paid.number}`, { method: "POST", body }), context, params: {} } as never))) as Answer;
      expect(answer.init?.status).toBe(200);
      expect(answer.data).toMatchObject({ step: "done", receipt: { number: paid.number, email: CLAIRE.email, customerName: CLAIRE.name, alreadyRequested: false } });

      const back = await withdrawalRoute.loader({ request: request(`/retractation?commande=${paid.number}`), context, params: {} } as never);
      expect(back.view).toMatchObject({ step: "done", receipt: { alreadyRequested: true } });
      const list = await accountRoute.loader({ request: request("/account"), context, params: {} } as never);
      expect(list.orders.find((o) => o.number === paid.number)?.withdrawalRequestedAt).toBe((answer.data as Extract<WithdrawalView, { step: "done" }>).receipt.requestedAt);
      const detail = await accountOrderRoute.loader({ request: request(`/account/orders/${paid.number}`), context, params: { number: paid.number } } as never);
      expect(detail.withdrawalRequestedAt).not.toBeNull();
    });

    it("gives a guest (or another customer's number) the form, with the number filled in; never cached", async () => {
      const theirs = await order({ userId: otherId, email: "autre@example.org" });
      const signedIn = await withdrawalRoute.loader({ request: request(`/retractation?commande=${theirs.number.toLowerCase()}`), context, params: {} } as never);
      expect(signedIn.view).toEqual({ step: "form", values: { orderNumber: theirs.number }, failure: expect.objectContaining({ title: "Commande introuvable dans votre compte" }) });
      const anonymous = await withdrawalRoute.loader({ request: new Request(`${ORIGIN}/retractation?commande=${theirs.number}`), context, params: {} } as never);
      expect(anonymous).toMatchObject({ signedIn: false, view: { step: "form", values: { orderNumber: theirs.number } } });
      const headers = withdrawalRoute.headers({ actionHeaders: new Headers({ "Retry-After": "60" }), loaderHeaders: new Headers() } as never);
      expect(headers.get("Cache-Control")).toBe("private, no-store");
      expect(headers.get("Retry-After")).toBe("60");
    });

    it("answers 429 with Retry-After, and refuses a post from another site", async () => {
      const address = nextIp();
      await database.db.insert(rateLimits).values({ key: `withdrawalPerIp:${address}`, count: RATE_LIMITS.withdrawalPerIp.limit, resetAt: new Date(Date.now() + 10 * 60_000) });
      const body = () => new URLSearchParams({ intent: "lookup", orderNumber: "CPT-123456-0001", email: "a@example.com" });
      const limited = (await call(() => withdrawalRoute.action({ request: new Request(`${ORIGIN}/retractation`, { method: "POST", body: body() }), context: { ...context, clientIp: address }, params: {} } as never))) as Answer;
      expect(limited.init?.status).toBe(429);
      expect(Number(limited.init?.headers?.["Retry-After"])).toBeGreaterThan(500);
      const crossSite = await call(() =>
        withdrawalRoute.action({ request: new Request(`${ORIGIN}/retractation`, { method: "POST", body: body(), headers: { origin: "https://evil.example" } }), context, params: {} } as never),
      );
      expect((crossSite as { init: { status: number } }).init.status).toBe(403);
    });
  });

  describe("the seller", () => {
    it("sees the request on the order, in its timeline with both e-mails, and marked in the list", async () => {
      const paid = await order({ userId: claire.id });
      await asAccount(paid.number);
      const page = (await getAdminOrder(database.db, paid.number))!;
      expect(page.withdrawal).toEqual({
        id: expect.any(String),
        requestedAt: NOW.toISOString(),
        email: CLAIRE.email,
        customerName: CLAIRE.name,
        source: "account",
        // No quantities posted: the whole order, not received nor refunded yet.
        lines: [
          expect.objectContaining({ name: "Booster <b>Fusion</b>", quantity: 2, bought: 2 }),
          expect.objectContaining({ name: "Display Écarlate et Violet", quantity: 1, bought: 1 }),
        ],
        whole: true,
        receivedAt: null,
        refund: null,
      });
      const entry = page.timeline.find((e) => e.title === "Rétractation demandée par le client");
      expect(entry).toMatchObject({ at: NOW.toISOString(), detail: CLAIRE.email, actorName: CLAIRE.name });
      expect(entry!.emails.map((email) => email.to).sort()).toEqual([CLAIRE.email, SELLER].sort());
      const list = await listAdminOrders(database.db, { q: paid.number, status: null, page: 1 } as never);
      expect(list.rows).toEqual([expect.objectContaining({ number: paid.number, withdrawalRequested: true })]);
      const other = await order({ userId: claire.id });
      expect((await listAdminOrders(database.db, { q: other.number, status: null, page: 1 } as never)).rows[0]!.withdrawalRequested).toBe(false);
    });

    it("is not asked to ship a withdrawn order: it leaves the count to ship, and shipping it is refused", async () => {
      const paid = await order({ userId: claire.id });
      const toShip = await countOrdersToShip(database.db);
      await asAccount(paid.number);
      expect(await countOrdersToShip(database.db)).toBe(toShip - 1);
      const deps = { shop: { name: "Comptoir", email: shop.email, publicUrl: ORIGIN }, sellerEmail: SELLER };
      const shipped = await shipOrder(database.db, paid.number, { carrier: "colissimo", trackingNumber: "6A12345678901" }, "admin-1", deps as never);
      expect(shipped).toMatchObject({ ok: false, status: 409, message: WITHDRAWN_NOT_SHIPPED });
      expect((await database.db.select({ status: orders.status }).from(orders).where(eq(orders.id, paid.id)))[0]!.status).toBe("paid");
    });
  });

  it("exports the withdrawals with the customer's data, and the erasure leaves their address in no column", async () => {
    // Erasure waits for open orders: close them all first.
    await database.db.update(orders).set({ status: "refunded" }).where(sql`lower(${orders.customerEmail}) = ${CLAIRE.email} or ${orders.userId} = ${claire.id}`);
    const exported = (await exportUserData(database.db, claire.id))!;
    expect(exported.orders.filter((o) => o.withdrawal).map((o) => o.withdrawal)).toContainEqual({ requestedAt: NOW, email: CLAIRE.email, customerName: CLAIRE.name, source: "account" });

    expect(await eraseUser(database.db, { actorId: adminId, targetId: claire.id })).toMatchObject({ outcome: "erased" });
    const placeholder = `efface-${claire.id.toLowerCase()}@invalid.invalid`;
    const requests = await database.db.select({ email: withdrawalRequests.email, customerName: withdrawalRequests.customerName }).from(withdrawalRequests).where(eq(withdrawalRequests.userId, claire.id));
    expect(requests.length).toBeGreaterThan(3);
    expect(requests.every((r) => r.email === placeholder && r.customerName === ERASED_NAME)).toBe(true);
    expect(await columnsContaining(CLAIRE.email)).toEqual([]);
    // Nor the name given in the withdrawal form.
    expect(await columnsContaining("Claire et Jean")).toEqual([]);
    // The requests themselves stay, with their dates: the seller must be able to show them.
    expect(await database.db.select({ n: count() }).from(withdrawalRequests).where(eq(withdrawalRequests.requestedAt, NOW))).not.toEqual([{ n: 0 }]);
  });

  /** "table.column" of every text, varchar or JSON column that holds `needle` (any case). */
  async function columnsContaining(needle: string): Promise<string[]> {
    const result = (await database.db.execute(sql`
      select table_name, column_name from information_schema.columns
      where table_schema = 'public' and data_type in ('text', 'character varying', 'jsonb', 'json')`)) as unknown as { rows: { table_name: string; column_name: string }[] };
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
