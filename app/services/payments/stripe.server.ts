import Stripe from "stripe";
import type { ShippingAddress } from "~/domain/order-view";
import { SHIPPING_COUNTRY_CODES } from "~/domain/shipping-countries";
import { type PaymentEvent, type PaymentProvider, PaymentProviderError, WebhookSignatureError } from "./types";

/**
 * Stripe Checkout behind the shop's payment interface, on the official SDK. STRIPE_API_BASE
 * points the SDK at another Stripe-compatible server (tests, stripe-mock).
 */
export function createStripeProvider(options: { secretKey: string; webhookSecret: string; apiBase?: string }): PaymentProvider {
  const base = options.apiBase ? new URL(options.apiBase) : null;
  const stripe = new Stripe(options.secretKey, {
    maxNetworkRetries: 2,
    timeout: 15_000,
    telemetry: false,
    ...(base
      ? { host: base.hostname, port: base.port || (base.protocol === "https:" ? 443 : 80), protocol: base.protocol === "https:" ? "https" : "http" }
      : {}),
  });

  return {
    name: "stripe",
    async createSession(input) {
      try {
        let discounts: Stripe.Checkout.SessionCreateParams.Discount[] | undefined;
        if (input.discountCents > 0) {
          const coupon = await stripe.coupons.create(
            { amount_off: input.discountCents, currency: "eur", duration: "once", name: "Réduction" },
            { idempotencyKey: `${input.idempotencyKey}:coupon` },
          );
          discounts = [{ coupon: coupon.id }];
        }
        const metadata = { orderId: input.orderId, orderNumber: input.orderNumber };
        const session = await stripe.checkout.sessions.create(
          {
            mode: "payment",
            locale: "fr",
            line_items: input.lines.map((line) => ({
              quantity: line.quantity,
              price_data: { currency: "eur", unit_amount: line.unitAmountCents, product_data: { name: line.name } },
            })),
            ...(discounts ? { discounts } : {}),
            ...(input.customerEmail ? { customer_email: input.customerEmail } : {}),
            shipping_address_collection: { allowed_countries: [...SHIPPING_COUNTRY_CODES] },
            phone_number_collection: { enabled: true },
            // Stripe refuses less than 30 minutes ahead: the reservation lasts at least that.
            expires_at: Math.floor(input.expiresAt.getTime() / 1000),
            metadata,
            client_reference_id: input.orderNumber,
            payment_intent_data: { metadata },
            success_url: input.successUrl,
            cancel_url: input.cancelUrl,
          },
          { idempotencyKey: input.idempotencyKey },
        );
        if (!session.url) throw new Error("Stripe returned a session without url");
        return { id: session.id, url: session.url };
      } catch (error) {
        throw new PaymentProviderError(`Stripe: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
    },

    async readWebhook(rawBody, headers) {
      const signature = headers.get("stripe-signature");
      if (!signature) throw new WebhookSignatureError("Signature Stripe absente");
      let event: Stripe.Event;
      try {
        event = await stripe.webhooks.constructEventAsync(rawBody, signature, options.webhookSecret);
      } catch (error) {
        throw new WebhookSignatureError(error instanceof Error ? error.message : "Signature Stripe invalide");
      }
      return toPaymentEvent(event);
    },

    async refund(input) {
      try {
        const refund = await stripe.refunds.create({ payment_intent: input.paymentReference, amount: input.amountCents }, { idempotencyKey: input.idempotencyKey });
        return { id: refund.id };
      } catch (error) {
        throw new PaymentProviderError(`Stripe refund: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
    },
  };
}

const TYPES: Partial<Record<Stripe.Event["type"], PaymentEvent["type"]>> = {
  "checkout.session.completed": "session.completed",
  "checkout.session.async_payment_succeeded": "session.async_payment_succeeded",
  "checkout.session.async_payment_failed": "session.async_payment_failed",
  "checkout.session.expired": "session.expired",
};

function toPaymentEvent(event: Stripe.Event): PaymentEvent {
  const type = TYPES[event.type] ?? "ignored";
  const ignored: PaymentEvent = {
    id: event.id,
    type: "ignored",
    sessionId: null,
    paid: false,
    paymentReference: null,
    customerEmail: null,
    customerName: null,
    shippingAddress: null,
    amountTotalCents: null,
  };
  if (type === "ignored") return ignored;
  const session = event.data.object as Stripe.Checkout.Session;
  const paid =
    type === "session.async_payment_succeeded" ||
    (type === "session.completed" && (session.payment_status === "paid" || session.payment_status === "no_payment_required"));
  return {
    id: event.id,
    type,
    sessionId: session.id,
    paid,
    paymentReference: typeof session.payment_intent === "string" ? session.payment_intent : (session.payment_intent?.id ?? null),
    customerEmail: session.customer_details?.email ?? session.customer_email ?? null,
    customerName: session.customer_details?.name ?? null,
    shippingAddress: shippingOf(session),
    amountTotalCents: session.amount_total ?? null,
  };
}

type StripeAddress = { line1?: string | null; line2?: string | null; postal_code?: string | null; city?: string | null; country?: string | null } | null | undefined;

function shippingOf(session: Stripe.Checkout.Session): ShippingAddress | null {
  // Newer API versions put it under collected_information, older ones at the top.
  const legacy = (session as unknown as { shipping_details?: { name?: string | null; address?: StripeAddress } | null }).shipping_details;
  const shipping = session.collected_information?.shipping_details ?? legacy ?? null;
  const address: StripeAddress = shipping?.address ?? session.customer_details?.address;
  if (!address?.line1) return null;
  return {
    method: "home",
    fullName: shipping?.name ?? session.customer_details?.name ?? "",
    line1: address.line1,
    ...(address.line2 ? { line2: address.line2 } : {}),
    postalCode: address.postal_code ?? "",
    city: address.city ?? "",
    country: address.country ?? "",
    ...(session.customer_details?.phone ? { phone: session.customer_details.phone } : {}),
  };
}
