import { and, eq } from "drizzle-orm";
import pino from "pino";
import PostalMime from "postal-mime";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database } from "~/db/client.server";
import { emailOptOuts, outboxEmails, products, rateLimits, stockAlerts } from "~/db/schema";
import { EMPTY_IDENTITY } from "~/domain/shop-identity";
import type { AppContext } from "~/lib/context";
import * as notificationsRoute from "~/routes/account-notifications";
import * as unsubscribeRoute from "~/routes/unsubscribe";
import type { CheckoutContext } from "~/services/checkout.server";
import { emailChoicesOf, unsubscribeToken } from "~/services/email-choices.server";
import { createTestProvider } from "~/services/payments/test-provider.server";
import { alertLinkToken, confirmAlert, requestAlert, sendDueAlerts } from "~/services/stock-alerts.server";
import { createUserWithPassword } from "~/services/users.server";
import { startMailWorker } from "../../server/mail-worker";
import { checkoutAndPay } from "./paid-checkout";
import { outcome } from "./route-outcome";
import { startSmtpServer } from "./smtp-server";
import { databaseLabel, openTestDatabase } from "./test-database";
import { testAuth } from "./route-context";

/**
 * Notification choices (issue 56, point 4) on a real database: a switched-off kind sends nothing
 * while order e-mails still go; every optional e-mail carries RFC 8058's one-click headers, order
 * e-mails none; the header's POST unsubscribes without a session, twice as once, and refuses a
 * forged token.
 */
const SECRET = "secret-des-alertes-0123456789";
const ORIGIN = "https://comptoir.example";
const shop = { name: "Comptoir", email: "contact@comptoir.example", publicUrl: ORIGIN };
const cgv = { shopName: "Comptoir", siteUrl: ORIGIN, legalDefaults: { ...EMPTY_IDENTITY, companyName: "Comptoir SAS", address: "12 rue des Lilas, 69001 Lyon", email: "contact@comptoir.example" } };

describe(`notification choices on ${databaseLabel}`, () => {
  let database: Database;
  let context: AppContext;
  let n = 0;
  const deps = () => ({ db: database.db, shop, secret: SECRET });
  const mailsTo = (to: string, kind: string) => database.db.select().from(outboxEmails).where(and(eq(outboxEmails.to, to), eq(outboxEmails.kind, kind)));

  beforeAll(async () => {
    database = await openTestDatabase();
    context = {
      db: database.db,
      shop: { name: shop.name, email: shop.email, socials: [], legal: {} },
      publicUrl: ORIGIN,
      nonce: "",
      logger: pino({ level: "silent" }),
      auth: testAuth(database.db, ORIGIN),
      clientIp: "203.0.113.9",
      kickMail: () => {},
      dropSecret: SECRET,
    } as unknown as AppContext;
  });
  afterAll(() => database?.close());

  /** A confirmed alert of `email` for a sold-out product; returns the product. */
  async function waitingFor(email: string) {
    const [product] = await database.db.insert(products).values({ title: `Display attendu ${++n}`, priceCents: 19_999, stock: 0, category: "TCG", subCategory: "Scellés" }).returning();
    await requestAlert(deps(), { productId: product!.id, email });
    const [alert] = await database.db.select().from(stockAlerts).where(and(eq(stockAlerts.productId, product!.id), eq(stockAlerts.email, email)));
    expect(await confirmAlert(database.db, SECRET, alert!.id, alertLinkToken(SECRET, "confirmer", alert!.id))).toBe(true);
    return product!;
  }
  const restock = (productId: number) => database.db.update(products).set({ stock: 3 }).where(eq(products.id, productId));

  /**
   * The one-click POST a mailbox provider's server sends (RFC 8058): no cookie, no Origin (a
   * browser's cross-site POST, with one, is refused before any action: server/request-guards.ts).
   */
  const oneClick = (url: string, body = "List-Unsubscribe=One-Click") =>
    outcome(() =>
      unsubscribeRoute.action({
        request: new Request(url, { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded" } }),
        context,
        params: {},
      } as never),
    );
  const linkIn = (text: string) => text.match(/https:\/\/comptoir\.example\/desabonnement\?jeton=\S+/)![0];

  it("puts the one-click headers and the visible link on an alert, and the header's POST unsubscribes signed out, once, with a valid token only", async () => {
    const product = await waitingFor("lea@example.com");
    await restock(product.id);
    expect(await sendDueAlerts(deps())).toBe(1);
    const [alert] = await mailsTo("lea@example.com", "alert-available");
    const url = `${ORIGIN}/desabonnement?jeton=${unsubscribeToken(SECRET, "lea@example.com", "stock-alerts")}`;
    expect(alert!.headers).toEqual({ "List-Unsubscribe": `<${url}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" });
    expect(linkIn(alert!.text)).toBe(url);
    expect(alert!.html).toContain(url);

    // Opening the link (a scanner, or the person) changes nothing.
    const shown = await outcome(() => unsubscribeRoute.loader({ request: new Request(url), context, params: {} } as never));
    expect(shown).toMatchObject({ status: 200, body: { view: { kind: "stock-alerts", email: "lea@example.com", subscribed: true }, done: false } });
    expect((await emailChoicesOf(database.db, "lea@example.com"))["stock-alerts"]).toBe(true);

    // Forged, edited or another address's signature with this address: refused, nothing written.
    const forged = `${ORIGIN}/desabonnement?jeton=${unsubscribeToken("un-autre-secret-0123456789", "lea@example.com", "stock-alerts")}`;
    const [body, mac] = unsubscribeToken(SECRET, "autre@example.com", "stock-alerts").split(".");
    const [leaBody] = unsubscribeToken(SECRET, "lea@example.com", "stock-alerts").split(".");
    for (const bad of [forged, `${ORIGIN}/desabonnement?jeton=${leaBody}.${mac}`, `${ORIGIN}/desabonnement?jeton=${body}`, `${ORIGIN}/desabonnement`]) {
      expect((await oneClick(bad)).status).toBe(404);
    }
    expect(await database.db.select().from(emailOptOuts)).toHaveLength(0);
    // A POST that is not the one-click body nor the page's resubscribe button: refused.
    expect((await oneClick(url, "autre=chose")).status).toBe(400);
    expect(await database.db.select().from(emailOptOuts)).toHaveLength(0);

    const first = await oneClick(url);
    expect(first).toMatchObject({ status: 200, body: { view: { subscribed: false }, done: true } });
    expect(first.location ?? null).toBeNull();
    const again = await oneClick(url);
    expect(again).toMatchObject({ status: 200, body: { view: { subscribed: false }, done: true } });
    expect(await database.db.select().from(emailOptOuts).where(eq(emailOptOuts.email, "lea@example.com"))).toEqual([
      { email: "lea@example.com", kind: "stock-alerts", createdAt: expect.any(Date) },
    ]);

    // The page's button resubscribes, signed out too.
    const back = await oneClick(url, "intent=resubscribe");
    expect(back).toMatchObject({ status: 200, body: { view: { subscribed: true }, done: true } });
    expect((await emailChoicesOf(database.db, "lea@example.com"))["stock-alerts"]).toBe(true);
  });

  it("sends no alert to an address that switched alerts off, still its order e-mails (without the headers); the alert waits until alerts are on again", async () => {
    const email = "hugo@example.com";
    const product = await waitingFor(email);
    expect((await oneClick(`${ORIGIN}/desabonnement?jeton=${unsubscribeToken(SECRET, "  Hugo@Example.com ", "stock-alerts")}`)).status).toBe(200);
    await restock(product.id);
    expect(await sendDueAlerts(deps())).toBe(0);
    expect(await mailsTo(email, "alert-available")).toHaveLength(0);
    const [alert] = await database.db.select().from(stockAlerts).where(eq(stockAlerts.productId, product.id));
    expect(alert!.status).toBe("active");

    // The same address buys: its order confirmation goes, with no unsubscribe header.
    const provider = createTestProvider({ db: database.db, secret: "test-secret" });
    const ctx: CheckoutContext = { now: new Date(), customer: null, clientIp: "198.51.100.7", orderPrefix: "CPT", origin: ORIGIN, reservationMinutes: 30, cgv };
    await database.db.delete(rateLimits);
    await checkoutAndPay(database.db, provider, [{ productId: product.id, quantity: 1 }], { ctx, deps: { shop, sellerEmail: "vendeur@comptoir.example" }, intent: "pay_choices", email });
    const [confirmation] = await mailsTo(email, "order-confirmation");
    expect(confirmation).toBeDefined();
    expect(confirmation!.headers).toBeNull();
    expect(confirmation!.text).not.toContain("/desabonnement");

    // On again (here by confirming a new alert, the address's latest word): the waiting alert goes.
    await waitingFor(email);
    expect((await emailChoicesOf(database.db, email))["stock-alerts"]).toBe(true);
    expect(await sendDueAlerts(deps())).toBe(1);
    expect(await mailsTo(email, "alert-available")).toHaveLength(1);
  });

  it("saves the choices of /account/notifications with the form's schema, from the shop's pages only", async () => {
    const email = "nina@example.com";
    const password = "Mot-de-passe-solide-42";
    await createUserWithPassword(database.db, { name: "Nina Client", email, password, role: "user", emailVerified: true });
    const signIn = await context.auth.api.signInEmail({ body: { email, password }, returnHeaders: true });
    const cookie = signIn.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const post = (body: string, origin = ORIGIN) =>
      outcome(() =>
        notificationsRoute.action({
          request: new Request(`${ORIGIN}/account/notifications`, { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded", origin, cookie } }),
          context,
          params: {},
        } as never),
      );

    expect((await post("", "https://evil.example")).status).toBe(403);
    expect((await emailChoicesOf(database.db, email))["stock-alerts"]).toBe(true);
    expect(await post("stock-alerts=oui")).toMatchObject({ status: 400, body: { saved: false, errors: { "stock-alerts": "Choix invalide" } } });
    expect(await post("")).toMatchObject({ status: 200, body: { saved: true } });
    expect((await emailChoicesOf(database.db, email))["stock-alerts"]).toBe(false);
    const page = await outcome(() => notificationsRoute.loader({ request: new Request(`${ORIGIN}/account/notifications`, { headers: { cookie } }), context, params: {} } as never));
    expect(page).toMatchObject({ status: 200, body: { email, choices: { "stock-alerts": false } } });
    expect(await post("stock-alerts=on")).toMatchObject({ status: 200, body: { saved: true } });
    expect((await emailChoicesOf(database.db, email))["stock-alerts"]).toBe(true);

    const signedOut = await outcome(() => notificationsRoute.loader({ request: new Request(`${ORIGIN}/account/notifications`), context, params: {} } as never));
    expect(signedOut).toMatchObject({ status: 302, location: "/login" });
  });

  it("passes the one-click headers on over SMTP", async () => {
    const smtp = await startSmtpServer();
    const product = await waitingFor("smtp@example.com");
    await restock(product.id);
    expect(await sendDueAlerts(deps())).toBe(1);
    await database.db.update(outboxEmails).set({ status: "sent" }).where(eq(outboxEmails.status, "pending"));
    await database.db.update(outboxEmails).set({ status: "pending" }).where(and(eq(outboxEmails.to, "smtp@example.com"), eq(outboxEmails.kind, "alert-available")));
    const worker = startMailWorker({ db: database.db, smtpUrl: `smtp://127.0.0.1:${smtp.port}`, from: { name: "Comptoir", address: shop.email }, logger: pino({ level: "silent" }), shopName: "Comptoir", pollMs: 60_000 });
    try {
      await vi.waitFor(() => expect(smtp.received).toHaveLength(1), { timeout: 5_000, interval: 20 });
      const message = await PostalMime.parse(smtp.received[0]!.raw);
      const header = (name: string) => message.headers.find((h) => h.key === name.toLowerCase())?.value;
      expect(header("List-Unsubscribe")).toBe(`<${ORIGIN}/desabonnement?jeton=${unsubscribeToken(SECRET, "smtp@example.com", "stock-alerts")}>`);
      expect(header("List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    } finally {
      await worker.stop();
      await smtp.close();
    }
  });
});
