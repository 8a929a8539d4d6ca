import Stripe from "stripe";
import type { BillingAddress, ShippingAddress } from "~/domain/order-view";
import { SHIPPING_COUNTRY_CODES } from "~/domain/shipping-countries";
import { withoutForbiddenCharacters } from "~/domain/text-rules";
import { type PaymentEvent, type PaymentProvider, PaymentProviderError, type SessionLine, WebhookSignatureError } from "./types";

/**
 * Stripe Checkout behind the shop's payment interface, on the official SDK. STRIPE_API_BASE
 * points the SDK at another Stripe-compatible server (tests, stripe-mock).
 *
 * No apiVersion: the SDK always sends the version its types describe (Stripe-Version header),
 * whatever the account's default is.
 */
export function createStripeProvider(options: { secretKey: string; webhookSecret: string; apiBase?: string; termsOfService?: boolean }): PaymentProvider {
  const stripe = new Stripe(options.secretKey, {
    // Retries reuse the idempotency key, so a retried POST never creates a second session or refund.
    maxNetworkRetries: 2,
    timeout: 15_000,
    ...(options.apiBase ? serverOf(options.apiBase) : {}),
  });

  return {
    name: "stripe",

    async createSession(input) {
      try {
        let discounts: Stripe.Checkout.SessionCreateParams.Discount[] | undefined;
        const off = checkoutDeductions(input);
        if (off.couponCents > 0) {
          // Checkout only takes a discount as a coupon; its own key keeps a retry to one coupon. The
          // store credit is not a discount, yet it is what Checkout must not charge: it rides along.
          const coupon = await stripe.coupons.create(
            // Stripe shows the name beside the discount (40 characters at most).
            { amount_off: off.couponCents, currency: "eur", duration: "once", name: stripeCouponName(input) },
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
              price_data: { currency: "eur", unit_amount: line.unitAmountCents, product_data: { name: line.name, ...(line.description ? { description: line.description } : {}) } },
            })),
            ...(discounts ? { discounts } : {}),
            ...(input.customerEmail ? { customer_email: input.customerEmail } : {}),
            // The delivery the server priced, as Stripe's one shipping option: Checkout charges exactly it.
            shipping_options: [
              {
                shipping_rate_data: {
                  type: "fixed_amount",
                  fixed_amount: { amount: off.shippingCents, currency: "eur" },
                  display_name: (off.shippingCents < input.shipping.amountCents ? `${input.shipping.name} (avoir déduit)` : input.shipping.name).slice(0, 100),
                  ...(input.shipping.deliveryTime ? { metadata: { deliveryTime: input.shipping.deliveryTime } } : {}),
                },
              },
            ],
            // A relay point's address was given in the cart; otherwise the address is asked, in the
            // country the delivery was priced for only.
            ...(input.shipping.kind === "relay" ? {} : { shipping_address_collection: { allowed_countries: [stripeCountry(input.shipping.country)] } }),
            // The invoice names the buyer's address (« Facturé à »): Checkout asks it, the delivery's
            // by default for a home delivery, always for a relay point (no shipping address there).
            billing_address_collection: "required",
            phone_number_collection: { enabled: true },
            // The button says "Payer" (L221-14: ordering means paying).
            submit_type: "pay",
            // An exempt intra-EU supply: the amounts are before VAT, and the page says why.
            // A mixed pre-order cart's shipping is said there too, as the cart said it.
            ...(input.vatNote || input.shipping.note
              ? { custom_text: { submit: { message: [input.vatNote ? `Total hors TVA. ${input.vatNote}.` : null, input.shipping.note ?? null].filter(Boolean).join(" ") } } }
              : {}),
            // The CGV ticked before paying (art. 1119 Code civil), only where the account has its terms
            // URL set: Stripe refuses the session otherwise (STRIPE_TERMS_OF_SERVICE, decision 044).
            ...(options.termsOfService ? { consent_collection: { terms_of_service: "required" as const } } : {}),
            expires_at: stripeExpiry(input.expiresAt, Date.now()),
            metadata,
            client_reference_id: input.orderNumber,
            // On the PaymentIntent too, so the order is findable from a payment in the dashboard.
            payment_intent_data: { metadata },
            success_url: input.successUrl,
            cancel_url: input.cancelUrl,
          },
          { idempotencyKey: input.idempotencyKey },
        );
        if (!session.url) throw new Error("session sans url");
        return { id: session.id, url: session.url };
      } catch (error) {
        throw new PaymentProviderError(`Stripe : ${messageOf(error)}`, { cause: error });
      }
    },

    async readWebhook(rawBody, headers) {
      let event: Stripe.Event;
      try {
        // The SDK refuses a missing header, a wrong secret, a changed body and an old timestamp (5 min).
        event = await stripe.webhooks.constructEventAsync(rawBody, headers.get("stripe-signature") ?? "", options.webhookSecret);
      } catch (error) {
        throw new WebhookSignatureError(`Signature Stripe invalide : ${messageOf(error)}`);
      }
      return toPaymentEvent(event);
    },

    async expireSession(sessionId) {
      try {
        await stripe.checkout.sessions.expire(sessionId);
      } catch (error) {
        throw new PaymentProviderError(`Stripe (expiration) : ${messageOf(error)}`, { cause: error });
      }
    },

    async refund(input) {
      try {
        const refund = await stripe.refunds.create(
          { payment_intent: input.paymentReference, amount: input.amountCents },
          { idempotencyKey: input.idempotencyKey },
        );
        return { id: refund.id };
      } catch (error) {
        throw new PaymentProviderError(`Stripe (remboursement) : ${messageOf(error)}`, { cause: error });
      }
    },
  };
}

/**
 * Stripe refuses an expiry less than 30 minutes after it creates the session, by its own clock.
 * A 30-minute reservation (the default) has already begun when the request leaves, and the
 * request takes time to arrive: sent as is, it was refused whenever a second ticked over on
 * the way (seen under load). So the session lasts at least 31 minutes from the call; a payment
 * made in the minute after the reservation ended is a late payment (payment-webhooks.server.ts:
 * the units are taken again if still there, else the money goes back).
 */
const STRIPE_MIN_EXPIRY_S = 31 * 60;

function stripeExpiry(reservedUntil: Date, nowMs: number): number {
  return Math.max(Math.floor(reservedUntil.getTime() / 1000), Math.ceil(nowMs / 1000) + STRIPE_MIN_EXPIRY_S);
}

type AllowedCountry = Stripe.Checkout.SessionCreateParams.ShippingAddressCollection.AllowedCountry;

function stripeCountry(code: string): AllowedCountry {
  const known = SHIPPING_COUNTRY_CODES.find((candidate) => candidate === code);
  if (!known) throw new Error(`pays de livraison inconnu : ${code}`);
  return known;
}

/** The SDK takes host, port and protocol apart; a path in the URL would be ignored by it. */
function serverOf(apiBase: string): { host: string; port: number; protocol: "http" | "https" } {
  const url = new URL(apiBase);
  const protocol = url.protocol === "http:" ? "http" : "https";
  return { host: url.hostname, port: url.port ? Number(url.port) : protocol === "http" ? 80 : 443, protocol };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function toPaymentEvent(event: Stripe.Event): PaymentEvent {
  switch (event.type) {
    case "checkout.session.completed": {
      const session = event.data.object;
      const paid = session.payment_status === "paid" || session.payment_status === "no_payment_required";
      return fromSession(event.id, "session.completed", session, paid);
    }
    case "checkout.session.async_payment_succeeded":
      return fromSession(event.id, "session.async_payment_succeeded", event.data.object, true);
    case "checkout.session.async_payment_failed":
      return fromSession(event.id, "session.async_payment_failed", event.data.object, false);
    case "checkout.session.expired":
      return fromSession(event.id, "session.expired", event.data.object, false);
    default:
      return {
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
  }
}

function fromSession(id: string, type: PaymentEvent["type"], session: Stripe.Checkout.Session, paid: boolean): PaymentEvent {
  return {
    id,
    type,
    sessionId: session.id,
    paid,
    // A string, or the PaymentIntent itself when a webhook was built with it expanded.
    paymentReference: typeof session.payment_intent === "string" ? session.payment_intent : (session.payment_intent?.id ?? null),
    customerEmail: session.customer_details?.email ?? session.customer_email ?? null,
    customerName: session.customer_details?.name ? withoutForbiddenCharacters(session.customer_details.name) : null,
    shippingAddress: shippingOf(session),
    billingAddress: billingOf(session),
    amountTotalCents: session.amount_total ?? null,
    currency: session.currency ?? null,
  };
}

type StripeAddress = { line1?: string | null; line2?: string | null; postal_code?: string | null; city?: string | null; country?: string | null };
type StripeShipping = { name?: string | null; address?: StripeAddress | null } | null | undefined;

function shippingOf(session: Stripe.Checkout.Session): ShippingAddress | null {
  // The webhook endpoint's API version decides the shape: collected_information since 2025-03-31,
  // shipping_details at the top before (absent from the SDK's types).
  const legacy = (session as { shipping_details?: StripeShipping }).shipping_details;
  const shipping: StripeShipping = session.collected_information?.shipping_details ?? legacy;
  // customer_details.address is the billing address when Checkout asked it (sessions since issue
  // 51): never a delivery address, least of all a relay point's order.
  const address = shipping?.address ?? (session.billing_address_collection === "required" ? null : session.customer_details?.address);
  if (!address?.line1) return null;
  // Shown on the seller's pages and in the e-mails, as the test page's address (no controls, no bidi overrides).
  const clean = (value: string | null | undefined) => withoutForbiddenCharacters(value ?? "");
  const [phone, line2] = [clean(session.customer_details?.phone), clean(address.line2)];
  return {
    method: "home",
    fullName: clean(shipping?.name ?? session.customer_details?.name),
    line1: clean(address.line1),
    ...(line2 ? { line2 } : {}),
    postalCode: clean(address.postal_code),
    city: clean(address.city),
    country: clean(address.country),
    ...(phone ? { phone } : {}),
  };
}

/** The billing address Checkout collected (billing_address_collection "required"), or null. */
function billingOf(session: Stripe.Checkout.Session): BillingAddress | null {
  if (session.billing_address_collection !== "required") return null;
  const address = session.customer_details?.address;
  if (!address?.line1) return null;
  const clean = (value: string | null | undefined) => withoutForbiddenCharacters(value ?? "");
  const line2 = clean(address.line2);
  return {
    fullName: clean(session.customer_details?.name),
    line1: clean(address.line1),
    ...(line2 ? { line2 } : {}),
    postalCode: clean(address.postal_code),
    city: clean(address.city),
    country: clean(address.country),
  };
}

/**
 * What Checkout must not charge (the code's discount and the store credit), as Stripe can take it:
 * a coupon only reduces the goods, never the delivery, so a credit larger than the goods pays the
 * rest of it by lowering the delivery's amount. Checkout then charges exactly total − credit.
 */
export function checkoutDeductions(input: { lines: readonly SessionLine[]; shipping: { amountCents: number }; discountCents: number; storeCreditCents: number }): { couponCents: number; shippingCents: number } {
  const goodsCents = input.lines.reduce((sum, line) => sum + line.unitAmountCents * line.quantity, 0);
  const offCents = input.discountCents + input.storeCreditCents;
  const couponCents = Math.min(offCents, goodsCents);
  return { couponCents, shippingCents: Math.max(0, input.shipping.amountCents - (offCents - couponCents)) };
}

/** The coupon's name: the code, the store credit, or both (40 characters at most). */
function stripeCouponName(input: { discountCents: number; discountCode?: string | null; storeCreditCents: number }): string {
  const code = input.discountCents > 0 ? (input.discountCode ? `Code ${input.discountCode}` : "Réduction") : null;
  const credit = input.storeCreditCents > 0 ? "Avoir" : null;
  return [code, credit].filter(Boolean).join(" + ").slice(0, 40);
}
