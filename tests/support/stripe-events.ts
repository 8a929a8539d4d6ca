import { randomBytes } from "node:crypto";
import Stripe from "stripe";

/**
 * Stripe's webhook deliveries, built as Stripe sends them: an event about one object (a Checkout
 * Session), and its `stripe-signature` header made by the official SDK with the endpoint's secret.
 */

/** An event as Stripe posts it to a webhook endpoint; a new id unless one is given (a retry keeps its event's id). */
export function stripeEvent(type: string, object: object, id = `evt_test_${randomBytes(12).toString("hex")}`) {
  return {
    id,
    object: "event",
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  };
}

/** The headers of a delivery of `payload`, signed at `timestamp` (Unix seconds; now by default). */
export function signedStripeWebhook(payload: string, secret: string, timestamp?: number): Headers {
  return new Headers({ "content-type": "application/json", "stripe-signature": Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp }) });
}
