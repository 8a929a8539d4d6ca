import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { orderItems, orders, products } from "~/db/schema";
import { ACCOUNT_ORDER_PAGE_SIZE, ACCOUNT_ORDER_SEARCH_MAX } from "~/domain/account-order-list";
import { formatEuros } from "~/domain/money";
import type { Auth } from "~/lib/auth.server";
import type { AppContext } from "~/lib/context";
import { PRIVATE_PAGE_CACHE_CONTROL } from "~/lib/http";
import * as accountRoute from "~/routes/account";
import * as accountOrderRoute from "~/routes/account-order";
import * as accountOrdersRoute from "~/routes/account-orders";
import type { CheckoutContext } from "~/services/checkout.server";
import { getCustomerOrderDetail, listCustomerOrderPage } from "~/services/customer-orders.server";
import { getAdminOrder } from "~/services/admin-orders.server";
import { refundPartOfOrder } from "~/services/partial-refunds.server";
import { createTestProvider } from "~/services/payments/test-provider.server";
import { createUserWithPassword } from "~/services/users.server";
import { startCheckout } from "~/services/checkout.server";
import { handlePaymentEvent } from "~/services/payment-webhooks.server";
import { recordMovement } from "~/services/store-credit.server";
import { HOME_ADDRESS, checkoutAndPay } from "./paid-checkout";
import { outcome } from "./route-outcome";
import { databaseLabel, openTestDatabase } from "./test-database";
import { testAuth } from "./route-context";

/**
 * The customer's order history (issue 56, point 2) on a real database: the list's pages and its
 * boundaries, the search by number and by product (its % and _ taken literally), nobody else's
 * orders, and one order's page with its partial refund, the credit note and the timeline, as the
 * server's loaders answer them.
 */
const ORIGIN = "http://shop.test";
const PASSWORD = "Historique-commandes-2026";
const deps = { shop: { name: "Comptoir", email: "contact@comptoir.example", publicUrl: ORIGIN }, sellerEmail: "vendeur@comptoir.example" };
const CAMILLE = { name: "Camille Collection", email: "camille.historique@example.org" };
const OTHER = { name: "Autre Client", email: "autre.historique@example.org" };
/** Camille has this many orders: two full pages and one more. */
const CAMILLE_ORDERS = 2 * ACCOUNT_ORDER_PAGE_SIZE + 1;

describe(`the customer's order history on ${databaseLabel}`, () => {
  let database: Database;
  let auth: Auth;
  let context: AppContext;
  let camilleId: string;
  let otherId: string;
  let exactId: string;
  let seq = 0;
  const db = () => database.db;

  /** An order written straight, `minutesAgo` old, with the given products. */
  async function order(userId: string, minutesAgo: number, names: string[]) {
    const n = ++seq;
    const [row] = await db()
      .insert(orders)
      .values({
        number: `CPT-${String(700_000 + n)}-${String(n).padStart(4, "0")}`,
        status: "paid",
        userId,
        customerEmail: CAMILLE.email,
        customerName: CAMILLE.name,
        subtotalCents: 1_000 * names.length,
        totalCents: 1_000 * names.length,
        paymentProvider: "test",
        createdAt: new Date(Date.now() - minutesAgo * 60_000),
        paidAt: new Date(Date.now() - minutesAgo * 60_000),
      })
      .returning();
    await db().insert(orderItems).values(names.map((name) => ({ orderId: row!.id, name, unitPriceCents: 1_000, quantity: 1 })));
    return row!;
  }

  const cookieOf = async (email: string) => {
    const result = await auth.api.signInEmail({ body: { email, password: PASSWORD }, returnHeaders: true });
    return result.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  };
  const request = (cookie: string, path: string) => new Request(`${ORIGIN}${path}`, { headers: { cookie } });

  /** Camille's orders, newest first: numbers of the 21 written in beforeAll. */
  const camilleNumbers: string[] = [];
  let otherNumber = "";

  beforeAll(async () => {
    database = await openTestDatabase();
    auth = testAuth(database.db, ORIGIN);
    camilleId = (await createUserWithPassword(db(), { ...CAMILLE, password: PASSWORD, role: "user", emailVerified: true })).id;
    otherId = (await createUserWithPassword(db(), { ...OTHER, password: PASSWORD, role: "user", emailVerified: true })).id;
    exactId = (await createUserWithPassword(db(), { name: "Page Pleine", email: "page.pleine@example.org", password: PASSWORD, role: "user", emailVerified: true })).id;
    context = {
      db: database.db,
      shop: { name: deps.shop.name, email: deps.shop.email, socials: [], legal: { address: "12 rue des Lilas, 69001 Lyon" } },
      publicUrl: ORIGIN,
      nonce: "",
      logger: pino({ level: "silent" }),
      auth,
      clientIp: "203.0.113.1",
      kickMail: () => {},
      checkout: { orderPrefix: "CPT", reservationMinutes: 30, sellerEmail: deps.sellerEmail },
    } as unknown as AppContext;
    // Oldest first: order i is (CAMILLE_ORDERS - i) minutes old. Two hold products whose names carry % and _.
    for (let i = 0; i < CAMILLE_ORDERS; i++) {
      const names = i === 3 ? ["Lot 100% holo", "Protège-cartes"] : i === 4 ? ["Booster_Édition 1"] : [`Booster Écarlate ${i}`];
      camilleNumbers.unshift((await order(camilleId, CAMILLE_ORDERS - i, names)).number);
    }
    otherNumber = (await order(otherId, 0, ["Display Flammes Obsidiennes"])).number;
    for (let i = 0; i < ACCOUNT_ORDER_PAGE_SIZE; i++) await order(exactId, i + 1, ["Booster Page Pleine"]);
  });
  afterAll(() => database?.close());

  const page = (userId: string, q: string, n: number) => listCustomerOrderPage(db(), userId, { q, page: n });

  it("pages through the customer's own orders, newest first, and stops at the boundaries", async () => {
    const first = await page(camilleId, "", 1);
    expect(first).toMatchObject({ total: CAMILLE_ORDERS, page: 1, pageCount: 3 });
    expect(first.rows.map((row) => row.number)).toEqual(camilleNumbers.slice(0, ACCOUNT_ORDER_PAGE_SIZE));
    expect((await page(camilleId, "", 2)).rows.map((row) => row.number)).toEqual(camilleNumbers.slice(ACCOUNT_ORDER_PAGE_SIZE, 2 * ACCOUNT_ORDER_PAGE_SIZE));
    // The last page holds the one left; a page past the end shows the last one.
    const last = await page(camilleId, "", 3);
    expect(last.rows.map((row) => row.number)).toEqual([camilleNumbers.at(-1)]);
    expect(await page(camilleId, "", 99)).toEqual(last);
    // Exactly one page's worth: one page, no second.
    expect(await page(exactId, "", 1)).toMatchObject({ total: ACCOUNT_ORDER_PAGE_SIZE, pageCount: 1 });
    expect((await page(exactId, "", 2)).page).toBe(1);
    // Nobody else's order is in the list.
    expect(first.rows.concat((await page(camilleId, "", 2)).rows, last.rows).map((row) => row.number)).not.toContain(otherNumber);
    // A row: its total, its units, its first product and how many lines.
    const mixed = (await page(camilleId, camilleNumbers.at(-4)!, 1)).rows[0]!;
    expect(mixed).toMatchObject({ number: camilleNumbers.at(-4), status: "paid", totalCents: 2_000, itemCount: 2, lineCount: 2, firstItemName: "Lot 100% holo", withdrawalRequested: false, partlyRefunded: false });
  });

  it("finds an order by its number, whole or in part, in any case", async () => {
    const number = camilleNumbers[5]!;
    expect((await page(camilleId, number, 1)).rows.map((row) => row.number)).toEqual([number]);
    expect((await page(camilleId, number.slice(4).toLowerCase(), 1)).rows.map((row) => row.number)).toEqual([number]);
    // Another customer's number finds nothing.
    expect(await page(camilleId, otherNumber, 1)).toMatchObject({ rows: [], total: 0, pageCount: 0 });
  });

  it("finds orders by a product's name, % and _ taken as typed", async () => {
    expect((await page(camilleId, "écarlate 1", 1)).total).toBe(11); // 1, 10…19 of the 19 "Booster Écarlate n"
    expect((await page(camilleId, "protège", 1)).rows.map((row) => row.number)).toEqual([camilleNumbers.at(-4)]);
    expect((await page(camilleId, "100%", 1)).rows.map((row) => row.number)).toEqual([camilleNumbers.at(-4)]);
    // "%" alone matches no name holding no "%", "_" no name holding no "_".
    expect((await page(camilleId, "%", 1)).total).toBe(1);
    expect((await page(camilleId, "_", 1)).rows.map((row) => row.number)).toEqual([camilleNumbers.at(-5)]);
    expect((await page(camilleId, "Booster_É", 1)).total).toBe(1);
    // Another customer's product finds nothing in Camille's orders.
    expect((await page(camilleId, "Obsidiennes", 1)).total).toBe(0);
    // A search and its pages: 11 found, the second page holds the 11th.
    const second = await page(camilleId, "Écarlate 1", 2);
    expect(second).toMatchObject({ total: 11, page: 2, pageCount: 2 });
    expect(second.rows).toHaveLength(1);
  });

  it("answers the pages as the server does: private, a too-long search refused in French, nobody else's order", async () => {
    const cookie = await cookieOf(CAMILLE.email);
    expect(accountOrdersRoute.headers()).toEqual({ "Cache-Control": PRIVATE_PAGE_CACHE_CONTROL });
    expect(accountOrderRoute.headers()).toEqual({ "Cache-Control": PRIVATE_PAGE_CACHE_CONTROL });
    const list = await outcome(() => accountOrdersRoute.loader({ request: request(cookie, "/account/orders?q=%20%C3%A9carlate%201%20&page=2"), context, params: {} } as never));
    expect(list).toMatchObject({ status: 200, body: { query: { q: "écarlate 1", page: 2 }, error: null, total: 11, pageCount: 2 } });
    const tooLong = await outcome(() => accountOrdersRoute.loader({ request: request(cookie, `/account/orders?q=${"x".repeat(ACCOUNT_ORDER_SEARCH_MAX + 1)}`), context, params: {} } as never));
    expect(tooLong).toMatchObject({ status: 400, body: { error: `Votre recherche ne peut pas dépasser ${ACCOUNT_ORDER_SEARCH_MAX} caractères.`, query: { q: "" }, total: CAMILLE_ORDERS } });
    // Signed out: to the sign-in page.
    const signedOut = await outcome(() => accountOrdersRoute.loader({ request: new Request(`${ORIGIN}/account/orders`), context, params: {} } as never));
    expect(signedOut.status).toBe(302);
    expect(signedOut.location).toMatch(/^\/login/);
    // Another customer's order: 404, as a number that does not exist.
    for (const number of [otherNumber, "CPT-000000-0000", "x".repeat(41)]) {
      expect((await outcome(() => accountOrderRoute.loader({ request: request(cookie, `/account/orders/${number}`), context, params: { number } } as never))).status).toBe(404);
    }
    expect(await getCustomerOrderDetail(db(), camilleId, otherNumber)).toBeNull();
    // The account keeps a few recent orders; the list has them all.
    const account = await outcome(() => accountRoute.loader({ request: request(cookie, "/account"), context, params: {} } as never));
    expect((account.body as { orders: { number: string }[] }).orders.map((o) => o.number)).toEqual(camilleNumbers.slice(0, 3));
  });

  it("shows a real order's partial refund with its date, amount and credit note, the invoice, and the timeline", async () => {
    const provider = createTestProvider({ db: db(), secret: "account-orders" });
    const [booster] = await db().insert(products).values({ title: "Booster Historique", priceCents: 650, stock: 10, category: "TCG", subCategory: "Scellés" }).returning();
    const ctx: CheckoutContext = { now: new Date(), customer: { id: camilleId, email: CAMILLE.email }, clientIp: "198.51.100.7", orderPrefix: "CPT", origin: ORIGIN, reservationMinutes: 30 };
    const paid = await checkoutAndPay(db(), provider, [{ productId: booster!.id, quantity: 3 }], { ctx, deps, intent: "pi_history_1", email: CAMILLE.email });
    const line = (await getAdminOrder(db(), paid.number))!.refundable.lines[0]!;
    const refunded = await refundPartOfOrder(db(), provider, { orderId: paid.id, requestKey: randomUUID(), request: { lines: [{ orderItemId: line.id, quantity: 1, restock: true }], shippingCents: 0, insuranceCents: 0, adjustment: null }, actorId: null }, deps);
    if (!refunded.ok) throw new Error(refunded.message);

    const cookie = await cookieOf(CAMILLE.email);
    const answer = await outcome(() => accountOrderRoute.loader({ request: request(cookie, `/account/orders/${paid.number}`), context, params: { number: paid.number } } as never));
    expect(answer.status).toBe(200);
    const detail = answer.body as Awaited<ReturnType<typeof accountOrderRoute.loader>>;
    const creditNote = refunded.refund.creditNoteNumber!;
    expect(creditNote).toMatch(/^A-\d{4}-\d{6}$/);
    expect(detail.order.documents.map((doc) => doc.kind)).toEqual(["invoice", "credit_note"]);
    expect(detail.order.documents[1]!.number).toBe(creditNote);
    expect(detail.refunds).toEqual([
      {
        id: refunded.refund.id,
        createdAt: expect.any(String),
        refundedAt: refunded.refund.refundedAt!.toISOString(),
        status: "refunded",
        amountCents: 650,
        storeCreditCents: 0,
        creditNoteNumber: creditNote,
        // The customer's page does not say what went back on the shelf.
        parts: ["1 × Booster Historique"],
      },
    ]);
    expect(detail.order.refundedCents).toBe(650);
    expect(detail.shipment).toMatchObject({ shippedAt: null, trackingNumber: null });
    expect(detail.timeline.map((entry) => entry.title)).toEqual(["Commande créée", "Paiement reçu", "Remboursement effectué"]);
    expect(detail.timeline.every((entry) => entry.actorName === null && entry.emails.length === 0)).toBe(true);
    // The list marks it refunded in part, and finds it by its product.
    const found = await page(camilleId, "booster historique", 1);
    expect(found.rows).toEqual([expect.objectContaining({ number: paid.number, partlyRefunded: true, itemCount: 3, lineCount: 1 })]);
    // Still nobody else's.
    const otherCookie = await cookieOf(OTHER.email);
    expect((await outcome(() => accountOrderRoute.loader({ request: request(otherCookie, `/account/orders/${paid.number}`), context, params: { number: paid.number } } as never))).status).toBe(404);
    expect((await db().select({ userId: orders.userId }).from(orders).where(eq(orders.id, paid.id)))[0]!.userId).toBe(camilleId);
  });

  it("shows the store credit an order used, and the part of each refund given back as credit", async () => {
    const provider = createTestProvider({ db: db(), secret: "account-orders-credit" });
    await recordMovement(db(), { email: CAMILLE.email, amountCents: 12_00, kind: "goodwill", reason: "Geste commercial", author: "seller:test" });
    const [card] = await db().insert(products).values({ title: "Carte Historique", priceCents: 42_00, stock: 3, category: "TCG", subCategory: "Cartes à l'unité" }).returning();
    const ctx: CheckoutContext = { now: new Date(), customer: { id: camilleId, email: CAMILLE.email }, clientIp: "198.51.100.8", orderPrefix: "CPT", origin: ORIGIN, reservationMinutes: 30, paidDeps: deps };
    const started = await startCheckout(db(), provider, { items: [{ productId: card!.id, quantity: 1 }], insuranceSelected: false, storeCreditCents: 12_00 }, ctx);
    if (started.status !== 200) throw new Error(JSON.stringify(started.body));
    const [placed] = await db().select().from(orders).where(eq(orders.number, started.body.orderNumber));
    expect(placed!.storeCreditCents).toBe(12_00);
    const charged = placed!.totalCents - 12_00;
    const paidEvent = { id: `evt_${placed!.id}`, type: "session.completed" as const, sessionId: placed!.providerSessionId, paid: true, paymentReference: `pi_${placed!.id}`, customerEmail: CAMILLE.email, customerName: CAMILLE.name, shippingAddress: HOME_ADDRESS, amountTotalCents: charged, currency: "eur" };
    expect(await handlePaymentEvent(db(), provider, paidEvent, deps)).toBe("paid");
    const refunded = await refundPartOfOrder(db(), provider, { orderId: placed!.id, requestKey: randomUUID(), request: { lines: [], shippingCents: 0, insuranceCents: 0, adjustment: { kind: "goodwill", cents: 7_00, reason: "Carte abîmée" } }, actorId: null }, deps);
    if (!refunded.ok) throw new Error(refunded.message);
    expect(refunded.refund.storeCreditCents).toBeGreaterThan(0);

    const detail = (await getCustomerOrderDetail(db(), camilleId, placed!.number))!;
    expect(detail.order.storeCreditCents).toBe(12_00);
    expect(detail.refunds).toEqual([
      expect.objectContaining({ amountCents: 7_00, storeCreditCents: refunded.refund.storeCreditCents, creditNoteNumber: refunded.refund.creditNoteNumber, parts: [`Geste commercial : ${formatEuros(7_00)} (Carte abîmée)`] }),
    ]);
  });
});
