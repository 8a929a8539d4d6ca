import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { orderItems, orderRefunds, orders, outboxEmails, products, rateLimits, withdrawalRequests } from "~/db/schema";
import { quantityField } from "~/domain/withdrawal";
import { WITHDRAWAL_LINES_MESSAGES } from "~/domain/withdrawal-lookup-schema";
import { getAdminOrder, shipOrder } from "~/services/admin-orders.server";
import { dashboardWaiting } from "~/services/dashboard.server";
import type { CheckoutContext } from "~/services/checkout.server";
import { checkoutAndPay } from "./paid-checkout";
import { createStripeProvider } from "~/services/payments/stripe.server";
import type { PaymentProvider } from "~/services/payments/types";
import { createUserWithPassword } from "~/services/users.server";
import { type WithdrawalDeps, withdrawalPost } from "~/services/withdrawal.server";
import { refundAdminWithdrawal } from "~/services/withdrawal-refund.server";
import { type FakeStripe, startFakeStripe } from "../support/fake-stripe-server";
import { databaseLabel, openTestDatabase } from "./test-database";

/**
 * Withdrawal by line (issue 51, point 2) on a real database, through the Stripe adapter against
 * the fake Stripe server: a guest withdraws one article of two from a shipped order; the seller
 * marks the return received with a 2,00 € deduction for depreciation: one partial refund of the
 * line less 2,00 €, put back in stock, the delivery kept (the buyer keeps part of the order), the
 * request's received_at and refund_id set; a second click refunds nothing more. Then the choices
 * the form refuses (0 units in all, an unknown article, more than bought): 400, French, nothing written.
 */
const mailDeps = { shop: { name: "Comptoir", email: "contact@comptoir.example", publicUrl: "https://comptoir.example" }, sellerEmail: "vendeur@comptoir.example" };
const NAME = "Marie Curie";

describe(`withdrawal by line on ${databaseLabel}`, () => {
  let database: Database;
  let fake: FakeStripe;
  let stripe: PaymentProvider;
  let adminId: string;
  let n = 0;
  const db = () => database.db;
  const ctx = (): CheckoutContext => ({ now: new Date(), customer: null, clientIp: `198.51.100.${++n % 250}`, orderPrefix: "CPT", origin: "http://shop.test", reservationMinutes: 45 });
  const withdrawalDeps = (): WithdrawalDeps => ({ db: db(), shop: mailDeps.shop, sellerEmail: mailDeps.sellerEmail, returnAddress: "3 place du Marché, 69002 Lyon", orderPrefix: "CPT" });
  const orderOf = async (number: string) => (await db().select().from(orders).where(eq(orders.number, number)))[0]!;
  const stockOf = async (id: number) => (await db().select({ stock: products.stock }).from(products).where(eq(products.id, id)))[0]!.stock;
  const refundsOf = (orderId: string) => db().select().from(orderRefunds).where(eq(orderRefunds.orderId, orderId)).orderBy(asc(orderRefunds.seq));
  const requestOf = async (orderId: string) => (await db().select().from(withdrawalRequests).where(eq(withdrawalRequests.orderId, orderId)))[0];
  const stripeRefundsOf = (intent: string) => fake.refunds.filter((refund) => refund.payment_intent === intent);

  async function product(values: Partial<typeof products.$inferInsert>) {
    const [row] = await db().insert(products).values({ title: `Booster retour ${++n}`, priceCents: 600, stock: 10, category: "TCG", subCategory: "Scellés", ...values }).returning();
    return row!;
  }

  /** A guest's order of a booster and a display, paid through the Stripe webhook path, then shipped. */
  async function shippedOrder(intent: string, ship = true, displayPriceCents = 14_990) {
    const booster = await product({ priceCents: 650 });
    const display = await product({ title: `Display retour ${++n}`, priceCents: displayPriceCents });
    const order = await checkoutAndPay(db(), stripe, [{ productId: booster.id, quantity: 1 }, { productId: display.id, quantity: 1 }], { ctx: ctx(), deps: mailDeps, intent, name: NAME });
    if (ship) expect(await shipOrder(db(), order.number, { carrier: "colissimo", trackingNumber: "6A12345678901" }, adminId, mailDeps)).toMatchObject({ ok: true });
    const items = await db().select().from(orderItems).where(eq(orderItems.orderId, order.id));
    const item = (productId: number) => items.find((candidate) => candidate.productId === productId)!;
    return { order: await orderOf(order.number), booster, display, boosterItem: item(booster.id), displayItem: item(display.id) };
  }

  const confirm = (number: string, fields: Record<string, string>) =>
    withdrawalPost(withdrawalDeps(), { form: { intent: "confirm", source: "guest", orderNumber: number, email: "marie@example.com", customerName: NAME, ...fields }, viewer: null, clientIp: `203.0.113.${++n % 250}` });

  beforeAll(async () => {
    database = await openTestDatabase();
    fake = await startFakeStripe();
    stripe = createStripeProvider({ secretKey: "sk_test_comptoir", webhookSecret: "whsec_test", apiBase: fake.url });
    ({ id: adminId } = await createUserWithPassword(database.db, { email: "chef.retours@comptoir.test", password: "chef-mot-de-passe-2026", name: "Chef", role: "admin", emailVerified: true }));
  });
  afterAll(async () => {
    fake.close();
    await database.close();
  });
  beforeEach(async () => {
    await db().delete(rateLimits);
  });

  it("a guest withdraws 1 of 2 lines; the seller marks the return received with a 2,00 € deduction: one partial refund, restocked, recorded on the request, never twice", async () => {
    const { order, booster, display, boosterItem, displayItem } = await shippedOrder("pi_withdraw_line_1");
    const lookup = await withdrawalPost(withdrawalDeps(), { form: { intent: "lookup", orderNumber: order.number, email: "marie@example.com" }, viewer: null, clientIp: "203.0.113.1" });
    expect(lookup).toMatchObject({ status: 200, view: { step: "confirm", order: { lines: expect.arrayContaining([{ id: boosterItem.id, name: booster.title, quantity: 1 }]) } } });

    // The booster is withdrawn, the display kept (0).
    const done = await confirm(order.number, { [quantityField(boosterItem.id)]: "1", [quantityField(displayItem.id)]: "0" });
    expect(done).toMatchObject({ status: 200, created: true, view: { step: "done" } });
    const request = (await requestOf(order.id))!;
    expect(request.lines).toEqual([{ orderItemId: boosterItem.id, quantity: 1 }]);
    expect(request).toMatchObject({ receivedAt: null, refundId: null });
    const mails = await db().select().from(outboxEmails).where(eq(outboxEmails.kind, "withdrawal-ack"));
    const ack = mails.find((mail) => mail.subject.includes(order.number))!;
    expect(ack.text).toContain(booster.title);
    expect(ack.text).not.toContain(display.title);
    expect(ack.text).toContain("3 place du Marché, 69002 Lyon");
    expect(ack.text).toContain("éventuellement une fois les articles reçus ou la preuve de leur envoi fournie");
    const notice = (await db().select().from(outboxEmails).where(eq(outboxEmails.kind, "withdrawal-seller"))).find((mail) => mail.subject.includes(order.number))!;
    expect(notice.text).toContain(booster.title);
    expect(notice.text).not.toContain(display.title);

    const detail = (await getAdminOrder(db(), order.number))!;
    expect(detail.withdrawal).toMatchObject({ whole: false, lines: [{ orderItemId: boosterItem.id, name: booster.title, quantity: 1, bought: 1 }], receivedAt: null, refund: null });

    // The dashboard's reminder lists it until it is refunded.
    const waiting = async (at: number) => (await dashboardWaiting(db(), new Date(at))).withdrawals.oldest.map((open) => open.number);
    expect(await waiting(Date.now() + 60_000)).toContain(order.number);

    // Received, with a deduction for depreciation.
    const stockBefore = await stockOf(booster.id);
    const form = { intent: "withdrawal-refund", [`restock:${boosterItem.id}`]: "on", deduction: "2,00", reason: "Blister ouvert" };
    const received = await refundAdminWithdrawal(db(), stripe, order.number, form, adminId, mailDeps);
    expect(received).toMatchObject({ ok: true, status: 200, title: "Rétractation remboursée" });
    const refunds = await refundsOf(order.id);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({
      requestKey: `withdrawal:${request.id}`,
      status: "refunded",
      amountCents: 650 - 200,
      shippingCents: 0,
      adjustmentKind: "depreciation",
      adjustmentCents: -200,
      reason: "Blister ouvert",
      lines: [expect.objectContaining({ orderItemId: boosterItem.id, quantity: 1, totalCents: 650, restock: true })],
    });
    expect(await stockOf(booster.id)).toBe(stockBefore + 1);
    expect(stripeRefundsOf("pi_withdraw_line_1")).toEqual([expect.objectContaining({ amount: 450 })]);
    const after = (await requestOf(order.id))!;
    expect(after.refundId).toBe(refunds[0]!.id);
    expect(after.receivedAt).toBeInstanceOf(Date);
    expect((await getAdminOrder(db(), order.number))!.withdrawal).toMatchObject({ refund: { id: refunds[0]!.id, status: "refunded", amountCents: 450 } });
    expect(await waiting(Date.now() + 120_000)).not.toContain(order.number);

    // A second click: the same refund, nothing more.
    const again = await refundAdminWithdrawal(db(), stripe, order.number, form, adminId, mailDeps);
    expect(again).toMatchObject({ ok: true, title: "Rétractation déjà remboursée" });
    expect(await refundsOf(order.id)).toHaveLength(1);
    expect(stripeRefundsOf("pi_withdraw_line_1")).toHaveLength(1);
    expect(await stockOf(booster.id)).toBe(stockBefore + 1);
    expect((await orderOf(order.number)).status).toBe("shipped");
  });

  it("refuses 0 units in all, an unknown article, more than bought: 400 in French, nothing written", async () => {
    const { order, booster, boosterItem, displayItem } = await shippedOrder("pi_withdraw_line_2");
    const mailsBefore = (await db().select().from(outboxEmails)).length;

    const none = await confirm(order.number, { [quantityField(boosterItem.id)]: "0", [quantityField(displayItem.id)]: "0" });
    expect(none).toMatchObject({ status: 400, created: false, view: { step: "confirm" } });
    expect(Object.values(none.view.step === "confirm" ? none.view.fieldErrors! : {})).toContain(WITHDRAWAL_LINES_MESSAGES.none);

    const unknown = await confirm(order.number, { [quantityField("00000000-0000-4000-8000-000000000000")]: "1" });
    expect(unknown).toMatchObject({ status: 400, view: { step: "confirm", fieldErrors: { form: WITHDRAWAL_LINES_MESSAGES.unknown } } });

    const tooMany = await confirm(order.number, { [quantityField(boosterItem.id)]: "2" });
    expect(tooMany).toMatchObject({ status: 400, view: { step: "confirm", fieldErrors: { [quantityField(boosterItem.id)]: `Vous avez acheté 1 « ${booster.title} » : indiquez au plus 1.` } } });

    const negative = await confirm(order.number, { [quantityField(boosterItem.id)]: "-1" });
    expect(negative).toMatchObject({ status: 400, view: { step: "confirm", fieldErrors: { [quantityField(boosterItem.id)]: `Quantité invalide pour « ${booster.title} » : indiquez un nombre entier de 0 à 1.` } } });
    // The quantities typed come back with the errors.
    expect(negative.view).toMatchObject({ quantities: { [quantityField(boosterItem.id)]: "-1" } });

    expect(await requestOf(order.id)).toBeUndefined();
    expect((await db().select().from(outboxEmails)).length).toBe(mailsBefore);

    // And the seller cannot refund a withdrawal nobody asked for.
    expect(await refundAdminWithdrawal(db(), stripe, order.number, { intent: "withdrawal-refund" }, adminId, mailDeps)).toMatchObject({ ok: false, status: 404 });
    expect(await refundsOf(order.id)).toHaveLength(0);
  });
  it("a paid order withdrawn in part: « Rembourser la rétractation » refunds the line without a deduction, and the rest may ship", async () => {
    const { order, boosterItem, displayItem } = await shippedOrder("pi_withdraw_line_3", false);
    expect(await confirm(order.number, { [quantityField(boosterItem.id)]: "1", [quantityField(displayItem.id)]: "0" })).toMatchObject({ status: 200, created: true });
    // Held while the withdrawal waits for its refund.
    expect(await shipOrder(db(), order.number, { carrier: "colissimo", trackingNumber: "6A12345678902" }, adminId, mailDeps)).toMatchObject({ ok: false, status: 409 });
    const withDeduction = await refundAdminWithdrawal(db(), stripe, order.number, { deduction: "1,00", reason: "Ouvert" }, adminId, mailDeps);
    expect(withDeduction).toMatchObject({ ok: false, status: 400, fieldErrors: { deduction: "Une déduction pour dépréciation ne s'applique qu'à des articles expédiés puis retournés." } });
    expect(await refundsOf(order.id)).toHaveLength(0);
    const refunded = await refundAdminWithdrawal(db(), stripe, order.number, { [`restock:${boosterItem.id}`]: "on" }, adminId, mailDeps);
    expect(refunded).toMatchObject({ ok: true, title: "Rétractation remboursée" });
    expect(await refundsOf(order.id)).toEqual([expect.objectContaining({ amountCents: 650, shippingCents: 0, adjustmentKind: null })]);
    expect(await requestOf(order.id)).toMatchObject({ receivedAt: null, refundId: expect.any(String) });
    expect((await orderOf(order.number)).status).toBe("paid");
    expect(await shipOrder(db(), order.number, { carrier: "colissimo", trackingNumber: "6A12345678902" }, adminId, mailDeps)).toMatchObject({ ok: true });
  });

  it("a whole withdrawal of a shipped order refunds the articles and the delivery, and closes the order", async () => {
    // Small enough for a paid delivery.
    const { order } = await shippedOrder("pi_withdraw_line_4", true, 990);
    expect(order.shippingCents).toBeGreaterThan(0);
    expect(await confirm(order.number, {})).toMatchObject({ status: 200, created: true });
    const received = await refundAdminWithdrawal(db(), stripe, order.number, {}, adminId, mailDeps);
    expect(received).toMatchObject({ ok: true });
    const refunds = await refundsOf(order.id);
    expect(refunds).toEqual([expect.objectContaining({ amountCents: order.totalCents, shippingCents: order.shippingCents, closesOrder: true })]);
    expect(refunds[0]!.lines.every((line) => !line.restock)).toBe(true);
    expect((await orderOf(order.number)).status).toBe("refunded");
    expect(stripeRefundsOf("pi_withdraw_line_4")).toEqual([expect.objectContaining({ amount: order.totalCents })]);
  });
});
