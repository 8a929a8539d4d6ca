import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from "vitest";
import type { Database } from "~/db/client.server";
import { orderItems, orders, outboxEmails, paymentEvents, products, rateLimits, shippingMethods, testPaymentSessions, users } from "~/db/schema";
import { RATE_LIMITS } from "~/domain/rate-limits";
import { type CheckoutContext, cancelCheckout, cancelCustomerCheckout, pendingPaymentOf, startCheckout } from "~/services/checkout.server";
import { handlePaymentEvent, receiveWebhook } from "~/services/payment-webhooks.server";
import { createTestProvider, type TestProvider, testWebhook } from "~/services/payments/test-provider.server";
import type { PaymentEvent, PaymentProvider } from "~/services/payments/types";
import { releaseExpiredReservations } from "~/services/reservations.server";
import { StockGate } from "~/services/stock-gate.server";
import { setSignatureDeliveryEnabled } from "~/services/signature-delivery-setting.server";
import pino from "pino";
import { openChangeFeed } from "../../server/catalog-changes";
import { isProductChange } from "~/domain/catalog-change";
import { failFirstEmail, isInjectedFailure } from "../support/failing-insert";
import { type BuyerPayment, type Delivery, type PaymentRig, paymentRigs } from "../support/payment-rigs";
import { flatDelivery } from "./flat-delivery";
import { databaseLabel, openTestDatabase } from "./test-database";

const deps = { shop: { name: "Comptoir", email: "contact@comptoir.example", publicUrl: "https://comptoir.example" }, sellerEmail: "vendeur@comptoir.example" };
const address = { method: "home" as const, fullName: "Marie Curie", line1: "12 rue des Lilas", postalCode: "75011", city: "Paris", country: "FR", phone: "0612345678" };
/** Marie pays on the provider's page, giving her address. */
const mariePays: BuyerPayment = { paid: true, paymentReference: "pi_test_abc", customerEmail: "marie@example.com", customerName: "Marie Curie", shippingAddress: address };
/** A page left without paying: the session expires with nothing given. */
const abandoned: BuyerPayment = { paid: false, paymentReference: null, customerEmail: null, customerName: null, shippingAddress: null };
type Shipping = Awaited<ReturnType<typeof flatDelivery>>;

describe(`checkout and payments on ${databaseLabel}`, () => {
  let database: Database;
  let provider: TestProvider;
  let ip = 0;

  const ctx = (overrides: Partial<CheckoutContext> = {}): CheckoutContext => ({
    now: new Date(),
    customer: null,
    // A new address per checkout: the rate limits have their own test.
    clientIp: `198.51.100.${++ip % 250}-${ip}`,
    orderPrefix: "CPT",
    origin: "http://shop.test",
    reservationMinutes: 30,
    ...overrides,
  });

  async function product(values: Partial<typeof products.$inferInsert> = {}) {
    const [row] = await database.db
      .insert(products)
      .values({ title: "Display Écarlate et Violet", priceCents: 14_999, stock: 5, category: "TCG", subCategory: "Scellés", ...values })
      .returning();
    return row!;
  }
  const stockOf = async (id: number) => (await database.db.select({ stock: products.stock }).from(products).where(eq(products.id, id)))[0]!.stock;
  const orderOf = async (number: string) => (await database.db.select().from(orders).where(eq(orders.number, number)))[0]!;

  async function checkoutOne(productId: number, quantity = 1, via: { provider?: PaymentProvider; delivery?: Shipping } = {}) {
    const result = await startCheckout(database.db, via.provider ?? provider, { items: [{ productId, quantity }], insuranceSelected: false, delivery: via.delivery }, ctx());
    if (result.status !== 200) throw new Error(`checkout refused: ${JSON.stringify(result.body)}`);
    const order = await orderOf(result.body.orderNumber);
    return { ...result.body, order };
  }

  /** The sweeper's round once the order's reservation has ended. */
  const expireReservation = (order: { reservedUntil: Date | null }) =>
    releaseExpiredReservations(database.db, new Date(order.reservedUntil!.getTime() + 1), { postgres: database.kind === "postgres" });
  /** The e-mails queued about an order, as "kind→recipient", sorted. */
  async function mailsAbout(orderNumber: string) {
    const mails = await database.db.select({ to: outboxEmails.to, kind: outboxEmails.kind }).from(outboxEmails).where(sql`${outboxEmails.subject} like ${`%${orderNumber}%`}`);
    return mails.map((m) => `${m.kind}→${m.to}`).sort();
  }

  beforeAll(async () => {
    database = await openTestDatabase();
    provider = createTestProvider({ db: database.db, secret: "integration-secret" });
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.db.delete(rateLimits);
  });

  it("50 concurrent checkouts for the last unit give exactly one order", async () => {
    const last = await product({ stock: 1, title: "Coffret Dracaufeu Ultra Premium" });
    const results = await Promise.all(
      Array.from({ length: 50 }, () => startCheckout(database.db, provider, { items: [{ productId: last.id, quantity: 1 }], insuranceSelected: false }, ctx())),
    );
    const won = results.filter((r) => r.status === 200);
    const lost = results.filter((r) => r.status === 409);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(49);
    for (const r of lost) {
      expect(r.body).toMatchObject({ error: "Produit indisponible", code: "OUT_OF_STOCK", productId: last.id });
      expect("details" in r.body && r.body.details).toMatch(/victime de son succès/);
    }
    expect(await stockOf(last.id)).toBe(0);
    const [{ n }] = (await database.db.select({ n: sql<number>`count(*)::int` }).from(orderItems).where(eq(orderItems.productId, last.id))) as [{ n: number }];
    expect(n).toBe(1);
  });

  it("with the process's stock gate: one order for the last unit, latecomers refused from memory, a restock heard from the database opens the sale again", async () => {
    const gate = new StockGate();
    const feed = await openChangeFeed(database, pino({ level: "silent" }));
    feed.subscribe((change) => (change.op === "resync" ? gate.changed() : isProductChange(change) && gate.changed(change.id)));
    try {
      const last = await product({ stock: 1, title: "Display drop" });
      const body = { items: [{ productId: last.id, quantity: 1 }], insuranceSelected: false };
      const results = await Promise.all(Array.from({ length: 50 }, () => startCheckout(database.db, provider, body, ctx({ gate }))));
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      expect(results.filter((r) => r.status === 409 && r.body.code === "OUT_OF_STOCK")).toHaveLength(49);
      expect(await stockOf(last.id)).toBe(0);
      // Once the winner's NOTIFY has come and gone (it makes the gate forget), a refusal teaches
      // the gate that the product is sold out.
      await expect
        .poll(async () => {
          await startCheckout(database.db, provider, body, ctx({ gate }));
          return gate.shortage([{ productId: last.id, quantity: 1 }]);
        }, { timeout: 5_000 })
        .not.toBeNull();
      // Known sold out: refused without touching the database (no rate-limit row for this address).
      const late = await startCheckout(database.db, provider, body, ctx({ gate, clientIp: "192.0.2.77" }));
      expect(late).toMatchObject({ status: 409, body: { code: "OUT_OF_STOCK", productId: last.id } });
      expect(await database.db.select().from(rateLimits).where(sql`${rateLimits.key} like '%192.0.2.77%'`)).toEqual([]);
      // The seller restocks: the database announces it, and the next buyer gets a unit.
      await database.db.update(products).set({ stock: 2 }).where(eq(products.id, last.id));
      await expect.poll(() => gate.shortage([{ productId: last.id, quantity: 1 }]), { timeout: 5_000 }).toBeNull();
      expect((await startCheckout(database.db, provider, body, ctx({ gate }))).status).toBe(200);
    } finally {
      await feed.close();
    }
  });

  it("writes the order with server prices, snapshots, the Remise contre signature, a SPEC.md number and a session", async () => {
    const p = await product({ priceCents: 24_999, stock: 3 });
    // Whatever else the browser sends (a price, an amount) is ignored.
    const body = { items: [{ productId: p.id, quantity: 2, price: 1, priceCents: 1 }], insuranceSelected: true, insuranceAmount: 0, amount: 1 };
    const result = await startCheckout(database.db, provider, body, ctx());
    expect(result.status).toBe(200);
    if (result.status !== 200) return;
    expect(result.body.orderNumber).toMatch(/^CPT-\d{6}-\d{4}$/);
    expect(result.body.url).toMatch(/^http:\/\/shop\.test\/paiement\/cs_test_/);
    const order = await orderOf(result.body.orderNumber);
    // No delivery chosen (a script): the cheapest method to an address in France that carries it,
    // here Colissimo, free from 100 € of goods (migration 0014's defaults).
    expect(order).toMatchObject({
      status: "pending_payment",
      subtotalCents: 49_998,
      insuranceCents: 1_000,
      shippingCents: 0,
      shippingMethodName: "Colissimo à domicile",
      shippingKind: "home",
      shippingCountry: "FR",
      weightGrams: 300,
      totalCents: 50_998,
      paymentProvider: "test",
    });
    expect(order.reservedUntil!.getTime() - order.createdAt.getTime()).toBe(30 * 60_000);
    expect(await database.db.select({ name: orderItems.name, unitPriceCents: orderItems.unitPriceCents, quantity: orderItems.quantity }).from(orderItems).where(eq(orderItems.orderId, order.id))).toEqual([
      { name: p.title, unitPriceCents: 24_999, quantity: 2 },
    ]);
    const [session] = await database.db.select().from(testPaymentSessions).where(eq(testPaymentSessions.id, order.providerSessionId!));
    expect(session).toMatchObject({ idempotencyKey: order.id, totalCents: 50_998, orderNumber: order.number });
    expect(session!.lines).toEqual([
      { name: p.title, unitAmountCents: 24_999, quantity: 2 },
      { name: "Remise contre signature", unitAmountCents: 1_000, quantity: 1 },
      { name: "Livraison – Colissimo à domicile", unitAmountCents: 0, quantity: 1 },
    ]);
    expect(await stockOf(p.id)).toBe(1);
  });

  it("refuses the Remise contre signature once the seller turned it off, whatever the page sends; stores it otherwise", async () => {
    const p = await product({ priceCents: 3_000, stock: 5 });
    onTestFinished(() => setSignatureDeliveryEnabled(database.db, true));
    await setSignatureDeliveryEnabled(database.db, false);
    const ordersBefore = await database.db.$count(orders);
    const refused = await startCheckout(database.db, provider, { items: [{ productId: p.id, quantity: 1 }], insuranceSelected: true }, ctx());
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      error: "Remise contre signature indisponible",
      details: "La remise contre signature n'est plus proposée. Décochez-la dans le panier, puis réessayez.",
      code: "SIGNATURE_DELIVERY_OFF",
    });
    // Nothing held, nothing written.
    expect(await stockOf(p.id)).toBe(5);
    expect(await database.db.$count(orders)).toBe(ordersBefore);
    // Without the option the order goes through, with no charge for it.
    const without = await startCheckout(database.db, provider, { items: [{ productId: p.id, quantity: 1 }], insuranceSelected: false }, ctx());
    expect(without.status).toBe(200);
    if (without.status !== 200) return;
    expect(await orderOf(without.body.orderNumber)).toMatchObject({ insuranceCents: 0, subtotalCents: 3_000 });

    // On again: 10 € up to 500 € of goods, stored on the order and sent as its own line.
    await setSignatureDeliveryEnabled(database.db, true);
    const chosen = await startCheckout(database.db, provider, { items: [{ productId: p.id, quantity: 1 }], insuranceSelected: true }, ctx());
    expect(chosen.status).toBe(200);
    if (chosen.status !== 200) return;
    const order = await orderOf(chosen.body.orderNumber);
    expect(order.insuranceCents).toBe(1_000);
    const [session] = await database.db.select().from(testPaymentSessions).where(eq(testPaymentSessions.id, order.providerSessionId!));
    expect(session!.lines).toContainEqual({ name: "Remise contre signature", unitAmountCents: 1_000, quantity: 1 });
  });

  it("refuses a tampered cart with clear answers and changes nothing", async () => {
    const p = await product({ stock: 2 });
    const offline = await product({ status: "hors_ligne" });
    const upcoming = await product({ status: "a_venir", dropTime: new Date(Date.now() + 3_600_000) });
    const cases: [unknown, number, string][] = [
      [{ items: [{ productId: p.id, quantity: 3 }], insuranceSelected: false }, 409, "OUT_OF_STOCK"],
      [{ items: [{ productId: offline.id, quantity: 1 }], insuranceSelected: false }, 409, "UNAVAILABLE"],
      [{ items: [{ productId: upcoming.id, quantity: 1 }], insuranceSelected: false }, 409, "UNAVAILABLE"],
      [{ items: [{ productId: 99_999_999, quantity: 1 }], insuranceSelected: false }, 409, "UNAVAILABLE"],
      [{ items: [{ productId: p.id, quantity: -1 }], insuranceSelected: false }, 400, "INVALID"],
      [{ items: [{ productId: p.id, quantity: 1.5 }], insuranceSelected: false }, 400, "INVALID"],
      [{ items: [{ productId: "1; drop table", quantity: 1 }], insuranceSelected: false }, 400, "INVALID"],
      [{ items: [], insuranceSelected: false }, 400, "INVALID"],
      ["not an object", 400, "INVALID"],
    ];
    for (const [body, status, code] of cases) {
      const result = await startCheckout(database.db, provider, body, ctx());
      expect({ body, status: result.status, code: result.body && "code" in result.body ? result.body.code : null }).toEqual({ body, status, code });
    }
    // Before its drop, a product is not "no longer" for sale: not yet, and when.
    const early = await startCheckout(database.db, provider, { items: [{ productId: upcoming.id, quantity: 1 }], insuranceSelected: false }, ctx());
    expect(early.body).toMatchObject({ details: expect.stringMatching(/^« .+ » n'est pas encore en vente\u00a0: mise en vente le \p{L}+ \d{1,2} \p{L}+ à \d{2}:\d{2}(:\d{2})?\. Il a été retiré de votre panier\.$/u) });
    const gone = await startCheckout(database.db, provider, { items: [{ productId: offline.id, quantity: 1 }], insuranceSelected: false }, ctx());
    expect(gone.body).toMatchObject({ details: expect.stringContaining("n'est plus disponible à la vente") });
    const empty = await startCheckout(database.db, provider, { items: [], insuranceSelected: false }, ctx());
    expect(empty.body).toMatchObject({ error: "Panier vide", details: "Ajoutez des articles à votre panier avant de passer à la caisse." });
    const negative = await startCheckout(database.db, provider, { items: [{ productId: p.id, quantity: -1 }] }, ctx());
    expect(negative.body).toMatchObject({ fieldErrors: { "items.0.quantity": "La quantité doit être d'au moins 1." } });
    // Two lines, the second impossible: the first is not kept either.
    const mixed = await startCheckout(database.db, provider, { items: [{ productId: p.id, quantity: 1 }, { productId: offline.id, quantity: 1 }] }, ctx());
    expect(mixed.status).toBe(409);
    expect(await stockOf(p.id)).toBe(2);
  });

  it("refuses a total under a card payment's 0,50 € before holding anything, and takes one at 0,50 €", async () => {
    const common = await product({ title: "Carte commune", priceCents: 20, stock: 10 });
    // Only a free delivery leaves the total at the goods' price.
    const [pickup] = await database.db
      .insert(shippingMethods)
      .values({ name: "Retrait sur salon", kind: "home", countries: ["FR"], bands: [{ upToGrams: null, fromSubtotalCents: 0, priceCents: 0 }], freeFromCents: null })
      .returning();
    const delivery = { methodId: pickup!.id, country: "FR" };
    const under = await startCheckout(database.db, provider, { items: [{ productId: common.id, quantity: 2 }], insuranceSelected: false, email: "minimum@example.com", delivery }, ctx());
    expect(under).toEqual({
      status: 422,
      body: { error: "Montant trop faible", details: "Le paiement par carte demande une commande d'au moins 0,50\u00a0€\u00a0: ajoutez un article à votre panier.", code: "MINIMUM" },
    });
    expect(await stockOf(common.id)).toBe(10);
    expect(await database.db.select().from(orders).where(eq(orders.customerEmail, "minimum@example.com"))).toEqual([]);
    const enough = await startCheckout(database.db, provider, { items: [{ productId: common.id, quantity: 3 }], insuranceSelected: false, email: "minimum@example.com", delivery }, ctx());
    expect(enough.status).toBe(200);
    await database.db.update(shippingMethods).set({ active: false }).where(eq(shippingMethods.id, pickup!.id));
    expect(await stockOf(common.id)).toBe(7);
    expect(await database.db.select().from(orders).where(eq(orders.customerEmail, "minimum@example.com"))).toHaveLength(1);
  });

  it("limits checkouts per client network (an IPv6 /64, whichever of its addresses) and per e-mail with 429 and a French message", async () => {
    const p = await product({ stock: 0 });
    const body = { items: [{ productId: p.id, quantity: 1 }], insuranceSelected: false };
    const from = (address: string) => ctx({ clientIp: address });
    for (let i = 0; i < RATE_LIMITS.checkoutPerIp.limit; i++) expect((await startCheckout(database.db, provider, body, from(`2001:db8:50:1::${i + 1}`))).status).toBe(409);
    const blocked = await startCheckout(database.db, provider, body, from("2001:db8:50:1:ffff::1"));
    expect(blocked.status).toBe(429);
    // Another /64 is another client.
    expect((await startCheckout(database.db, provider, body, from("2001:db8:50:2::1"))).status).toBe(409);
    expect(blocked.body).toMatchObject({ code: "RATE_LIMITED", error: expect.stringMatching(/^Trop de tentatives\. Réessayez dans \d+ minutes?\.$/) });
    expect("retryAfterS" in blocked && blocked.retryAfterS).toBeGreaterThan(0);
    const byEmail = { ...body, email: "script@example.com" };
    for (let i = 0; i < RATE_LIMITS.checkoutPerEmail.limit; i++) await startCheckout(database.db, provider, byEmail, ctx());
    expect((await startCheckout(database.db, provider, byEmail, ctx())).status).toBe(429);
  });

  it("releases the reservation when the payment provider fails", async () => {
    const p = await product({ stock: 4 });
    const failing: PaymentProvider = { ...provider, createSession: () => Promise.reject(new Error("provider down")) };
    const result = await startCheckout(database.db, failing, { items: [{ productId: p.id, quantity: 3 }], insuranceSelected: false }, ctx());
    expect(result).toMatchObject({ status: 502, body: { error: "Impossible de créer la session de paiement.", code: "PROVIDER" } });
    expect(await stockOf(p.id)).toBe(4);
    const [order] = await database.db.select().from(orders).where(sql`${orders.id} in (select order_id from order_items where product_id = ${p.id})`);
    expect(order?.status).toBe("cancelled");
  });

  it("an expired reservation returns its stock, once", async () => {
    const p = await product({ stock: 3 });
    const { order } = await checkoutOne(p.id, 2);
    expect(await stockOf(p.id)).toBe(1);
    const later = new Date(order.reservedUntil!.getTime() + 1_000);
    const postgres = database.kind === "postgres";
    const released = await releaseExpiredReservations(database.db, later, { postgres });
    expect(released).toContain(order.id);
    expect(await releaseExpiredReservations(database.db, later, { postgres })).not.toContain(order.id);
    expect((await orderOf(order.number)).status).toBe("expired");
    expect(await stockOf(p.id)).toBe(3);
    const [session] = await database.db.select().from(testPaymentSessions).where(eq(testPaymentSessions.id, order.providerSessionId!));
    expect(session?.status).toBe("expired");
  });

  it("a refund that fails stays refund_pending and the seller is told to act", async () => {
    const p = await product({ stock: 1 });
    const { order } = await checkoutOne(p.id);
    await expireReservation(order);
    await checkoutOne(p.id);
    const broken: PaymentProvider = { ...provider, refund: () => Promise.reject(new Error("refund API down")) };
    const event: PaymentEvent = { id: `evt_fail_${order.id}`, type: "session.completed", sessionId: order.providerSessionId, paid: true, paymentReference: "pi_x", customerEmail: "a@example.com", customerName: null, shippingAddress: null, amountTotalCents: null };
    expect(await handlePaymentEvent(database.db, broken, event, deps)).toBe("refund-pending");
    expect((await orderOf(order.number)).status).toBe("refund_pending");
    // This order's notice (an earlier test queued another order's): the seller is told to refund by hand.
    const notices = await database.db
      .select({ to: outboxEmails.to, subject: outboxEmails.subject })
      .from(outboxEmails)
      .where(and(eq(outboxEmails.kind, "seller-late-payment"), sql`${outboxEmails.subject} like ${`%${order.number}%`}`));
    expect(notices).toEqual([{ to: deps.sellerEmail, subject: `À rembourser à la main – ${order.number}` }]);
  });

  it("cancelling from the cart closes the session and puts the units back at once, once", async () => {
    const p = await product({ stock: 3 });
    const { order } = await checkoutOne(p.id, 2);
    const [session] = await database.db.select().from(testPaymentSessions).where(eq(testPaymentSessions.id, order.providerSessionId!));
    expect(session?.cancelUrl).toBe(`http://shop.test/cart?canceled=true&order=${order.id}`);
    expect(await cancelCheckout(database.db, provider, order.id)).toBe(true);
    expect(await stockOf(p.id)).toBe(3);
    expect((await orderOf(order.number)).status).toBe("cancelled");
    const [closed] = await database.db.select().from(testPaymentSessions).where(eq(testPaymentSessions.id, order.providerSessionId!));
    expect(closed?.status).toBe("expired");
    expect(await cancelCheckout(database.db, provider, order.id)).toBe(false);
    expect(await cancelCheckout(database.db, provider, "not-a-uuid")).toBe(false);
    expect(await stockOf(p.id)).toBe(3);
    // A paid order cannot be cancelled this way.
    const paid = await checkoutOne(p.id);
    const webhook = testWebhook(provider, "checkout.session.completed", { sessionId: paid.order.providerSessionId!, ...mariePays, amountTotalCents: null });
    await receiveWebhook(database.db, provider, webhook.raw, webhook.headers, deps);
    expect(await cancelCheckout(database.db, provider, paid.order.id)).toBe(false);
    expect((await orderOf(paid.order.number)).status).toBe("paid");
  });

  it("a customer's unfinished payment: its page, for them alone while it holds; cancelled from their order page", async () => {
    const [marie, other] = [{ id: "u-pending-marie", email: "marie.pending@example.com" }, { id: "u-pending-other", email: "autre.pending@example.com" }];
    await database.db.insert(users).values([marie, other].map((u) => ({ ...u, name: u.email, emailVerified: true })));
    const p = await product({ stock: 2 });
    const result = await startCheckout(database.db, provider, { items: [{ productId: p.id, quantity: 2 }], insuranceSelected: false }, ctx({ customer: marie }));
    if (result.status !== 200) throw new Error(JSON.stringify(result.body));
    const order = await orderOf(result.body.orderNumber);
    const pending = await pendingPaymentOf(database.db, marie.id, order.number);
    expect(pending).toEqual({ orderId: order.id, paymentUrl: result.body.url, reservedUntil: order.reservedUntil!.toISOString() });
    // Not for anyone else, and not once the reservation has ended.
    expect(await pendingPaymentOf(database.db, other.id, order.number)).toBeNull();
    expect(await pendingPaymentOf(database.db, marie.id, order.number, new Date(order.reservedUntil!.getTime() + 1))).toBeNull();
    expect(await cancelCustomerCheckout(database.db, provider, other.id, order.number)).toBe(false);
    expect(await stockOf(p.id)).toBe(0);
    // Marie cancels: the session is closed and the units are back at once.
    expect(await cancelCustomerCheckout(database.db, provider, marie.id, order.number)).toBe(true);
    expect(await stockOf(p.id)).toBe(2);
    expect((await orderOf(order.number)).status).toBe("cancelled");
    expect(await pendingPaymentOf(database.db, marie.id, order.number)).toBeNull();
    expect(await cancelCustomerCheckout(database.db, provider, marie.id, order.number)).toBe(false);
  });

  /**
   * Concurrency, replays and retries of the provider's webhooks, on each payment rig: the test
   * provider, and Stripe's events signed by the official SDK about sessions the Stripe adapter
   * created on the local fake Stripe.
   */
  describe.each(paymentRigs)("webhooks from $label", ({ open }) => {
    let rig: PaymentRig;
    let shipping: Shipping;
    // A delivery at a price the test sets: what a refund gives back is computed here.
    const SHIPPING_CENTS = 490;

    beforeAll(async () => {
      rig = await open(database.db);
      shipping = await flatDelivery(database.db, "Colissimo des webhooks", SHIPPING_CENTS);
    });
    afterAll(() => rig.close());

    const buy = (productId: number) => checkoutOne(productId, 1, { provider: rig.provider, delivery: shipping });
    const receive = (delivery: Delivery) => receiveWebhook(database.db, rig.provider, delivery.raw, delivery.headers, deps);
    const outcomeOf = async (delivery: Delivery) => (await receive(delivery)).body.outcome;
    const sessionOf = (order: { providerSessionId: string | null }) => order.providerSessionId!;
    /** The provider sending the same event again (a retry): same body and event id, signed anew. */
    const again = (delivery: Delivery): Delivery => ({ raw: delivery.raw, headers: rig.sign(delivery.raw) });
    const eventRowsOf = (delivery: Delivery) => database.db.select().from(paymentEvents).where(eq(paymentEvents.id, (JSON.parse(delivery.raw) as { id: string }).id));
    const paidPair = ["order-confirmation→marie@example.com", "seller-new-order→vendeur@comptoir.example"];
    const latePaymentPair = ["late-payment-refund→marie@example.com", "seller-late-payment→vendeur@comptoir.example"];

    /** An order paid after its reservation ended, its only unit bought by someone else meanwhile. */
    async function latePaymentWithStockGone(priceCents: number) {
      const p = await product({ stock: 1, priceCents, title: "Carte Pikachu Illustrator" });
      const { order } = await buy(p.id);
      await expireReservation(order);
      const other = await buy(p.id);
      expect(other.order.status).toBe("pending_payment");
      expect(await stockOf(p.id)).toBe(0);
      return { p, order };
    }

    it("one webhook replayed 10 times, shuffled with an expiry, gives paid once and one e-mail pair", async () => {
      const p = await product({ stock: 2 });
      const { order } = await buy(p.id);
      const paid = await rig.event("checkout.session.completed", sessionOf(order), mariePays);
      const expiry = await rig.event("checkout.session.expired", sessionOf(order), abandoned);
      const deliveries = [...Array.from({ length: 10 }, () => paid), expiry].sort(() => Math.random() - 0.5);
      const answers = await Promise.all(deliveries.map(receive));
      expect(answers.every((a) => a.status === 200)).toBe(true);
      const outcomes = answers.map((a) => a.body.outcome);
      expect(outcomes.filter((o) => o === "paid" || o === "late-paid")).toHaveLength(1);
      expect(outcomes.filter((o) => o === "duplicate")).toHaveLength(9);
      const after = await orderOf(order.number);
      expect(after.status).toBe("paid");
      expect(after).toMatchObject({ customerEmail: "marie@example.com", customerName: "Marie Curie", paymentReference: "pi_test_abc" });
      expect(after.shippingAddress).toEqual(address);
      expect(await stockOf(p.id)).toBe(1);
      expect(await eventRowsOf(paid)).toHaveLength(1);
      expect(await mailsAbout(order.number)).toEqual(paidPair);
    });

    it("an expiry that arrives after the payment changes nothing", async () => {
      const p = await product({ stock: 2 });
      const { order } = await buy(p.id);
      expect(await outcomeOf(await rig.event("checkout.session.completed", sessionOf(order), mariePays))).toBe("paid");
      expect(await outcomeOf(await rig.event("checkout.session.expired", sessionOf(order), abandoned))).toBe("ignored");
      expect((await orderOf(order.number)).status).toBe("paid");
      expect(await stockOf(p.id)).toBe(1);
    });

    it("a payment after expiry takes the units again when they are still there", async () => {
      const p = await product({ stock: 1 });
      const { order } = await buy(p.id);
      await expireReservation(order);
      expect(await stockOf(p.id)).toBe(1);
      expect(await outcomeOf(await rig.event("checkout.session.completed", sessionOf(order), mariePays))).toBe("late-paid");
      expect((await orderOf(order.number)).status).toBe("paid");
      expect(await stockOf(p.id)).toBe(0);
    });

    it("a payment after expiry with the stock gone is refunded once at the provider, and nothing is oversold", async () => {
      const priceCents = 14_999;
      const { p, order } = await latePaymentWithStockGone(priceCents);
      const late = await rig.event("checkout.session.completed", sessionOf(order), { ...mariePays, paymentReference: "pi_test_late" });
      expect(await outcomeOf(late)).toBe("refund-pending");
      const refunds = await rig.refundsOf(order.id);
      expect(refunds).toEqual([{ id: expect.stringMatching(/^re_test_/), amountCents: priceCents + SHIPPING_CENTS, paymentReference: "pi_test_late" }]);
      expect(await orderOf(order.number)).toMatchObject({ status: "refunded", refundReference: refunds[0]!.id });
      expect(await stockOf(p.id)).toBe(0);
      expect(await mailsAbout(order.number)).toEqual(latePaymentPair);
    });

    it("a bad signature is refused and writes nothing: a tampered body, another secret, an old signature, none", async () => {
      const p = await product({ stock: 1 });
      const { order } = await buy(p.id);
      const good = await rig.event("checkout.session.completed", sessionOf(order), mariePays);
      const tampered = good.raw.replace(mariePays.paymentReference!, "pi_attacker");
      expect(tampered).not.toBe(good.raw);
      const eventsBefore = (await database.db.select().from(paymentEvents)).length;
      const forgeries: [string, Delivery][] = [
        ["tampered body", { raw: tampered, headers: good.headers }],
        ["another secret", { raw: good.raw, headers: rig.sign(good.raw, { secret: "whsec_someone_else" }) }],
        // Past the 5 minutes' tolerance: a delivery recorded and replayed later.
        ["10 minutes old", { raw: good.raw, headers: rig.sign(good.raw, { timestamp: Math.floor(Date.now() / 1000) - 600 }) }],
        ["no signature", { raw: good.raw, headers: new Headers() }],
      ];
      for (const [forgery, delivery] of forgeries) {
        expect({ forgery, answer: await receive(delivery) }).toEqual({ forgery, answer: { status: 400, body: { received: false, error: "Signature invalide." } } });
      }
      expect((await database.db.select().from(paymentEvents)).length).toBe(eventsBefore);
      expect((await orderOf(order.number)).status).toBe("pending_payment");
      // Refused for their flaw: the untouched delivery goes through.
      expect(await outcomeOf(good)).toBe("paid");
    });

    it("a failed asynchronous payment cancels the order and returns the units", async () => {
      const p = await product({ stock: 2 });
      const { order } = await buy(p.id);
      // A bank debit: Checkout completes, the money comes (or not) days later.
      const debit: BuyerPayment = { ...mariePays, paid: false, paymentReference: "pi_async" };
      expect(await outcomeOf(await rig.event("checkout.session.completed", sessionOf(order), debit))).toBe("payment-pending");
      const held = await orderOf(order.number);
      expect(held.reservedUntil!.getTime()).toBeGreaterThan(Date.now() + 24 * 3_600_000);
      expect(await stockOf(p.id)).toBe(1);
      expect(await outcomeOf(await rig.event("checkout.session.async_payment_failed", sessionOf(order), debit))).toBe("released");
      expect((await orderOf(order.number)).status).toBe("cancelled");
      expect(await stockOf(p.id)).toBe(2);
    });

    it("a delivery whose processing fails midway is answered with an error, and the provider's retry of that event is processed once", async () => {
      const p = await product({ stock: 2 });
      const { order } = await buy(p.id);
      const paid = await rig.event("checkout.session.completed", sessionOf(order), mariePays);
      // The paid transaction fails at its second e-mail, after the order, the invoice and the first e-mail.
      onTestFinished(await failFirstEmail(database.db, "seller-new-order", order.number));
      // What throws here, the route answers 500: the provider sends the event again later.
      await expect(receive(paid)).rejects.toSatisfy(isInjectedFailure);
      // Rolled back whole: no event id kept that would make the retry a duplicate.
      expect(await eventRowsOf(paid)).toEqual([]);
      expect((await orderOf(order.number)).status).toBe("pending_payment");
      expect(await mailsAbout(order.number)).toEqual([]);

      expect(await outcomeOf(again(paid))).toBe("paid");
      expect(await outcomeOf(again(paid))).toBe("duplicate");
      expect(await eventRowsOf(paid)).toHaveLength(1);
      expect((await orderOf(order.number)).status).toBe("paid");
      expect(await stockOf(p.id)).toBe(1);
      expect(await mailsAbout(order.number)).toEqual(paidPair);
    });

    it("a late payment whose refund went out but whose recording failed is finished by the provider's retry: refunded once", async () => {
      const priceCents = 14_999;
      const { order } = await latePaymentWithStockGone(priceCents);
      const late = await rig.event("checkout.session.completed", sessionOf(order), { ...mariePays, paymentReference: "pi_test_late_retry" });
      // The money goes back after the payment's transaction; the one that then records the refund fails at its e-mail.
      onTestFinished(await failFirstEmail(database.db, "late-payment-refund", order.number));
      await expect(receive(late)).rejects.toSatisfy(isInjectedFailure);
      expect((await orderOf(order.number)).status).toBe("refund_pending");
      expect(await rig.refundsOf(order.id)).toHaveLength(1);

      // The event id is kept (the payment's transaction committed): the retry is a duplicate, yet it finishes the refund.
      expect(await outcomeOf(again(late))).toBe("duplicate");
      const refunds = await rig.refundsOf(order.id);
      expect(refunds).toEqual([{ id: expect.stringMatching(/^re_test_/), amountCents: priceCents + SHIPPING_CENTS, paymentReference: "pi_test_late_retry" }]);
      expect(await orderOf(order.number)).toMatchObject({ status: "refunded", refundReference: refunds[0]!.id });
      expect(await eventRowsOf(late)).toHaveLength(1);
      expect(await mailsAbout(order.number)).toEqual(latePaymentPair);
    });
  });
});
