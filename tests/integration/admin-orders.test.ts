import { formatEuros } from "~/domain/money";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { orderEvents, orders, outboxEmails, products, rateLimits, testRefunds, withdrawalRequests } from "~/db/schema";
import { type OrderAction, REFUND_PROVIDER_FAILED, otherProviderMessage, refusalMessage } from "~/domain/order-workflow";
import { createAuth } from "~/lib/auth.server";
import type { AppContext } from "~/lib/context";
import { action as orderPageAction } from "~/routes/admin/order";
import { cancelAndRefundOrder, countOrdersToShip, getAdminOrder, listAdminOrders, retryOrderRefund, shipOrder } from "~/services/admin-orders.server";
import { type CheckoutContext, startCheckout } from "~/services/checkout.server";
import { handlePaymentEvent } from "~/services/payment-webhooks.server";
import { createStripeProvider } from "~/services/payments/stripe.server";
import { createTestProvider, type TestProvider } from "~/services/payments/test-provider.server";
import type { PaymentEvent, PaymentProvider } from "~/services/payments/types";
import { retryPendingRefunds } from "~/services/refunds.server";
import { releaseExpiredReservations } from "~/services/reservations.server";
import { createUserWithPassword } from "~/services/users.server";
import { type FakeStripe, startFakeStripe } from "../support/fake-stripe-server";
import { databaseLabel, openTestDatabase } from "./test-database";
import { signInAdminWithCode } from "./admin-second-factor";

/**
 * The seller's orders on a real database: orders made by real checkouts and paid through the
 * provider's webhook path, then shipped, cancelled and refunded through the admin services and
 * the order page's action, with the test provider and with the Stripe adapter against the fake
 * Stripe server.
 */
const deps = { shop: { name: "Comptoir", email: "contact@comptoir.example", publicUrl: "https://comptoir.example" }, sellerEmail: "vendeur@comptoir.example" };
const address = { method: "home" as const, fullName: "Marie Curie", line1: "12 rue des Lilas", postalCode: "75011", city: "Paris", country: "FR" };

describe(`admin orders on ${databaseLabel}`, () => {
  let database: Database;
  let provider: TestProvider;
  let adminId: string;
  let ip = 0;
  let events = 0;

  const db = () => database.db;
  const ctx = (overrides: Partial<CheckoutContext> = {}): CheckoutContext => ({
    now: new Date(),
    customer: null,
    clientIp: `203.0.113.${++ip % 250}-${ip}`,
    orderPrefix: "CPT",
    origin: "http://shop.test",
    reservationMinutes: 30,
    ...overrides,
  });

  async function product(stock = 5, priceCents = 2_500) {
    const [row] = await db().insert(products).values({ title: `Display test ${++events}`, priceCents, stock, category: "TCG", subCategory: "Scellés" }).returning();
    return row!;
  }
  const stockOf = async (id: number) => (await db().select({ stock: products.stock }).from(products).where(eq(products.id, id)))[0]!.stock;
  const orderOf = async (number: string) => (await db().select().from(orders).where(eq(orders.number, number)))[0]!;
  const mailsOf = (number: string, kind: string) =>
    db()
      .select()
      .from(outboxEmails)
      .where(and(eq(outboxEmails.kind, kind), sql`${outboxEmails.subject} like ${`%${number}%`}`));
  const eventsOf = async (orderId: string) => db().select().from(orderEvents).where(eq(orderEvents.orderId, orderId)).orderBy(orderEvents.createdAt, orderEvents.seq);

  /** A real checkout, paid through the provider's webhook path. */
  async function paidOrder(
    options: { productId?: number; quantity?: number; email?: string; name?: string; via?: PaymentProvider; checkout?: Partial<CheckoutContext>; reference?: string } = {},
  ) {
    const via = options.via ?? provider;
    const productId = options.productId ?? (await product()).id;
    const email = options.email ?? "marie@example.com";
    const started = await startCheckout(db(), via, { items: [{ productId, quantity: options.quantity ?? 1 }], insuranceSelected: false, email }, ctx(options.checkout));
    if (started.status !== 200) throw new Error(`checkout refused: ${JSON.stringify(started.body)}`);
    const order = await orderOf(started.body.orderNumber);
    const paid: PaymentEvent = {
      id: `evt_${order.id}`,
      type: "session.completed",
      sessionId: order.providerSessionId,
      paid: true,
      paymentReference: options.reference ?? `pi_test_${order.id.slice(0, 8)}`,
      customerEmail: email,
      customerName: options.name ?? "Marie Curie",
      shippingAddress: { ...address, fullName: options.name ?? "Marie Curie" },
      amountTotalCents: order.totalCents,
    };
    expect(await handlePaymentEvent(db(), via, paid, deps)).toBe("paid");
    return { ...(await orderOf(order.number)), productId };
  }

  /** The test provider, counting its refunds. */
  function counting(base: PaymentProvider) {
    const calls: string[] = [];
    const counted: PaymentProvider = {
      ...base,
      refund: (input) => {
        calls.push(input.idempotencyKey);
        return base.refund(input);
      },
    };
    return { provider: counted, calls };
  }

  beforeAll(async () => {
    database = await openTestDatabase();
    provider = createTestProvider({ db: database.db, secret: "admin-orders-secret" });
    ({ id: adminId } = await createUserWithPassword(database.db, { email: "chef@comptoir.test", password: "chef-mot-de-passe-2026", name: "Chef Comptoir", role: "admin", emailVerified: true }));
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await db().delete(rateLimits);
  });

  it("lists events of the same instant in the order they happened, even after one was rewritten", async () => {
    const order = await paidOrder();
    await db().update(orderEvents).set({ createdAt: new Date("2026-11-26T10:00:00.000Z") }).where(eq(orderEvents.orderId, order.id));
    // An update writes a new version of the row after the other one in the table.
    await db()
      .update(orderEvents)
      .set({ details: { note: "réécrit" } })
      .where(and(eq(orderEvents.orderId, order.id), eq(orderEvents.type, "created")));
    const detail = (await getAdminOrder(db(), order.number))!;
    expect(detail.timeline.map((entry) => entry.title)).toEqual(["Commande créée", "Paiement reçu"]);
  });

  it("records the order's creation and payment in its timeline, with the e-mails they queued", async () => {
    const order = await paidOrder();
    const timeline = await eventsOf(order.id);
    expect(timeline.map((e) => e.type)).toEqual(["created", "paid"]);
    const detail = (await getAdminOrder(db(), order.number))!;
    expect(detail.timeline.map((entry) => entry.title)).toEqual(["Commande créée", "Paiement reçu"]);
    expect(detail.timeline[1]!.emails.map((email) => email.to).sort()).toEqual(["marie@example.com", "vendeur@comptoir.example"]);
    expect(detail.payment).toMatchObject({ provider: "test", reference: order.paymentReference, refundReference: null });
    expect(detail.order.shippingAddress).toEqual(address);
    expect(await getAdminOrder(db(), "CPT-000000-0000")).toBeNull();
  });

  it("ships a paid order once: carrier, tracking link, who did it, and the customer's e-mail with the number and the link", async () => {
    const order = await paidOrder({ email: "expedition@example.com" });
    const shipped = await shipOrder(db(), order.number, { carrier: "colissimo", trackingNumber: "6a 1234 5678 901" }, adminId, deps);
    expect(shipped).toMatchObject({ ok: true, status: 200, title: "Commande expédiée" });

    const after = await orderOf(order.number);
    const link = "https://www.laposte.fr/outils/suivre-vos-envois?code=6A12345678901";
    expect(after).toMatchObject({ status: "shipped", carrier: "colissimo", trackingNumber: "6A12345678901", trackingUrl: link });
    expect(after.shippedAt).toBeInstanceOf(Date);
    const [mail, ...more] = await mailsOf(order.number, "order-shipped");
    expect(more).toEqual([]);
    expect(mail).toMatchObject({ to: "expedition@example.com", subject: `Votre commande ${order.number} a été expédiée – Comptoir` });
    expect(mail!.text).toContain("Numéro de suivi : 6A12345678901");
    expect(mail!.text).toContain(`Suivre mon colis : ${link}`);
    expect(mail!.html).toContain(`href="${link}"`);
    const shippedEvent = (await eventsOf(order.id)).find((e) => e.type === "shipped")!;
    expect(shippedEvent).toMatchObject({ actorId: adminId, details: { carrier: "colissimo", trackingNumber: "6A12345678901", trackingUrl: link, emailIds: [mail!.id] } });
    const detail = (await getAdminOrder(db(), order.number))!;
    expect(detail.timeline.at(-1)).toMatchObject({ title: "Commande expédiée", actorName: "Chef Comptoir", detail: "Colissimo · n° 6A12345678901" });
    expect(detail.shipment).toMatchObject({ carrierLabel: "Colissimo", trackingNumber: "6A12345678901", trackingUrl: link });

    // A second shipment is refused and sends nothing.
    const again = await shipOrder(db(), order.number, { carrier: "ups", trackingNumber: "1Z999" }, adminId, deps);
    expect(again).toEqual({ ok: false, status: 409, title: "Action impossible", message: refusalMessage("ship", "shipped") });
    expect(await mailsOf(order.number, "order-shipped")).toHaveLength(1);
    expect((await orderOf(order.number)).carrier).toBe("colissimo");
    expect((await eventsOf(order.id)).filter((e) => e.type === "shipped")).toHaveLength(1);
  });

  it("two simultaneous shipments of one order ship it once", async () => {
    const order = await paidOrder();
    const answers = await Promise.all(
      ["AAAA1", "BBBB2", "CCCC3"].map((trackingNumber) => shipOrder(db(), order.number, { carrier: "dhl", trackingNumber }, adminId, deps)),
    );
    expect(answers.filter((a) => a.ok)).toHaveLength(1);
    expect(answers.filter((a) => !a.ok).map((a) => a.status)).toEqual([409, 409]);
    expect(await mailsOf(order.number, "order-shipped")).toHaveLength(1);
  });

  it("refuses bad shipping input with French field errors, an unpaid or unknown order, and writes nothing", async () => {
    const order = await paidOrder();
    const bad = await shipOrder(db(), order.number, { carrier: "pigeon", trackingNumber: "<b>1" }, adminId, deps);
    expect(bad).toMatchObject({
      ok: false,
      status: 400,
      fieldErrors: { carrier: "Choisissez un transporteur.", trackingNumber: "Le numéro de suivi ne peut contenir que des lettres, des chiffres et des tirets." },
    });
    const link = await shipOrder(db(), order.number, { carrier: "autre", trackingNumber: "XYZ-1", trackingUrl: "javascript:alert(1)" }, adminId, deps);
    expect(link).toMatchObject({ status: 400, fieldErrors: { trackingUrl: "Le lien de suivi doit être une adresse commençant par https://." } });
    expect((await orderOf(order.number)).status).toBe("paid");
    expect(await mailsOf(order.number, "order-shipped")).toEqual([]);

    const pending = await startCheckout(db(), provider, { items: [{ productId: (await product()).id, quantity: 1 }], insuranceSelected: false }, ctx());
    if (pending.status !== 200) throw new Error("checkout refused");
    expect(await shipOrder(db(), pending.body.orderNumber, { carrier: "dhl", trackingNumber: "12345678" }, adminId, deps)).toMatchObject({
      status: 409,
      message: refusalMessage("ship", "pending_payment"),
    });
    expect(await shipOrder(db(), "CPT-999999-9999", { carrier: "dhl", trackingNumber: "12345678" }, adminId, deps)).toMatchObject({ status: 404, message: "Cette commande n'existe pas." });
  });

  it("refunds an order the customer withdrew from with the withdrawal's e-mail, not the seller's cancellation", async () => {
    const item = await product(5, 1_999);
    const order = await paidOrder({ productId: item.id, quantity: 1, email: "retractation@example.com" });
    await db().insert(withdrawalRequests).values({ orderId: order.id, email: "retractation@example.com", source: "guest" });
    expect(await cancelAndRefundOrder(db(), provider, order.number, adminId, deps)).toMatchObject({ ok: true, title: "Commande remboursée" });
    expect(await orderOf(order.number)).toMatchObject({ status: "refunded", refundReason: "withdrawal" });
    expect(await stockOf(item.id)).toBe(5);
    expect(await mailsOf(order.number, "order-cancelled-refund")).toEqual([]);
    const [mail, ...more] = await mailsOf(order.number, "withdrawal-refund");
    expect(more).toEqual([]);
    expect(mail).toMatchObject({ to: "retractation@example.com", subject: `Commande ${order.number} remboursée suite à votre rétractation – Comptoir` });
    expect(mail!.text).toContain("Suite à votre rétractation, nous avons annulé votre commande");
    expect(mail!.text).not.toContain("nous ne pouvons pas honorer");
    const page = (await getAdminOrder(db(), order.number))!;
    expect(page.payment.refundReason).toBe("withdrawal");
    expect(page.timeline.map((entry) => entry.title)).toContain("Commande annulée après la rétractation du client");
    expect(page.timeline.map((entry) => entry.title)).not.toContain("Commande annulée par le vendeur");
  });

  it("cancels and refunds a paid order: units back, one refund at the provider, refunded, the cancellation e-mail; a second refund is refused", async () => {
    const item = await product(5, 1_999);
    const order = await paidOrder({ productId: item.id, quantity: 2, email: "annulation@example.com" });
    expect(await stockOf(item.id)).toBe(3);
    const { provider: counted, calls } = counting(provider);

    const answer = await cancelAndRefundOrder(db(), counted, order.number, adminId, deps);
    expect(answer).toMatchObject({ ok: true, status: 200, title: "Commande remboursée" });
    expect(await stockOf(item.id)).toBe(5);
    const after = await orderOf(order.number);
    // The goods (2 × 19,99 €) and the delivery the server priced: the whole payment goes back.
    expect(after.shippingCents).toBeGreaterThan(0);
    expect(after).toMatchObject({ status: "refunded", refundReason: "seller_cancel", totalCents: 3_998 + after.shippingCents });
    expect(after.refundReference).toMatch(/^re_test_/);
    expect(after.refundedAt).toBeInstanceOf(Date);
    expect(await db().select({ id: testRefunds.id, amount: testRefunds.amountCents, ref: testRefunds.paymentReference }).from(testRefunds).where(eq(testRefunds.idempotencyKey, `refund:${order.id}`))).toEqual([
      { id: after.refundReference, amount: after.totalCents, ref: order.paymentReference },
    ]);
    const [mail, ...more] = await mailsOf(order.number, "order-cancelled-refund");
    expect(more).toEqual([]);
    expect(mail).toMatchObject({ to: "annulation@example.com", subject: `Commande ${order.number} annulée et remboursée – Comptoir` });
    expect(mail!.text).toContain(`Nous vous avons remboursé l'intégralité de votre paiement, soit ${formatEuros(after.totalCents)}`);
    expect(await mailsOf(order.number, "late-payment-refund")).toEqual([]);
    expect(await mailsOf(order.number, "seller-late-payment")).toEqual([]);
    const timeline = await eventsOf(order.id);
    expect(timeline.map((e) => [e.type, e.actorId])).toEqual([
      ["created", null],
      ["paid", null],
      ["cancelled", adminId],
      ["refunded", adminId],
    ]);
    expect(timeline[3]!.details).toMatchObject({ refundId: after.refundReference, amountCents: after.totalCents, reason: "seller_cancel", emailIds: [mail!.id] });

    // Once only: refused, the provider not asked again, the stock not counted twice.
    const again = await cancelAndRefundOrder(db(), counted, order.number, adminId, deps);
    expect(again).toEqual({ ok: false, status: 409, title: "Action impossible", message: refusalMessage("cancelRefund", "refunded") });
    expect(await retryOrderRefund(db(), counted, order.number, adminId, deps)).toMatchObject({ status: 409 });
    expect(calls).toEqual([`refund:${order.id}`]);
    expect(await stockOf(item.id)).toBe(5);
    expect(await shipOrder(db(), order.number, { carrier: "dhl", trackingNumber: "12345678" }, adminId, deps)).toMatchObject({
      status: 409,
      message: refusalMessage("ship", "refunded"),
    });
  });

  it("two simultaneous refunds of one order refund it once", async () => {
    const item = await product(4);
    const order = await paidOrder({ productId: item.id, quantity: 1 });
    const { provider: counted, calls } = counting(provider);
    const answers = await Promise.all([1, 2, 3].map(() => cancelAndRefundOrder(db(), counted, order.number, adminId, deps)));
    expect(answers.filter((a) => a.ok)).toHaveLength(1);
    expect(answers.filter((a) => !a.ok).every((a) => a.status === 409)).toBe(true);
    expect(calls).toHaveLength(1);
    expect(await stockOf(item.id)).toBe(4);
    expect(await db().select().from(testRefunds).where(eq(testRefunds.idempotencyKey, `refund:${order.id}`))).toHaveLength(1);
    expect(await mailsOf(order.number, "order-cancelled-refund")).toHaveLength(1);
  });

  it("does not cancel a shipped order", async () => {
    const item = await product(3);
    const order = await paidOrder({ productId: item.id });
    await shipOrder(db(), order.number, { carrier: "chronopost", trackingNumber: "XY123456789FR" }, adminId, deps);
    const { provider: counted, calls } = counting(provider);
    expect(await cancelAndRefundOrder(db(), counted, order.number, adminId, deps)).toMatchObject({ status: 409, message: refusalMessage("cancelRefund", "shipped") });
    expect(calls).toEqual([]);
    expect(await stockOf(item.id)).toBe(2);
  });

  it("a provider failure leaves the order refund_pending with a French error; the sweeper's retry completes it with the cancellation e-mail", async () => {
    const item = await product(2);
    const order = await paidOrder({ productId: item.id, email: "echec@example.com" });
    const broken: PaymentProvider = { ...provider, refund: () => Promise.reject(new Error("refund API down")) };

    const failed = await cancelAndRefundOrder(db(), broken, order.number, adminId, deps);
    expect(failed).toEqual({ ok: false, status: 502, title: "Remboursement en attente", message: REFUND_PROVIDER_FAILED });
    expect(await orderOf(order.number)).toMatchObject({ status: "refund_pending", refundReason: "seller_cancel", refundReference: null });
    expect(await stockOf(item.id)).toBe(2);
    expect((await eventsOf(order.id)).find((e) => e.type === "refund_failed")).toMatchObject({ actorId: adminId, details: { error: "refund API down" } });
    expect(await mailsOf(order.number, "order-cancelled-refund")).toEqual([]);
    // The seller is not asked to cancel twice, and the retry itself can fail again quietly.
    expect(await cancelAndRefundOrder(db(), broken, order.number, adminId, deps)).toMatchObject({ status: 409, message: refusalMessage("cancelRefund", "refund_pending") });
    expect(await retryPendingRefunds(db(), broken, deps)).toBe(0);
    expect((await eventsOf(order.id)).filter((e) => e.type === "refund_failed")).toHaveLength(1);

    expect(await retryPendingRefunds(db(), provider, deps)).toBeGreaterThanOrEqual(1);
    expect(await orderOf(order.number)).toMatchObject({ status: "refunded", refundReason: "seller_cancel" });
    expect(await mailsOf(order.number, "order-cancelled-refund")).toHaveLength(1);
    expect(await mailsOf(order.number, "late-payment-refund")).toEqual([]);
    expect(await stockOf(item.id)).toBe(2);
    expect((await eventsOf(order.id)).at(-1)).toMatchObject({ type: "refunded", actorId: null });
  });

  it("the seller can retry a pending refund from the order page", async () => {
    const order = await paidOrder();
    const broken: PaymentProvider = { ...provider, refund: () => Promise.reject(new Error("timeout")) };
    await cancelAndRefundOrder(db(), broken, order.number, adminId, deps);
    expect(await retryOrderRefund(db(), provider, order.number, adminId, deps)).toMatchObject({ ok: true, title: "Commande remboursée" });
    expect((await orderOf(order.number)).status).toBe("refunded");
    expect(await mailsOf(order.number, "order-cancelled-refund")).toHaveLength(1);
  });

  it("a late payment refunded by the sweeper's retry gets the late-payment e-mail, not the cancellation", async () => {
    const item = await product(1);
    const started = await startCheckout(db(), provider, { items: [{ productId: item.id, quantity: 1 }], insuranceSelected: false }, ctx());
    if (started.status !== 200) throw new Error("checkout refused");
    const late = await orderOf(started.body.orderNumber);
    await releaseExpiredReservations(db(), new Date(late.reservedUntil!.getTime() + 1), { postgres: database.kind === "postgres" });
    await paidOrder({ productId: item.id }); // someone else takes the unit meanwhile
    const broken: PaymentProvider = { ...provider, refund: () => Promise.reject(new Error("down")) };
    const event: PaymentEvent = { id: `evt_late_${late.id}`, type: "session.completed", sessionId: late.providerSessionId, paid: true, paymentReference: "pi_late", customerEmail: "tard@example.com", customerName: "Paul Tard", shippingAddress: null, amountTotalCents: null };
    expect(await handlePaymentEvent(db(), broken, event, deps)).toBe("refund-pending");
    expect(await orderOf(late.number)).toMatchObject({ status: "refund_pending", refundReason: "late_payment" });
    expect((await eventsOf(late.id)).map((e) => e.type)).toEqual(["created", "refund_requested", "refund_failed"]);
    expect(await mailsOf(late.number, "seller-late-payment")).toHaveLength(1);

    await retryPendingRefunds(db(), provider, deps);
    expect((await orderOf(late.number)).status).toBe("refunded");
    expect((await mailsOf(late.number, "late-payment-refund")).map((m) => m.to)).toEqual(["tard@example.com"]);
    expect(await mailsOf(late.number, "order-cancelled-refund")).toEqual([]);
    expect(await mailsOf(late.number, "seller-late-payment")).toHaveLength(2);
  });

  describe("with the Stripe adapter against the fake Stripe server", () => {
    let fake: FakeStripe;
    let stripe: PaymentProvider;
    // Stripe wants a session to live at least 30 minutes.
    const viaStripe = () => ({ via: stripe, checkout: { reservationMinutes: 45 } });

    beforeAll(async () => {
      fake = await startFakeStripe();
      stripe = createStripeProvider({ secretKey: "sk_test_comptoir", webhookSecret: "whsec_test", apiBase: fake.url });
    });
    afterAll(() => fake.close());

    it("refunds once through Stripe with the order's idempotency key; the fake records the refund", async () => {
      const item = await product(3, 4_500);
      const order = await paidOrder({ ...viaStripe(), productId: item.id, reference: "pi_stripe_123" });
      expect(order.paymentProvider).toBe("stripe");
      expect(await stockOf(item.id)).toBe(2);

      expect(await cancelAndRefundOrder(db(), stripe, order.number, adminId, deps)).toMatchObject({ ok: true });
      // The goods and the delivery: the whole payment.
      const paid = 4_500 + (await orderOf(order.number)).shippingCents;
      expect(fake.refunds).toEqual([expect.objectContaining({ payment_intent: "pi_stripe_123", amount: paid, status: "succeeded" })]);
      const request = fake.requests.find((r) => r.path === "/v1/refunds")!;
      expect(request.headers["idempotency-key"]).toBe(`refund:${order.id}`);
      expect(request.body).toEqual({ payment_intent: "pi_stripe_123", amount: String(paid) });
      expect(await orderOf(order.number)).toMatchObject({ status: "refunded", refundReference: fake.refunds[0]!.id });
      expect(await stockOf(item.id)).toBe(3);
      expect(await mailsOf(order.number, "order-cancelled-refund")).toHaveLength(1);

      expect(await cancelAndRefundOrder(db(), stripe, order.number, adminId, deps)).toMatchObject({ status: 409 });
      expect(fake.requests.filter((r) => r.path === "/v1/refunds")).toHaveLength(1);
    });

    it("a Stripe outage leaves it pending; the retry reuses the key and Stripe refunds once", async () => {
      const order = await paidOrder({ ...viaStripe(), reference: "pi_stripe_down" });
      const before = fake.refunds.length;
      fake.failNext(500, 3); // the first try and the SDK's two retries
      expect(await cancelAndRefundOrder(db(), stripe, order.number, adminId, deps)).toMatchObject({ status: 502 });
      expect((await orderOf(order.number)).status).toBe("refund_pending");
      expect(fake.refunds).toHaveLength(before);

      expect(await retryOrderRefund(db(), stripe, order.number, adminId, deps)).toMatchObject({ ok: true });
      expect(fake.refunds).toHaveLength(before + 1);
      const keys = fake.requests.filter((r) => r.path === "/v1/refunds" && r.body.payment_intent === "pi_stripe_down").map((r) => r.headers["idempotency-key"]);
      expect(new Set(keys)).toEqual(new Set([`refund:${order.id}`]));
      expect((await orderOf(order.number)).status).toBe("refunded");
    });

    it("refuses to refund an order paid with the other provider", async () => {
      const order = await paidOrder();
      expect(await cancelAndRefundOrder(db(), stripe, order.number, adminId, deps)).toEqual({ ok: false, status: 409, title: "Action impossible", message: otherProviderMessage("test") });
      expect((await orderOf(order.number)).status).toBe("paid");
    });
  });

  it("lists newest first, 20 a page, searched by number, e-mail or name without case, filtered by status", async () => {
    const start = Date.now() + 60_000;
    const made: { number: string; email: string }[] = [];
    for (let i = 0; i < 25; i++) {
      const email = `liste-${i}@exemple.fr`;
      const order = await paidOrder({ email, name: `Zoé Liste ${i}`, quantity: 1 + (i % 3), checkout: { now: new Date(start + i * 1_000) } });
      made.push({ number: order.number, email });
    }
    const list = (q: string, page = 1, status: Parameters<typeof listAdminOrders>[1]["status"] = null) => listAdminOrders(db(), { q, status, page });

    const first = await list("LISTE-");
    expect(first).toMatchObject({ total: 25, page: 1, pageCount: 2 });
    expect(first.rows).toHaveLength(20);
    expect(first.rows[0]).toMatchObject({ number: made[24]!.number, customerName: "Zoé Liste 24", customerEmail: "liste-24@exemple.fr", status: "paid", itemCount: 1 });
    expect(first.rows[1]).toMatchObject({ number: made[23]!.number, itemCount: 3 });
    // Goods and delivery, as the orders hold them.
    for (const [row, goods] of [[first.rows[0]!, 2_500], [first.rows[1]!, 7_500]] as const) expect(row.totalCents).toBe(goods + (await orderOf(row.number)).shippingCents);
    expect(first.rows.map((r) => r.number)).toEqual(made.slice(5).reverse().map((m) => m.number));
    const second = await list("liste-", 2);
    expect(second.rows.map((r) => r.number)).toEqual(made.slice(0, 5).reverse().map((m) => m.number));
    expect(await list("liste-", 40)).toMatchObject({ page: 2, pageCount: 2, rows: second.rows });

    expect((await list("zoé liste 7")).rows.map((r) => r.number)).toEqual([made[7]!.number]);
    expect((await list("LISTE-12@EXEMPLE.FR")).rows.map((r) => r.number)).toEqual([made[12]!.number]);
    expect((await list(made[3]!.number.toLowerCase())).rows.map((r) => r.number)).toEqual([made[3]!.number]);
    expect((await list(made[3]!.number.slice(4, 10))).rows.map((r) => r.number)).toContain(made[3]!.number);
    // LIKE's wildcards are matched as themselves.
    expect((await list("liste-%")).total).toBe(0);
    expect((await list("liste-_@")).total).toBe(0);

    await shipOrder(db(), made[5]!.number, { carrier: "ups", trackingNumber: "1Z0001" }, adminId, deps);
    expect((await list("liste-", 1, "shipped")).rows.map((r) => r.number)).toEqual([made[5]!.number]);
    expect((await list("liste-", 1, "paid")).total).toBe(24);
    expect((await list("zorglub")).total).toBe(0);
    const toShip = await countOrdersToShip(db());
    expect(toShip).toBe((await list("", 1, "paid")).total);
    expect((await list("")).toShip).toBe(toShip);
  });

  describe("the order page's action, with the real sign-in", () => {
    let context: AppContext;
    let customerCookie = "";
    let adminCookie = "";

    async function signIn(email: string, password: string) {
      const result = await context.auth.api.signInEmail({ body: { email, password }, headers: new Headers(), returnHeaders: true });
      return result.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    }
    async function post(number: string, values: Record<string, string>, headers: Record<string, string>) {
      const request = new Request(`http://shop.test/admin/orders/${number}`, { method: "POST", body: new URLSearchParams(values), headers: { origin: "http://shop.test", ...headers } });
      try {
        const answer = (await orderPageAction({ request, context, params: { number } } as Parameters<typeof orderPageAction>[0])) as { data: unknown; init: ResponseInit | null };
        return { status: answer.init?.status ?? 200, body: answer.data };
      } catch (thrown) {
        const refused = thrown as { data: unknown; init: ResponseInit | null };
        return { status: refused.init?.status ?? 500, body: refused.data };
      }
    }

    beforeAll(async () => {
      const auth = createAuth({ db: database.db, secret: "admin-orders-auth-secret-0123456789", baseUrl: "http://shop.test", mail: { verification: async () => {}, passwordReset: async () => {}, existingAccount: async () => {} } });
      context = { db: database.db, auth, publicUrl: "http://shop.test", clientIp: "127.0.0.1", shop: deps.shop, payments: provider, checkout: { orderPrefix: "CPT", reservationMinutes: 30, sellerEmail: deps.sellerEmail }, kickMail: () => {}, logger: { warn: () => {} } } as unknown as AppContext;
      await createUserWithPassword(database.db, { email: "cliente@example.com", password: "cliente-mot-de-passe", name: "Cliente", role: "user", emailVerified: true });
      customerCookie = await signIn("cliente@example.com", "cliente-mot-de-passe");
      adminCookie = await signInAdminWithCode(context.auth, "chef@comptoir.test", "chef-mot-de-passe-2026");
    });

    it("answers a customer's POST with 403 and changes nothing", async () => {
      const item = await product(3);
      const order = await paidOrder({ productId: item.id });
      const intents: [OrderAction, Record<string, string>][] = [
        ["ship", { intent: "ship", carrier: "colissimo", trackingNumber: "6A12345678901" }],
        ["cancelRefund", { intent: "refund" }],
        ["retryRefund", { intent: "retry-refund" }],
      ];
      for (const [, values] of intents) {
        expect(await post(order.number, values, { cookie: customerCookie })).toEqual({ status: 403, body: { error: "Accès refusé." } });
        expect((await post(order.number, values, {})).status).toBe(401);
      }
      // The admin's own session from another site: refused too.
      expect((await post(order.number, { intent: "refund" }, { cookie: adminCookie, origin: "https://evil.example" })).status).toBe(403);
      expect(await orderOf(order.number)).toMatchObject({ status: "paid", carrier: null, refundReference: null });
      expect(await stockOf(item.id)).toBe(2);
      expect(await db().select().from(testRefunds).where(eq(testRefunds.idempotencyKey, `refund:${order.id}`))).toEqual([]);
      expect(await mailsOf(order.number, "order-shipped")).toEqual([]);
    });

    it("lets the admin ship, then answers the second click with 409 and a French toast", async () => {
      const order = await paidOrder();
      const values = { intent: "ship", carrier: "mondial_relay", trackingNumber: "12345678" };
      expect(await post(order.number, values, { cookie: adminCookie })).toMatchObject({ status: 200, body: { ok: true, toast: { title: "Commande expédiée" } } });
      expect(await post(order.number, values, { cookie: adminCookie })).toEqual({
        status: 409,
        body: { ok: false, toast: { title: "Action impossible", description: refusalMessage("ship", "shipped") } },
      });
      expect(await post(order.number, { intent: "ship", carrier: "", trackingNumber: "" }, { cookie: adminCookie })).toMatchObject({
        status: 400,
        body: { fieldErrors: { carrier: "Choisissez un transporteur.", trackingNumber: "Indiquez le numéro de suivi." } },
      });
      expect(await post(order.number, { intent: "explode" }, { cookie: adminCookie })).toMatchObject({ status: 400 });
      expect(await mailsOf(order.number, "order-shipped")).toHaveLength(1);
    });
  });
});
