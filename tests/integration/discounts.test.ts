import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { discountCodes, orders, outboxEmails, products, rateLimits, testPaymentSessions, testRefunds } from "~/db/schema";
import { type DiscountFormValues, discountFormSchema } from "~/domain/discounts";
import { RATE_LIMITS } from "~/domain/rate-limits";
import { type CheckoutContext, cancelCheckout, startCheckout } from "~/services/checkout.server";
import {
  createDiscountCode,
  deleteDiscountCode,
  previewDiscount,
  setDiscountCodeActive,
  syncPromotionCode,
  updateDiscountCode,
} from "~/services/discounts.server";
import { getOrderView } from "~/services/orders.server";
import { receiveWebhook } from "~/services/payment-webhooks.server";
import { createStripeProvider } from "~/services/payments/stripe.server";
import { createTestProvider, type TestProvider, testWebhook } from "~/services/payments/test-provider.server";
import { releaseExpiredReservations } from "~/services/reservations.server";
import { createUserWithPassword } from "~/services/users.server";
import { type FakeStripe, startFakeStripe } from "../support/fake-stripe-server";
import { databaseLabel, openTestDatabase } from "./test-database";

const deps = { shop: { name: "Comptoir", email: "contact@comptoir.example", publicUrl: "https://comptoir.example" }, sellerEmail: "vendeur@comptoir.example" };
const address = { method: "home" as const, fullName: "Marie Curie", line1: "12 rue des Lilas", postalCode: "75011", city: "Paris", country: "FR", phone: "0612345678" };

describe(`discount codes on ${databaseLabel}`, () => {
  let database: Database;
  let provider: TestProvider;
  let ip = 0;
  let codeNumber = 0;

  const ctx = (overrides: Partial<CheckoutContext> = {}): CheckoutContext => ({
    now: new Date(),
    customer: null,
    clientIp: `198.51.100.${++ip % 250}-${ip}`,
    orderPrefix: "CPT",
    origin: "http://shop.test",
    reservationMinutes: 30,
    ...overrides,
  });

  async function product(values: Partial<typeof products.$inferInsert> = {}) {
    const [row] = await database.db
      .insert(products)
      .values({ title: "Display Écarlate et Violet", priceCents: 14_999, stock: 100, category: "TCG", subCategory: "Scellés", ...values })
      .returning();
    return row!;
  }

  /** A new code (unique name per test), from the admin form's own schema. */
  async function code(form: Record<string, string> = {}) {
    const values: DiscountFormValues = discountFormSchema.parse({ code: `CODE${++codeNumber}`, kind: "percent", value: "15", isActive: "on", ...form });
    const created = await createDiscountCode(database.db, values);
    if (created.outcome !== "saved") throw new Error(created.outcome);
    return created.code;
  }
  const codeRow = async (id: string) => (await database.db.select().from(discountCodes).where(eq(discountCodes.id, id)))[0]!;
  const orderOf = async (number: string) => (await database.db.select().from(orders).where(eq(orders.number, number)))[0]!;
  const stockOf = async (id: number) => (await database.db.select({ stock: products.stock }).from(products).where(eq(products.id, id)))[0]!.stock;

  const buy = (productId: number, discountCode?: string, overrides: Partial<CheckoutContext> = {}, extra: Record<string, unknown> = {}) =>
    startCheckout(database.db, provider, { items: [{ productId, quantity: 1 }], insuranceSelected: false, discountCode, ...extra }, ctx(overrides));

  async function bought(productId: number, discountCode?: string, overrides: Partial<CheckoutContext> = {}, extra: Record<string, unknown> = {}) {
    const result = await buy(productId, discountCode, overrides, extra);
    if (result.status !== 200) throw new Error(`checkout refused: ${JSON.stringify(result.body)}`);
    return orderOf(result.body.orderNumber);
  }

  async function pay(order: { providerSessionId: string | null }, email = "marie@example.com") {
    const event = testWebhook(provider, "checkout.session.completed", {
      sessionId: order.providerSessionId!,
      paid: true,
      paymentReference: `pi_test_${order.providerSessionId}`,
      customerEmail: email,
      customerName: "Marie Curie",
      shippingAddress: address,
      amountTotalCents: null,
    });
    return (await receiveWebhook(database.db, provider, event.raw, event.headers, deps)).body.outcome;
  }

  beforeAll(async () => {
    database = await openTestDatabase();
    provider = createTestProvider({ db: database.db, secret: "discount-secret" });
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.db.delete(rateLimits);
  });

  it("a percentage code applies on the server: the order, the payment page and the e-mails carry the discounted amounts, and the use is counted once paid", async () => {
    const p = await product({ priceCents: 14_999 });
    const percent = await code({ code: "bienvenue15", value: "15" });
    // The browser's own discount, total and prices are ignored: the schema drops them.
    const order = await bought(p.id, " bienvenue15 ", {}, { discountCents: 14_000, totalCents: 1, discount: { amount: 99_999 }, items: [{ productId: p.id, quantity: 1, priceCents: 1 }] });
    // 15 % of 149,99 € = 22,4985 € → 22,50 € (rounded up, in the customer's favour); insurance is never discounted.
    expect(order).toMatchObject({ subtotalCents: 14_999, discountCents: 2_250, totalCents: 12_749, discountCode: "BIENVENUE15", discountCodeId: percent.id });
    const [session] = await database.db.select().from(testPaymentSessions).where(eq(testPaymentSessions.id, order.providerSessionId!));
    expect(session).toMatchObject({ discountCents: 2_250, totalCents: 12_749 });
    expect(await codeRow(percent.id)).toMatchObject({ usedCount: 0, reservedCount: 1 });

    expect(await pay(order)).toBe("paid");
    expect(await pay(order)).toBe("ignored"); // a second payment event of the same session
    expect(await codeRow(percent.id)).toMatchObject({ usedCount: 1, reservedCount: 0 });
    const view = await getOrderView(database.db, order.id);
    expect(view).toMatchObject({ discountCode: "BIENVENUE15", discountCents: 2_250, totalCents: 12_749 });
    const [mail] = await database.db.select().from(outboxEmails).where(sql`${outboxEmails.kind} = 'order-confirmation' and ${outboxEmails.subject} like ${`%${order.number}%`}`);
    expect(mail!.text).toContain("Réduction (BIENVENUE15)");
    expect(mail!.text).toMatch(/−22,50\s€/);
  });

  it("a fixed amount applies after insurance is added, never more than the products", async () => {
    const cheap = await product({ priceCents: 1_250 });
    const fixed = await code({ kind: "amount", value: "20" });
    const result = await startCheckout(database.db, provider, { items: [{ productId: cheap.id, quantity: 2 }], insuranceSelected: true, discountCode: fixed.code }, ctx());
    expect(result.status).toBe(200);
    if (result.status !== 200) return;
    const order = await orderOf(result.body.orderNumber);
    // 25,00 € of products: the 20 € code takes 20 €; the insurance (its own line) is paid in full.
    expect(order).toMatchObject({ subtotalCents: 2_500, discountCents: 2_000, totalCents: 2_500 + order.insuranceCents - 2_000 + order.shippingCents });
    expect(order.insuranceCents).toBeGreaterThan(0);
    const big = await code({ kind: "amount", value: "50" });
    const capped = await bought(cheap.id, big.code);
    // The code takes the goods, never the delivery.
    expect(capped).toMatchObject({ subtotalCents: 1_250, discountCents: 1_250, totalCents: capped.shippingCents });
  });

  it("refuses unknown, expired, inactive and under-minimum codes in French with 400, and takes nothing", async () => {
    const p = await product({ priceCents: 2_000, stock: 5 });
    const expired = await code({ expiresDate: "2020-01-31", expiresTime: "12:00" });
    const inactive = await code({ isActive: "" });
    const minimum = await code({ minSubtotal: "50" });
    const cases: [string, string][] = [
      ["NEXISTEPAS", "Ce code promo n'existe pas."],
      [expired.code, "Ce code promo a expiré le 31 janvier 2020."],
      [inactive.code, "Ce code promo n'est plus actif."],
      [minimum.code, "Ce code promo s'applique à partir de 50,00\u00a0€ d'achats (hors remise contre signature)\u00a0: il manque 30,00\u00a0€."],
    ];
    for (const [typed, message] of cases) {
      const result = await buy(p.id, typed);
      expect({ typed, status: result.status, body: result.body }).toEqual({
        typed,
        status: 400,
        body: { error: "Code promo invalide", details: message, code: "DISCOUNT", fieldErrors: { discountCode: message } },
      });
    }
    expect(await stockOf(p.id)).toBe(5);
    expect(await database.db.select().from(orders).where(sql`${orders.id} in (select order_id from order_items where product_id = ${p.id})`)).toEqual([]);
    for (const row of [expired, inactive, minimum]) expect(await codeRow(row.id)).toMatchObject({ usedCount: 0, reservedCount: 0 });
  });

  it("limits a code per customer: by account, by e-mail for guests, held while unpaid, given back when the order expires", async () => {
    const p = await product();
    const once = await code({ maxUsesPerCustomer: "1" });
    const user = await createUserWithPassword(database.db, { email: "Fidele@Example.com", password: "fidele-mot-de-passe", name: "Cliente Fidèle", role: "user", emailVerified: true });
    const customer = { id: user.id, email: "fidele@example.com" };

    // A guest without an e-mail cannot be counted: asked to sign in.
    const anonymous = await buy(p.id, once.code);
    expect(anonymous).toMatchObject({ status: 400, body: { details: "Ce code promo est limité par client\u00a0: connectez-vous pour l'utiliser." } });

    const first = await bought(p.id, once.code, { customer });
    // Held by the unpaid order already: a second checkout of the same customer is refused.
    expect(await buy(p.id, once.code, { customer })).toMatchObject({ status: 400, body: { details: "Vous avez déjà utilisé ce code promo." } });
    // Expired unpaid: the use comes back, for the limit and for the customer.
    await releaseExpiredReservations(database.db, new Date(first.reservedUntil!.getTime() + 1), { postgres: database.kind === "postgres" });
    expect(await codeRow(once.id)).toMatchObject({ usedCount: 0, reservedCount: 0 });
    const second = await bought(p.id, once.code, { customer });
    expect(await pay(second, "fidele@example.com")).toBe("paid");
    expect(await buy(p.id, once.code, { customer })).toMatchObject({ status: 400, body: { details: "Vous avez déjà utilisé ce code promo." } });
    // The same person as a guest with the same address (other letters): refused too.
    expect(await buy(p.id, once.code, {}, { email: "FIDELE@example.com" })).toMatchObject({ status: 400, body: { code: "DISCOUNT" } });
    // Someone else is welcome.
    await bought(p.id, once.code, {}, { email: "autre@example.com" });
    expect(await codeRow(once.id)).toMatchObject({ usedCount: 1, reservedCount: 1 });
  });

  it("a guest typing a customer's address does not use up that customer's code: only a paid guest order under it counts", async () => {
    const p = await product();
    const once = await code({ maxUsesPerCustomer: "1" });
    const user = await createUserWithPassword(database.db, { email: "victime@example.com", password: "victime-mot-de-passe", name: "Cliente Visée", role: "user", emailVerified: true });
    const customer = { id: user.id, email: "victime@example.com" };
    // Someone else, as a guest, with her address: the order is reserved, unpaid.
    const squatted = await bought(p.id, once.code, {}, { email: "VICTIME@example.com" });
    expect(squatted.status).toBe("pending_payment");
    // Signed in, she still gets her use; as a guest with her address, the order above counts.
    expect(await buy(p.id, once.code, {}, { email: "victime@example.com" })).toMatchObject({ status: 400, body: { details: "Vous avez déjà utilisé ce code promo." } });
    const hers = await bought(p.id, once.code, { customer });
    expect(hers.discountCodeId).toBe(once.id);
    // A guest order paid under her address counts for her account too (signing out does not get round the limit).
    const other = await code({ maxUsesPerCustomer: "1" });
    const paidAsGuest = await bought(p.id, other.code, {}, { email: "victime@example.com" });
    expect(await pay(paidAsGuest, "victime@example.com")).toBe("paid");
    expect(await buy(p.id, other.code, { customer })).toMatchObject({ status: 400, body: { details: "Vous avez déjà utilisé ce code promo." } });
  });

  it("10 concurrent checkouts of one customer with a once-per-customer code: one gets it (counted under the code's lock)", async () => {
    const p = await product();
    const once = await code({ maxUsesPerCustomer: "1" });
    const results = await Promise.all(Array.from({ length: 10 }, () => buy(p.id, once.code, {}, { email: "presse@example.com" })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 400 && r.body.code === "DISCOUNT")).toHaveLength(9);
    expect(await codeRow(once.id)).toMatchObject({ usedCount: 0, reservedCount: 1 });
  });

  it("50 concurrent checkouts and payments with a code limited to 10 uses give exactly 10 discounted paid orders", async () => {
    const p = await product({ priceCents: 10_000, stock: 100 });
    const limited = await code({ value: "10", maxUses: "10" });
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const result = await buy(p.id, limited.code, {}, { email: `client${i}@example.com` });
        if (result.status !== 200) return result;
        const order = await orderOf(result.body.orderNumber);
        return { status: 200, outcome: await pay(order, `client${i}@example.com`) };
      }),
    );
    expect(outcomes.filter((o) => o.status === 200 && "outcome" in o && o.outcome === "paid")).toHaveLength(10);
    const refused = outcomes.filter((o) => o.status !== 200);
    expect(refused).toHaveLength(40);
    for (const r of refused) expect(r).toMatchObject({ status: 409, body: { code: "DISCOUNT", details: "Ce code promo a atteint son nombre maximal d'utilisations." } });
    const paid = await database.db.select().from(orders).where(eq(orders.discountCodeId, limited.id));
    expect(paid.filter((o) => o.status === "paid" && o.discountCents === 1_000 && o.totalCents === 9_000 + o.shippingCents)).toHaveLength(10);
    expect(await codeRow(limited.id)).toMatchObject({ usedCount: 10, reservedCount: 0 });
    expect(await stockOf(p.id)).toBe(90);
  });

  it("an unpaid order gives its use back exactly once: expiry, the buyer's cancel, the provider's expiry event", async () => {
    const p = await product();
    const limited = await code({ maxUses: "3" });
    const [a, b, c] = [await bought(p.id, limited.code), await bought(p.id, limited.code), await bought(p.id, limited.code)];
    expect(await codeRow(limited.id)).toMatchObject({ usedCount: 0, reservedCount: 3 });
    expect(await buy(p.id, limited.code)).toMatchObject({ status: 409 });

    const postgres = database.kind === "postgres";
    // Each order is ended twice: only the first counts. (Only `a` is due.)
    await database.db.update(orders).set({ reservedUntil: new Date(Date.now() - 1_000) }).where(eq(orders.id, a.id));
    const later = new Date();
    await releaseExpiredReservations(database.db, later, { postgres });
    await releaseExpiredReservations(database.db, later, { postgres });
    expect(await codeRow(limited.id)).toMatchObject({ reservedCount: 2 });
    expect(await cancelCheckout(database.db, provider, b.id)).toBe(true);
    expect(await cancelCheckout(database.db, provider, b.id)).toBe(false);
    expect(await codeRow(limited.id)).toMatchObject({ reservedCount: 1 });
    const expiry = testWebhook(provider, "checkout.session.expired", {
      sessionId: c.providerSessionId!,
      paid: false,
      paymentReference: null,
      customerEmail: null,
      customerName: null,
      shippingAddress: null,
      amountTotalCents: null,
    });
    expect((await receiveWebhook(database.db, provider, expiry.raw, expiry.headers, deps)).body.outcome).toBe("released");
    const again = testWebhook(provider, "checkout.session.expired", { ...JSON.parse(expiry.raw).data });
    expect((await receiveWebhook(database.db, provider, again.raw, again.headers, deps)).body.outcome).toBe("ignored");
    expect(await codeRow(limited.id)).toMatchObject({ usedCount: 0, reservedCount: 0 });
    expect((await buy(p.id, limited.code)).status).toBe(200);
  });

  it("a payment after the order ended takes the use again while the code has one; once its limit is reached, the money goes back", async () => {
    const p = await product();
    const one = await code({ maxUses: "1" });
    const postgres = database.kind === "postgres";
    const late = await bought(p.id, one.code);
    await releaseExpiredReservations(database.db, new Date(late.reservedUntil!.getTime() + 1), { postgres });
    expect(await codeRow(one.id)).toMatchObject({ usedCount: 0, reservedCount: 0 });
    expect(await pay(late)).toBe("late-paid");
    expect(await codeRow(one.id)).toMatchObject({ usedCount: 1, reservedCount: 0 });

    const two = await code({ maxUses: "1" });
    const ended = await bought(p.id, two.code);
    await releaseExpiredReservations(database.db, new Date(ended.reservedUntil!.getTime() + 1), { postgres });
    // Meanwhile another customer takes and pays the code's only use.
    const other = await bought(p.id, two.code, {}, { email: "rapide@example.com" });
    expect(await pay(other, "rapide@example.com")).toBe("paid");
    const stockBefore = await stockOf(p.id);
    expect(await pay(ended)).toBe("refund-pending");
    // Nothing taken: the limit holds, the units stay on sale, the discounted total goes back.
    expect(await codeRow(two.id)).toMatchObject({ usedCount: 1, reservedCount: 0 });
    expect(await stockOf(p.id)).toBe(stockBefore);
    expect((await orderOf(ended.number)).status).toBe("refunded");
    const refunds = await database.db.select().from(testRefunds).where(eq(testRefunds.paymentReference, `pi_test_${ended.providerSessionId}`));
    expect(refunds.map((r) => r.amountCents)).toEqual([ended.totalCents]);
  });

  it("the Stripe adapter receives the discounted amount (coupon and session total)", async () => {
    const fake: FakeStripe = await startFakeStripe();
    try {
      const stripe = createStripeProvider({ secretKey: "sk_test_comptoir", webhookSecret: "whsec_test", apiBase: fake.url });
      const p = await product({ priceCents: 8_000 });
      const fixed = await code({ kind: "amount", value: "12,50" });
      const result = await startCheckout(database.db, stripe, { items: [{ productId: p.id, quantity: 1 }], insuranceSelected: false, discountCode: fixed.code }, ctx({ reservationMinutes: 45 }));
      expect(result.status).toBe(200);
      const coupon = fake.requests.find((r) => r.path === "/v1/coupons")!;
      expect(coupon.body).toMatchObject({ amount_off: "1250", currency: "eur", name: `Code ${fixed.code}` });
      const session = fake.requests.find((r) => r.path === "/v1/checkout/sessions")!;
      if (result.status !== 200) return;
      const order = await orderOf(result.body.orderNumber);
      // Goods less the code, then the delivery as Stripe's shipping option: what the order holds.
      expect(order.shippingCents).toBeGreaterThan(0);
      expect(session.body.shipping_options).toEqual([expect.objectContaining({ shipping_rate_data: expect.objectContaining({ fixed_amount: { amount: String(order.shippingCents), currency: "eur" } }) })]);
      expect(session.response.amount_total).toBe(6_750 + order.shippingCents);
      expect(order.totalCents).toBe(6_750 + order.shippingCents);
      expect(session.body.discounts).toEqual([{ coupon: coupon.response.id }]);
    } finally {
      await fake.close();
    }
  });

  it("previews a code for the cart with the server's prices, and refuses with the same French texts", async () => {
    const p = await product({ priceCents: 3_000 });
    const offline = await product({ priceCents: 99_000, status: "hors_ligne" });
    const percent = await code({ value: "20", minSubtotal: "50" });
    const preview = (codeText: string, quantity: number, clientIp = "203.0.113.9") =>
      previewDiscount(
        database.db,
        { code: codeText, items: [{ productId: p.id, quantity }, { productId: offline.id, quantity: 1 }], insuranceSelected: false },
        { now: new Date(), customer: null, clientIp },
      );
    // The offline product counts for nothing; what the browser thinks of prices is never asked.
    expect(await preview(percent.code.toLowerCase(), 2)).toEqual({
      status: 200,
      body: { ok: true, code: percent.code, subtotalCents: 6_000, insuranceCents: 0, discountCents: 1_200, totalCents: 4_800 },
    });
    expect(await preview(percent.code, 1)).toMatchObject({ status: 400, body: { ok: false, error: expect.stringMatching(/il manque 20,00/) } });
    expect(await codeRow(percent.id)).toMatchObject({ reservedCount: 0 });
    // Guessing codes from one network, each guess from another address of its IPv6 /64: stopped
    // after the limit, with the French 429 text.
    const guesser = (n: number) => `2001:db8:66:1::${n.toString(16)}`;
    for (let i = 0; i < RATE_LIMITS.discountGuessPerIp.limit; i++) expect((await preview(`FAUX${i}`, 1, guesser(i + 1))).body).toMatchObject({ error: "Ce code promo n'existe pas." });
    expect(await preview(percent.code, 2, guesser(100))).toMatchObject({ status: 429, body: { ok: false, error: expect.stringMatching(/^Trop de tentatives/) } });
    expect(await buy(p.id, percent.code, { clientIp: guesser(101) })).toMatchObject({ status: 429, body: { code: "RATE_LIMITED" } });
    // Another /64 is another client.
    expect(await preview(percent.code, 2, "2001:db8:66:2::1")).toMatchObject({ status: 200 });
  });

  it("manages codes for the back office: duplicates, limits under the counted uses, delete only if never used, the promotion's code", async () => {
    const p = await product();
    const values = (form: Record<string, string>) => discountFormSchema.parse({ kind: "percent", value: "10", isActive: "on", ...form });
    const saved = await createDiscountCode(database.db, values({ code: "noel25" }));
    expect(saved).toMatchObject({ outcome: "saved", code: { code: "NOEL25" } });
    expect(await createDiscountCode(database.db, values({ code: "Noel25" }))).toEqual({ outcome: "duplicate" });
    if (saved.outcome !== "saved") return;
    const other = await code();
    expect(await updateDiscountCode(database.db, other.id, values({ code: "NOEL25" }))).toEqual({ outcome: "duplicate" });

    await pay(await bought(p.id, "NOEL25"));
    await bought(p.id, "NOEL25");
    expect(await updateDiscountCode(database.db, saved.code.id, values({ code: "NOEL25", maxUses: "1" }))).toEqual({ outcome: "below-uses", uses: 2 });
    expect(await updateDiscountCode(database.db, saved.code.id, values({ code: "NOEL25", maxUses: "2", value: "30" }))).toMatchObject({ outcome: "saved", code: { maxUses: 2, percentOff: 30 } });
    expect(await deleteDiscountCode(database.db, saved.code.id)).toMatchObject({ outcome: "used" });
    expect(await setDiscountCodeActive(database.db, saved.code.id, false)).toMatchObject({ outcome: "done", code: { isActive: false } });
    expect(await deleteDiscountCode(database.db, other.id)).toMatchObject({ outcome: "done" });
    expect(await deleteDiscountCode(database.db, other.id)).toEqual({ outcome: "missing" });

    await database.db.transaction((tx) => syncPromotionCode(tx as never, { code: "ete15", percentOff: 15, expiresAt: null, isActive: true }));
    const [promo] = await database.db.select().from(discountCodes).where(eq(discountCodes.code, "ETE15"));
    // The promotion's code takes only its minimum and limits here; its form decides the rest.
    expect(await updateDiscountCode(database.db, promo!.id, values({ code: "AUTRE", value: "90", minSubtotal: "20", maxUses: "100" }))).toMatchObject({
      outcome: "saved",
      code: { code: "ETE15", percentOff: 15, minSubtotalCents: 2_000, maxUses: 100 },
    });
    expect(await setDiscountCodeActive(database.db, promo!.id, false)).toEqual({ outcome: "promotion" });
    expect(await deleteDiscountCode(database.db, promo!.id)).toEqual({ outcome: "promotion" });
  });

  it("syncPromotionCode upserts the promotion's code and retires the former one", async () => {
    const db = database.db;
    await db.transaction((tx) => syncPromotionCode(tx as never, { code: "promo15", percentOff: 15, expiresAt: null, isActive: true }));
    await db.transaction((tx) => syncPromotionCode(tx as never, { code: "PROMO15", percentOff: 20, expiresAt: null, isActive: true }));
    const rows = async () => db.select().from(discountCodes).where(sql`${discountCodes.code} in ('PROMO15', 'ETE10')`);
    expect(await rows()).toEqual([expect.objectContaining({ code: "PROMO15", percentOff: 20, isPromotion: true, isActive: true })]);
    await db.transaction((tx) => syncPromotionCode(tx as never, { code: "ETE10", percentOff: 10, expiresAt: new Date("2030-01-01"), isActive: false }));
    const after = await rows();
    expect(after.find((r) => r.code === "PROMO15")).toMatchObject({ isActive: false, isPromotion: false });
    expect(after.find((r) => r.code === "ETE10")).toMatchObject({ isActive: false, isPromotion: true, percentOff: 10 });
    expect(await db.select({ code: discountCodes.code }).from(discountCodes).where(eq(discountCodes.isPromotion, true))).toEqual([{ code: "ETE10" }]);
  });
});
