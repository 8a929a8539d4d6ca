import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStripeProvider } from "~/services/payments/stripe.server";
import { PaymentProviderError, type PaymentProvider, WebhookSignatureError } from "~/services/payments/types";
import { startFakeStripe } from "../support/fake-stripe";

/** The Stripe adapter, with the official SDK, against a local fake Stripe HTTP server. */
describe("Stripe adapter (official SDK against a local fake Stripe)", () => {
  let fake: Awaited<ReturnType<typeof startFakeStripe>>;
  let provider: PaymentProvider;
  const webhookSecret = "whsec_test_secret";
  const sdk = new Stripe("sk_test_x");

  const session = {
    orderId: "5b0b8e9e-3f43-4a5c-9d55-8d1b8b2b0a11",
    orderNumber: "CPT-123456-0042",
    lines: [
      { name: "Display Écarlate et Violet", unitAmountCents: 21_999, quantity: 2 },
      { name: "Assurance colis", unitAmountCents: 1_000, quantity: 1 },
    ],
    discountCents: 0,
    totalCents: 44_998,
    customerEmail: "marie@example.com",
    successUrl: "https://shop.example/merci?success=true&session_id={CHECKOUT_SESSION_ID}",
    cancelUrl: "https://shop.example/cart?canceled=true",
    expiresAt: new Date("2026-11-23T12:30:00Z"),
    idempotencyKey: "5b0b8e9e-3f43-4a5c-9d55-8d1b8b2b0a11",
  };

  beforeAll(async () => {
    fake = await startFakeStripe();
    provider = createStripeProvider({ secretKey: "sk_test_comptoir", webhookSecret, apiBase: fake.url });
  });
  afterAll(() => fake.close());

  it("creates a Checkout Session with the amounts, expiry, metadata and idempotency key", async () => {
    const created = await provider.createSession(session);
    expect(created.id).toMatch(/^cs_test_/);
    expect(created.url).toBe(`https://checkout.stripe.com/c/pay/${created.id}`);
    const request = fake.requests.findLast((r) => r.path === "/v1/checkout/sessions")!;
    expect(request.method).toBe("POST");
    expect(request.headers.authorization).toBe("Bearer sk_test_comptoir");
    expect(request.headers["idempotency-key"]).toBe(session.orderId);
    expect(request.body).toMatchObject({
      mode: "payment",
      locale: "fr",
      customer_email: "marie@example.com",
      expires_at: String(Math.floor(session.expiresAt.getTime() / 1000)),
      client_reference_id: "CPT-123456-0042",
      metadata: { orderId: session.orderId, orderNumber: "CPT-123456-0042" },
      payment_intent_data: { metadata: { orderNumber: "CPT-123456-0042" } },
      success_url: session.successUrl,
      cancel_url: session.cancelUrl,
      phone_number_collection: { enabled: "true" },
      line_items: {
        0: { quantity: "2", price_data: { currency: "eur", unit_amount: "21999", product_data: { name: "Display Écarlate et Violet" } } },
        1: { quantity: "1", price_data: { currency: "eur", unit_amount: "1000", product_data: { name: "Assurance colis" } } },
      },
    });
    const countries = Object.values((request.body.shipping_address_collection as { allowed_countries: Record<string, string> }).allowed_countries);
    expect(countries).toContain("FR");
    expect(countries).toContain("BE");
    expect(request.body).not.toHaveProperty("discounts");

    // The same idempotency key again: the same session, as Stripe answers a retried request.
    expect((await provider.createSession(session)).id).toBe(created.id);
  });

  it("turns a discount into a one-off coupon on the session", async () => {
    await provider.createSession({ ...session, orderId: "o-2", idempotencyKey: "o-2", discountCents: 1_500, totalCents: 43_498 });
    const coupon = fake.requests.findLast((r) => r.path === "/v1/coupons")!;
    expect(coupon.body).toMatchObject({ amount_off: "1500", currency: "eur", duration: "once" });
    expect(coupon.headers["idempotency-key"]).toBe("o-2:coupon");
    const request = fake.requests.findLast((r) => r.path === "/v1/checkout/sessions")!;
    expect(request.body).toMatchObject({ discounts: { 0: { coupon: expect.stringMatching(/^coupon_/) } } });
  });

  it("reports a provider failure as PaymentProviderError", async () => {
    fake.failNext(10);
    await expect(provider.createSession({ ...session, orderId: "o-3", idempotencyKey: "o-3" })).rejects.toBeInstanceOf(PaymentProviderError);
    fake.failNext(0);
  });

  it("refunds a payment with its idempotency key", async () => {
    const refund = await provider.refund({ paymentReference: "pi_123", amountCents: 44_998, idempotencyKey: "refund:o-1" });
    expect(refund.id).toMatch(/^re_/);
    const request = fake.requests.findLast((r) => r.path === "/v1/refunds")!;
    expect(request.body).toMatchObject({ payment_intent: "pi_123", amount: "44998" });
    expect(request.headers["idempotency-key"]).toBe("refund:o-1");
  });

  function signed(event: object, secret = webhookSecret) {
    const payload = JSON.stringify(event);
    return { payload, headers: new Headers({ "stripe-signature": sdk.webhooks.generateTestHeaderString({ payload, secret }) }) };
  }
  const sessionObject = (overrides: object = {}) => ({
    id: "cs_test_abc",
    object: "checkout.session",
    payment_status: "paid",
    payment_intent: "pi_abc",
    amount_total: 44_998,
    customer_email: null,
    customer_details: { email: "marie@example.com", name: "Marie Curie", phone: "+33612345678", address: null },
    collected_information: {
      shipping_details: { name: "Marie Curie", address: { line1: "12 rue des Lilas", line2: null, postal_code: "75011", city: "Paris", country: "FR", state: null } },
    },
    ...overrides,
  });
  const event = (type: string, object: object, id = `evt_${type}`) => ({ id, object: "event", type, data: { object } });

  it("accepts signed webhooks and reads them", async () => {
    const paid = signed(event("checkout.session.completed", sessionObject()));
    expect(await provider.readWebhook(paid.payload, paid.headers)).toEqual({
      id: "evt_checkout.session.completed",
      type: "session.completed",
      sessionId: "cs_test_abc",
      paid: true,
      paymentReference: "pi_abc",
      customerEmail: "marie@example.com",
      customerName: "Marie Curie",
      shippingAddress: { method: "home", fullName: "Marie Curie", line1: "12 rue des Lilas", postalCode: "75011", city: "Paris", country: "FR", phone: "+33612345678" },
      amountTotalCents: 44_998,
    });
    const pending = signed(event("checkout.session.completed", sessionObject({ payment_status: "unpaid" }), "evt_pending"));
    expect(await provider.readWebhook(pending.payload, pending.headers)).toMatchObject({ type: "session.completed", paid: false });
    for (const [type, expected, paidNow] of [
      ["checkout.session.async_payment_succeeded", "session.async_payment_succeeded", true],
      ["checkout.session.async_payment_failed", "session.async_payment_failed", false],
      ["checkout.session.expired", "session.expired", false],
      ["payment_intent.created", "ignored", false],
    ] as const) {
      const delivery = signed(event(type, sessionObject({ payment_status: "unpaid" })));
      expect(await provider.readWebhook(delivery.payload, delivery.headers)).toMatchObject({ type: expected, paid: paidNow });
    }
  });

  it("refuses a tampered body, another secret and a missing signature", async () => {
    const good = signed(event("checkout.session.completed", sessionObject()));
    const tampered = good.payload.replace('"amount_total":44998', '"amount_total":1');
    await expect(provider.readWebhook(tampered, good.headers)).rejects.toBeInstanceOf(WebhookSignatureError);
    const other = signed(event("checkout.session.completed", sessionObject()), "whsec_other");
    await expect(provider.readWebhook(other.payload, other.headers)).rejects.toBeInstanceOf(WebhookSignatureError);
    await expect(provider.readWebhook(good.payload, new Headers())).rejects.toBeInstanceOf(WebhookSignatureError);
  });
});
