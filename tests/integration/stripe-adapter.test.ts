import Stripe from "stripe";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createStripeProvider } from "~/services/payments/stripe.server";
import { type CreateSessionInput, type PaymentProvider, PaymentProviderError, WebhookSignatureError } from "~/services/payments/types";
import { type FakeStripe, startFakeStripe } from "../support/fake-stripe-server";
import { signedStripeWebhook, stripeEvent } from "../support/stripe-events";

/** The Stripe adapter on the official SDK, against a local fake Stripe HTTP server (no database). */
describe("Stripe adapter (official SDK against a local fake Stripe)", () => {
  let fake: FakeStripe;
  let provider: PaymentProvider;
  const webhookSecret = "whsec_test_comptoir";

  const orderId = "5b0b8e9e-3f43-4a5c-9d55-8d1b8b2b0a11";
  // Stripe wants 30 min to 24 h ahead; the milliseconds check that the adapter rounds down to seconds.
  const expiresAt = new Date(Date.now() + 45 * 60_000 + 789);
  const input: CreateSessionInput = {
    orderId,
    orderNumber: "CPT-123456-0042",
    lines: [
      { name: "Display Écarlate et Violet", unitAmountCents: 21_999, quantity: 2 },
      { name: "Booster Flammes Obsidiennes", unitAmountCents: 599, quantity: 3 },
      { name: "Remise contre signature", unitAmountCents: 1_000, quantity: 1 },
    ],
    shipping: { name: "Colissimo à domicile", kind: "home", deliveryTime: "2 à 3 jours ouvrés", amountCents: 0, country: "FR" },
    discountCents: 0,
    storeCreditCents: 0,
    totalCents: 21_999 * 2 + 599 * 3 + 1_000,
    customerEmail: "marie@example.com",
    successUrl: "https://shop.example/merci?success=true&session_id={CHECKOUT_SESSION_ID}",
    cancelUrl: "https://shop.example/cart?canceled=true",
    expiresAt,
    idempotencyKey: orderId,
  };
  const withKey = (key: string, overrides: Partial<CreateSessionInput> = {}): CreateSessionInput => ({
    ...input,
    orderId: key,
    idempotencyKey: key,
    ...overrides,
  });

  function requestsTo(path: string) {
    return fake.requests.filter((r) => r.path === path);
  }
  function lastTo(path: string) {
    const request = requestsTo(path).at(-1);
    if (!request) throw new Error(`No request to ${path}`);
    return request;
  }

  beforeAll(async () => {
    fake = await startFakeStripe();
    provider = createStripeProvider({ secretKey: "sk_test_comptoir", webhookSecret, apiBase: fake.url });
  });
  beforeEach(() => {
    fake.requests.length = 0;
    fake.failNext(500, 0); // no failure left over from a test that expected more retries
  });
  afterAll(() => fake.close());

  describe("createSession", () => {
    it("sends the lines in cents, the expiry, metadata, addresses, URLs, key and idempotency key", async () => {
      const created = await provider.createSession(input);
      expect(created.id).toMatch(/^cs_test_/);
      expect(created.url).toBe(`https://checkout.stripe.com/c/pay/${created.id}`);

      const request = lastTo("/v1/checkout/sessions");
      expect(request.method).toBe("POST");
      expect(request.headers.authorization).toBe("Bearer sk_test_comptoir");
      expect(request.headers["idempotency-key"]).toBe(orderId);
      // No apiVersion in the adapter: the SDK sends the version its types are written for.
      expect(request.headers["stripe-version"]).toBe(Stripe.API_VERSION);
      expect(request.body).toEqual({
        mode: "payment",
        locale: "fr",
        line_items: [
          { quantity: "2", price_data: { currency: "eur", unit_amount: "21999", product_data: { name: "Display Écarlate et Violet" } } },
          { quantity: "3", price_data: { currency: "eur", unit_amount: "599", product_data: { name: "Booster Flammes Obsidiennes" } } },
          { quantity: "1", price_data: { currency: "eur", unit_amount: "1000", product_data: { name: "Remise contre signature" } } },
        ],
        customer_email: "marie@example.com",
        shipping_options: [
          {
            shipping_rate_data: {
              type: "fixed_amount",
              fixed_amount: { amount: "0", currency: "eur" },
              display_name: "Colissimo à domicile",
              metadata: { deliveryTime: "2 à 3 jours ouvrés" },
            },
          },
        ],
        shipping_address_collection: { allowed_countries: ["FR"] },
        billing_address_collection: "required",
        phone_number_collection: { enabled: "true" },
        submit_type: "pay",
        expires_at: String(Math.floor(expiresAt.getTime() / 1000)),
        metadata: { orderId, orderNumber: "CPT-123456-0042" },
        client_reference_id: "CPT-123456-0042",
        payment_intent_data: { metadata: { orderId, orderNumber: "CPT-123456-0042" } },
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
      });
      // The placeholder travels form-encoded and arrives as is, for Stripe to fill in.
      expect(request.rawBody).toContain("session_id%3D%7BCHECKOUT_SESSION_ID%7D");
      // What Stripe would charge is what the shop computed.
      expect(request.response).toMatchObject({ amount_total: input.totalCents, currency: "eur" });
    });

    it("charges the server's delivery price as the one shipping option, and asks no address for a relay point", async () => {
      const relay = withKey("order-relay", {
        shipping: { name: "Point relais", kind: "relay", deliveryTime: "3 à 5 jours ouvrés", amountCents: 449, country: "BE" },
        totalCents: input.totalCents + 449,
      });
      await provider.createSession(relay);
      const request = lastTo("/v1/checkout/sessions");
      expect(request.body.shipping_options).toEqual([
        { shipping_rate_data: { type: "fixed_amount", fixed_amount: { amount: "449", currency: "eur" }, display_name: "Point relais", metadata: { deliveryTime: "3 à 5 jours ouvrés" } } },
      ]);
      expect(request.body).not.toHaveProperty("shipping_address_collection");
      // The invoice's « Facturé à »: a relay point is never the buyer's address, Checkout asks it.
      expect(request.body.billing_address_collection).toBe("required");
      expect(request.response).toMatchObject({ amount_total: relay.totalCents, shipping_cost: { amount_total: 449 } });

      await provider.createSession(withKey("order-home-be", { shipping: { name: "Colissimo Europe", kind: "home", deliveryTime: "", amountCents: 1_390, country: "BE" } }));
      expect(lastTo("/v1/checkout/sessions").body.shipping_address_collection).toEqual({ allowed_countries: ["BE"] });
    });

    it("gives the same session for the same idempotency key", async () => {
      const first = await provider.createSession(withKey("order-twice"));
      const second = await provider.createSession(withKey("order-twice"));
      expect(second).toEqual(first);
      expect(requestsTo("/v1/checkout/sessions").map((r) => r.headers["idempotency-key"])).toEqual(["order-twice", "order-twice"]);
      // Another order, another session.
      expect((await provider.createSession(withKey("order-other"))).id).not.toBe(first.id);
    });

    it("asks the buyer to accept the CGV only when the account has its terms URL (STRIPE_TERMS_OF_SERVICE)", async () => {
      // Without the setting (the test above): no consent_collection, which Stripe would refuse.
      await provider.createSession(withKey("order-no-terms"));
      expect(lastTo("/v1/checkout/sessions").body).not.toHaveProperty("consent_collection");
      const withTerms = createStripeProvider({ secretKey: "sk_test_comptoir", webhookSecret, apiBase: fake.url, termsOfService: true });
      await withTerms.createSession(withKey("order-terms"));
      expect(lastTo("/v1/checkout/sessions").body.consent_collection).toEqual({ terms_of_service: "required" });
    });

    it("leaves customer_email out for a guest", async () => {
      await provider.createSession(withKey("order-guest", { customerEmail: null }));
      expect(lastTo("/v1/checkout/sessions").body).not.toHaveProperty("customer_email");
    });

    it("turns a discount into a one-off coupon on the session, once even when retried", async () => {
      const discounted = withKey("order-discount", { discountCents: 1_500, totalCents: input.totalCents - 1_500 });
      const created = await provider.createSession(discounted);

      const coupon = lastTo("/v1/coupons");
      expect(coupon.body).toEqual({ amount_off: "1500", currency: "eur", duration: "once", name: "Réduction" });
      expect(coupon.headers["idempotency-key"]).toBe("order-discount:coupon");
      const session = lastTo("/v1/checkout/sessions");
      expect(session.body.discounts).toEqual([{ coupon: coupon.response.id }]);
      expect(session.response.amount_total).toBe(discounted.totalCents);

      // A retry gets the same coupon back, hence the same session parameters and the same session
      // (a second coupon would make Stripe refuse the reused key).
      expect(await provider.createSession(discounted)).toEqual(created);
      const coupons = requestsTo("/v1/coupons");
      expect(coupons).toHaveLength(2);
      expect(coupons[1]?.response.id).toBe(coupon.response.id);
    });

    it("retries a 5xx with the same idempotency key", async () => {
      fake.failNext(500, 1);
      const created = await provider.createSession(withKey("order-retry"));
      expect(created.id).toMatch(/^cs_test_/);
      const attempts = requestsTo("/v1/checkout/sessions");
      expect(attempts.map((r) => r.status)).toEqual([500, 200]);
      expect(attempts.map((r) => r.headers["idempotency-key"])).toEqual(["order-retry", "order-retry"]);
    });

    it("reports a provider failure as PaymentProviderError, with Stripe's error as cause", async () => {
      fake.failNext(500, 3); // the first try and both retries
      const error = await provider.createSession(withKey("order-down")).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PaymentProviderError);
      expect((error as PaymentProviderError).cause).toBeInstanceOf(Stripe.errors.StripeAPIError);
      expect(requestsTo("/v1/checkout/sessions")).toHaveLength(3);
    });

    it("reports a refused request without retrying it", async () => {
      const lines = [{ name: "Prix impossible", unitAmountCents: -1, quantity: 1 }];
      const error = await provider.createSession(withKey("order-refused", { lines, totalCents: -1 })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PaymentProviderError);
      expect((error as PaymentProviderError).cause).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      expect((error as Error).message).toContain("unit_amount");
      expect(requestsTo("/v1/checkout/sessions")).toHaveLength(1);
    });

    it("asks for 31 minutes from the call when a 30-minute reservation has already run a while", async () => {
      const before = Date.now();
      const session = await provider.createSession(withKey("order-thirty", { expiresAt: new Date(before + 30 * 60_000 - 5_000) }));
      expect(session.id).toMatch(/^cs_/);
      const sent = Number(lastTo("/v1/checkout/sessions").body.expires_at);
      expect(sent).toBeGreaterThanOrEqual(Math.ceil(before / 1000) + 31 * 60);
      expect(sent).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 31 * 60);
    });
  });

  describe("refund", () => {
    it("sends the PaymentIntent, the amount and the idempotency key", async () => {
      const refund = await provider.refund({ paymentReference: "pi_123", amountCents: 44_998, idempotencyKey: "refund:order-1" });
      expect(refund.id).toMatch(/^re_test_/);
      const request = lastTo("/v1/refunds");
      expect(request.body).toEqual({ payment_intent: "pi_123", amount: "44998" });
      expect(request.headers["idempotency-key"]).toBe("refund:order-1");
      expect(request.headers.authorization).toBe("Bearer sk_test_comptoir");
      // Asked again (a retried job): the same refund.
      expect(await provider.refund({ paymentReference: "pi_123", amountCents: 44_998, idempotencyKey: "refund:order-1" })).toEqual(refund);
    });

    it("reports a failure as PaymentProviderError", async () => {
      fake.failNext(500, 3);
      await expect(provider.refund({ paymentReference: "pi_123", amountCents: 100, idempotencyKey: "refund:order-2" })).rejects.toBeInstanceOf(
        PaymentProviderError,
      );
    });
  });

  describe("readWebhook", () => {
    function signed(event: object, options: { secret?: string; timestamp?: number } = {}) {
      const payload = JSON.stringify(event);
      return { payload, headers: signedStripeWebhook(payload, options.secret ?? webhookSecret, options.timestamp) };
    }
    async function read(event: object) {
      const { payload, headers } = signed(event);
      return provider.readWebhook(payload, headers);
    }
    const sessionObject = (overrides: object = {}) => ({
      id: "cs_test_abc",
      object: "checkout.session",
      payment_status: "paid",
      payment_intent: "pi_abc",
      amount_total: 44_998,
      currency: "eur",
      customer_email: null,
      customer_details: { email: "marie@example.com", name: "Marie Curie", phone: "+33612345678", address: null },
      collected_information: {
        shipping_details: {
          name: "Marie Curie",
          address: { line1: "12 rue des Lilas", line2: null, postal_code: "75011", city: "Paris", country: "FR", state: null },
        },
      },
      ...overrides,
    });
    const marie = { method: "home", fullName: "Marie Curie", line1: "12 rue des Lilas", postalCode: "75011", city: "Paris", country: "FR", phone: "+33612345678" };

    it("reads a paid checkout with its shipping details", async () => {
      expect(await read(stripeEvent("checkout.session.completed", sessionObject(), "evt_paid"))).toEqual({
        id: "evt_paid",
        type: "session.completed",
        sessionId: "cs_test_abc",
        paid: true,
        paymentReference: "pi_abc",
        customerEmail: "marie@example.com",
        customerName: "Marie Curie",
        shippingAddress: marie,
        billingAddress: null,
        amountTotalCents: 44_998,
        currency: "eur",
      });
    });

    it("reads the billing address Checkout asked (customer_details), never as a relay order's delivery address", async () => {
      const relayPaid = sessionObject({
        billing_address_collection: "required",
        collected_information: null,
        customer_details: { email: "marie@example.com", name: "Pierre Curie", phone: null, address: { line1: "8 rue Cuvier", line2: "Esc. \u202eA", postal_code: "75005", city: "Paris", country: "FR", state: null } },
      });
      expect(await read(stripeEvent("checkout.session.completed", relayPaid))).toMatchObject({
        customerName: "Pierre Curie",
        shippingAddress: null,
        billingAddress: { fullName: "Pierre Curie", line1: "8 rue Cuvier", line2: "Esc. A", postalCode: "75005", city: "Paris", country: "FR" },
      });
      // A home delivery: the shipping details stay the delivery, the billing address its own.
      const home = sessionObject({ billing_address_collection: "required", customer_details: { ...relayPaid.customer_details } });
      expect(await read(stripeEvent("checkout.session.completed", home))).toMatchObject({ shippingAddress: { method: "home", fullName: "Marie Curie", line1: "12 rue des Lilas", postalCode: "75011" }, billingAddress: { fullName: "Pierre Curie", line1: "8 rue Cuvier" } });
    });

    it("reads a completed checkout still waiting for its money as unpaid", async () => {
      const pending = sessionObject({ payment_status: "unpaid", payment_intent: null });
      expect(await read(stripeEvent("checkout.session.completed", pending))).toMatchObject({ type: "session.completed", paid: false, paymentReference: null });
      const free = sessionObject({ payment_status: "no_payment_required" });
      expect(await read(stripeEvent("checkout.session.completed", free))).toMatchObject({ paid: true });
    });

    it("maps the asynchronous outcomes, the expiry, and ignores other events", async () => {
      const unpaid = sessionObject({ payment_status: "unpaid" });
      expect(await read(stripeEvent("checkout.session.async_payment_succeeded", sessionObject()))).toMatchObject({
        type: "session.async_payment_succeeded",
        paid: true,
        sessionId: "cs_test_abc",
        paymentReference: "pi_abc",
      });
      expect(await read(stripeEvent("checkout.session.async_payment_failed", unpaid))).toMatchObject({ type: "session.async_payment_failed", paid: false });
      expect(await read(stripeEvent("checkout.session.expired", unpaid))).toMatchObject({ type: "session.expired", paid: false, sessionId: "cs_test_abc" });
      expect(await read(stripeEvent("payment_intent.succeeded", { id: "pi_abc", object: "payment_intent" }, "evt_other"))).toEqual({
        id: "evt_other",
        type: "ignored",
        sessionId: null,
        paid: false,
        paymentReference: null,
        customerEmail: null,
        customerName: null,
        shippingAddress: null,
        amountTotalCents: null,
      });
    });

    it("reads older payload shapes: top-level shipping_details, billing address only, expanded PaymentIntent", async () => {
      const legacy = sessionObject({
        collected_information: null,
        shipping_details: { name: "Marie Curie", address: { line1: "12 rue des Lilas", line2: "Bât. B", postal_code: "75011", city: "Paris", country: "FR" } },
        payment_intent: { id: "pi_expanded", object: "payment_intent" },
      });
      expect(await read(stripeEvent("checkout.session.completed", legacy))).toMatchObject({
        paymentReference: "pi_expanded",
        shippingAddress: { ...marie, line2: "Bât. B" },
      });
      const billingOnly = sessionObject({
        collected_information: null,
        customer_email: "guest@example.com",
        customer_details: { email: null, name: "Paul Guest", phone: null, address: { line1: "3 quai Est", postal_code: "69002", city: "Lyon", country: "FR" } },
      });
      expect(await read(stripeEvent("checkout.session.completed", billingOnly))).toMatchObject({
        customerEmail: "guest@example.com",
        shippingAddress: { method: "home", fullName: "Paul Guest", line1: "3 quai Est", postalCode: "69002", city: "Lyon", country: "FR" },
      });
      // Control characters and bidi overrides typed on Stripe's page do not reach the seller's pages or the e-mails.
      const odd = sessionObject({
        collected_information: null,
        customer_details: { email: "a@b.fr", name: "Paul \u202eGuest", phone: null, address: { line1: "3 quai\u0007 Est", line2: "\u2066", postal_code: "69002", city: "Lyon", country: "FR" } },
      });
      expect(await read(stripeEvent("checkout.session.completed", odd))).toMatchObject({
        customerName: "Paul Guest",
        shippingAddress: { method: "home", fullName: "Paul Guest", line1: "3 quai Est", postalCode: "69002", city: "Lyon", country: "FR" },
      });
      expect((await read(stripeEvent("checkout.session.completed", odd))).shippingAddress).not.toHaveProperty("line2");
      const none = sessionObject({ collected_information: null, customer_details: { email: "a@b.fr", name: null, phone: null, address: null } });
      expect(await read(stripeEvent("checkout.session.completed", none))).toMatchObject({ shippingAddress: null, customerName: null });
    });

    it("refuses a tampered body, another secret, an old signature and a missing header", async () => {
      const good = signed(stripeEvent("checkout.session.completed", sessionObject()));
      const tampered = good.payload.replace('"amount_total":44998', '"amount_total":44999');
      expect(tampered).not.toBe(good.payload);
      await expect(provider.readWebhook(tampered, good.headers)).rejects.toBeInstanceOf(WebhookSignatureError);

      const other = signed(stripeEvent("checkout.session.completed", sessionObject()), { secret: "whsec_someone_else" });
      await expect(provider.readWebhook(other.payload, other.headers)).rejects.toBeInstanceOf(WebhookSignatureError);

      const replayed = signed(stripeEvent("checkout.session.completed", sessionObject()), { timestamp: Math.floor(Date.now() / 1000) - 600 });
      await expect(provider.readWebhook(replayed.payload, replayed.headers)).rejects.toBeInstanceOf(WebhookSignatureError);

      await expect(provider.readWebhook(good.payload, new Headers())).rejects.toBeInstanceOf(WebhookSignatureError);
      await expect(provider.readWebhook(good.payload, new Headers({ "stripe-signature": "garbage" }))).rejects.toBeInstanceOf(WebhookSignatureError);
      // The untouched delivery still goes through.
      await expect(provider.readWebhook(good.payload, good.headers)).resolves.toMatchObject({ paid: true });
    });
  });

  it("expires an open session when the buyer cancels", async () => {
    await provider.expireSession("cs_test_cancelled");
    const request = fake.requests.findLast((r) => r.path.endsWith("/expire"))!;
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/v1/checkout/sessions/cs_test_cancelled/expire");
  });
});
