import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { orders, products, rateLimits, storeCreditMovements } from "~/db/schema";
import { type CheckoutContext, startCheckout } from "~/services/checkout.server";
import { refundPartOfOrder } from "~/services/partial-refunds.server";
import { handlePaymentEvent } from "~/services/payment-webhooks.server";
import { createStripeProvider } from "~/services/payments/stripe.server";
import type { PaymentProvider } from "~/services/payments/types";
import { recordMovement, storeCreditBalance } from "~/services/store-credit.server";
import { createUserWithPassword } from "~/services/users.server";
import { type FakeStripe, startFakeStripe } from "../support/fake-stripe-server";
import { flatDelivery } from "./flat-delivery";
import { HOME_ADDRESS } from "./paid-checkout";
import { databaseLabel, openTestDatabase } from "./test-database";

/**
 * Store credit on the Stripe path (issue 54 point 4, decision 055), with the official SDK against
 * the local fake Stripe: Checkout is charged only what the credit leaves (the credit rides on a
 * one-off coupon named « Avoir »), the paid webhook's amount is that card part, and a refund of an
 * order paid by both means asks Stripe only for the card's share.
 */
const deps = { shop: { name: "Comptoir", email: "contact@comptoir.example", publicUrl: "https://comptoir.example" }, sellerEmail: "vendeur@comptoir.example" };
const DELIVERY_CENTS = 4_90;

describe(`store credit paid through Stripe on ${databaseLabel}`, () => {
  let database: Database;
  let fake: FakeStripe;
  let stripe: PaymentProvider;
  let delivery: { methodId: number; country: string };
  let people = 0;
  let ip = 0;

  const ctx = (customer: CheckoutContext["customer"]): CheckoutContext => ({ now: new Date(), customer, clientIp: `198.51.100.${++ip}`, orderPrefix: "CPT", origin: "http://shop.test", reservationMinutes: 45, paidDeps: deps });

  async function product(priceCents: number) {
    const [row] = await database.db.insert(products).values({ title: `Carte ${priceCents}`, priceCents, stock: 10, category: "TCG", subCategory: "Cartes à l'unité" }).returning();
    return row!;
  }
  async function customerWithCredit(creditCents: number) {
    const email = `stripe${++people}@example.fr`;
    const user = await createUserWithPassword(database.db, { email, password: "mot-de-passe-du-client", name: "Cliente", role: "user", emailVerified: true });
    await recordMovement(database.db, { email, amountCents: creditCents, kind: "goodwill", reason: "Geste commercial", author: "seller:test" });
    return { id: user.id, email };
  }

  /** A signed-in customer's checkout of one product spending `creditCents`: the order and the Checkout Session Stripe made. */
  async function checkout(priceCents: number, creditCents: number) {
    const customer = await customerWithCredit(creditCents);
    const card = await product(priceCents);
    const result = await startCheckout(database.db, stripe, { items: [{ productId: card.id, quantity: 1 }], insuranceSelected: false, delivery, storeCreditCents: creditCents }, ctx(customer));
    if (result.status !== 200) throw new Error(JSON.stringify(result.body));
    const [order] = await database.db.select().from(orders).where(eq(orders.number, result.body.orderNumber));
    const session = fake.sessions.get(order!.providerSessionId!)!;
    return { customer, order: order!, session };
  }

  beforeAll(async () => {
    database = await openTestDatabase();
    fake = await startFakeStripe();
    stripe = createStripeProvider({ secretKey: "sk_test_comptoir", webhookSecret: "whsec_test", apiBase: fake.url });
    delivery = await flatDelivery(database.db, "Colissimo", DELIVERY_CENTS);
  });
  afterAll(async () => {
    fake.close();
    await database.close();
  });
  beforeEach(async () => {
    await database.db.delete(rateLimits);
  });

  it("charges the Checkout Session the total less the credit, through a coupon « Avoir »", async () => {
    const { order, session } = await checkout(42_00, 12_00);
    expect(order).toMatchObject({ totalCents: 42_00 + DELIVERY_CENTS, storeCreditCents: 12_00 });
    expect(session.amount_total).toBe(42_00 + DELIVERY_CENTS - 12_00);
    const couponCall = fake.requests.find((request) => request.path === "/v1/coupons" && request.body.amount_off === "1200");
    expect(couponCall?.body).toMatchObject({ name: "Avoir", currency: "eur", duration: "once" });
  });

  it("charges only the rest when the credit pays the goods and part of the delivery", async () => {
    // 10,00 € of goods, 4,90 € of delivery, 14,00 € of credit: Stripe must charge 0,90 €.
    const { order, session } = await checkout(10_00, 14_00);
    expect(order).toMatchObject({ totalCents: 14_90, storeCreditCents: 14_00 });
    expect(session.amount_total).toBe(90);
  });

  it("refunds an order paid by credit and card: Stripe is asked only for the card's share, the rest goes back as credit", async () => {
    const { customer, order, session } = await checkout(42_00, 12_00);
    const paid = await handlePaymentEvent(
      database.db,
      stripe,
      { id: `evt_${order.id}`, type: "session.completed", sessionId: order.providerSessionId, paid: true, paymentReference: `pi_${order.number}`, customerEmail: customer.email, customerName: "Cliente", shippingAddress: HOME_ADDRESS, amountTotalCents: session.amount_total as number, currency: "eur" },
      deps,
    );
    expect(paid).toBe("paid");
    const refund = (cents: number, key: string) =>
      refundPartOfOrder(database.db, stripe, { orderId: order.id, requestKey: key, request: { lines: [], shippingCents: 0, insuranceCents: 0, adjustment: { kind: "goodwill", cents, reason: "Carte abîmée" } }, actorId: null }, deps);
    const refundsOf = () => fake.refunds.filter((r) => r.payment_intent === `pi_${order.number}`).map((r) => r.amount as number);

    // 7,00 € of the 46,90 € order: the card paid 34,90 €, so 7,00 × 34,90 / 46,90 = 5,21 € to it, 1,79 € as credit.
    expect(await refund(7_00, "geste-1")).toMatchObject({ ok: true, refund: { status: "refunded", amountCents: 7_00, storeCreditCents: 1_79 } });
    expect(refundsOf()).toEqual([5_21]);
    // The rest, 39,90 €: Stripe gives back what is left of the card's part, 29,69 €; the credit gets 10,21 €.
    expect(await refund(39_90, "geste-2")).toMatchObject({ ok: true, refund: { status: "refunded", amountCents: 39_90, storeCreditCents: 10_21 } });
    expect(refundsOf()).toEqual([5_21, 29_69]);
    expect(refundsOf().reduce((a, b) => a + b, 0)).toBe(session.amount_total);
    expect(await storeCreditBalance(database.db, customer.email)).toBe(12_00);
    const given = await database.db.select({ amountCents: storeCreditMovements.amountCents }).from(storeCreditMovements).where(and(eq(storeCreditMovements.orderId, order.id), eq(storeCreditMovements.kind, "refund")));
    expect(given.map((m) => m.amountCents)).toEqual([1_79, 10_21]);
  });
});
