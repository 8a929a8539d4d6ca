import { eq } from "drizzle-orm";
import { testPaymentSessions, testRefunds } from "~/db/schema";
import type { ShippingAddress } from "~/db/schema/orders";
import type { BillingAddress } from "~/domain/order-view";
import type { Db } from "~/db/types";
import { TEST_SIGNATURE_HEADER, signPayload } from "~/services/payments/signature";
import { createStripeProvider } from "~/services/payments/stripe.server";
import { createTestProvider, testWebhook } from "~/services/payments/test-provider.server";
import type { PaymentProvider } from "~/services/payments/types";
import { type StripeObject, startFakeStripe } from "./fake-stripe-server";
import { signedStripeWebhook, stripeEvent } from "./stripe-events";

/**
 * A payment provider with what a test needs to play its side: the webhook deliveries it would
 * send, signed as it signs them, and the refunds it made. The webhook tests run on each rig: the
 * built-in test provider, and the Stripe adapter (official SDK) against the local fake Stripe.
 */
export type PaymentRig = {
  provider: PaymentProvider;
  /**
   * A new event about a session, signed now, as the provider posts it to the shop; the amount is
   * the one the provider's session charges.
   */
  event(type: WebhookType, sessionId: string, payment: BuyerPayment): Promise<Delivery>;
  /**
   * `raw` signed again: the provider's retry of an event (same body and id, a new signature
   * time), or, with another secret or an old time, a forgery.
   */
  sign(raw: string, options?: { secret?: string; timestamp?: number }): Headers;
  /** The refunds the provider made under an order's idempotency key (`refund:{order id}`). */
  refundsOf(orderId: string): Promise<{ id: string; amountCents: number; paymentReference: string }[]>;
  close(): Promise<void>;
};

export type WebhookType = "checkout.session.completed" | "checkout.session.expired" | "checkout.session.async_payment_failed";

/** What the buyer gave and paid on the provider's page. */
export type BuyerPayment = {
  paid: boolean;
  paymentReference: string | null;
  customerEmail: string | null;
  customerName: string | null;
  shippingAddress: ShippingAddress | null;
  /** The billing address typed on the provider's page (Stripe: customer_details, the delivery's when absent). */
  billingAddress?: BillingAddress | null;
};

export type Delivery = { raw: string; headers: Headers };

export const paymentRigs: { label: string; open(db: Db): Promise<PaymentRig> }[] = [
  { label: "the test provider", open: openTestProviderRig },
  { label: "Stripe through the official SDK", open: openStripeRig },
];

async function openTestProviderRig(db: Db): Promise<PaymentRig> {
  const secret = "integration-secret";
  const provider = createTestProvider({ db, secret });
  return {
    provider,
    async event(type, sessionId, payment) {
      const [session] = await db.select({ totalCents: testPaymentSessions.totalCents }).from(testPaymentSessions).where(eq(testPaymentSessions.id, sessionId));
      if (!session) throw new Error(`no test payment session ${sessionId}`);
      return testWebhook(provider, type, { sessionId, ...payment, amountTotalCents: session.totalCents, currency: "eur" });
    },
    sign: (raw, options = {}) => new Headers({ [TEST_SIGNATURE_HEADER]: signPayload(raw, options.secret ?? secret, options.timestamp) }),
    refundsOf: (orderId) =>
      db.select({ id: testRefunds.id, amountCents: testRefunds.amountCents, paymentReference: testRefunds.paymentReference }).from(testRefunds).where(eq(testRefunds.idempotencyKey, `refund:${orderId}`)),
    close: async () => {},
  };
}

async function openStripeRig(): Promise<PaymentRig> {
  const fake = await startFakeStripe();
  const webhookSecret = "whsec_test_comptoir";
  const sign = (raw: string, options: { secret?: string; timestamp?: number } = {}) => signedStripeWebhook(raw, options.secret ?? webhookSecret, options.timestamp);
  return {
    provider: createStripeProvider({ secretKey: "sk_test_comptoir", webhookSecret, apiBase: fake.url }),
    async event(type, sessionId, payment) {
      const created = fake.sessions.get(sessionId);
      if (!created) throw new Error(`no Checkout Session ${sessionId} on the fake Stripe`);
      const raw = JSON.stringify(stripeEvent(type, checkoutSessionAfter(type, created, payment)));
      return { raw, headers: sign(raw) };
    },
    sign,
    async refundsOf(orderId) {
      const made = fake.refunds.filter((refund) => fake.idempotencyKeyOf(String(refund.id)) === `refund:${orderId}`);
      return made.map((refund) => ({ id: String(refund.id), amountCents: Number(refund.amount), paymentReference: String(refund.payment_intent) }));
    },
    close: () => fake.close(),
  };
}

/**
 * The session the shop created, as a checkout.session.* event carries it once the buyer has been
 * through Checkout: its state, the PaymentIntent, the buyer's details and the address collected
 * (collected_information, Stripe's shape since API version 2025-03-31).
 */
function checkoutSessionAfter(type: WebhookType, created: StripeObject, payment: BuyerPayment): StripeObject {
  const address = payment.shippingAddress;
  return {
    ...created,
    status: type === "checkout.session.expired" ? "expired" : "complete",
    payment_status: payment.paid ? "paid" : "unpaid",
    payment_intent: payment.paymentReference,
    // With billing_address_collection "required", customer_details holds the billing name and address.
    customer_details: {
      email: payment.customerEmail,
      name: payment.billingAddress?.fullName ?? payment.customerName,
      phone: address?.phone ?? null,
      address: payment.billingAddress ? stripeAddress(payment.billingAddress) : address && stripeAddress(address),
    },
    collected_information: { shipping_details: address && { name: address.fullName, address: stripeAddress(address) } },
  };
}

function stripeAddress(address: ShippingAddress | BillingAddress) {
  return { line1: address.line1, line2: address.line2 ?? null, postal_code: address.postalCode, city: address.city, country: address.country, state: null };
}
