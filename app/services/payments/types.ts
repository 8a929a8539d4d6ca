import type { BillingAddress } from "~/domain/order-view";
import type { ShippingAddress } from "~/db/schema/orders";
import { brand, hasBrand } from "~/lib/process-shared";

/**
 * One small interface for every payment provider: the built-in test page and Stripe Checkout.
 * The checkout and webhook services only ever talk to this (docs/decisions/007).
 */
/** `description`: said under the name (a pre-order's dates, issue 55); absent otherwise. */
export type SessionLine = { name: string; unitAmountCents: number; quantity: number; description?: string };

/** The delivery as the server priced it: Stripe charges it as a shipping option, the test page as a line. */
/** `note`: how an order mixing pre-orders and items in stock ships (decision 062); absent otherwise. */
export type SessionShipping = { name: string; kind: "home" | "relay" | "letter"; deliveryTime: string; amountCents: number; country: string; note?: string };

export type CreateSessionInput = {
  orderId: string;
  orderNumber: string;
  /** Product lines, then insurance as its own line when chosen. */
  lines: SessionLine[];
  shipping: SessionShipping;
  /** Discount already computed by the server (0 when none). */
  discountCents: number;
  /** The code that gave it, shown by the provider beside the discount. */
  discountCode?: string | null;
  /** Paid from the customer's store credit (0 when none): not charged, shown apart from the discount. */
  storeCreditCents: number;
  /** What the customer pays by card: sum of lines and delivery minus the discount and the store credit. */
  totalCents: number;
  /** Said beside the total when it is before VAT (an exempt intra-EU supply, docs/decisions/054); absent otherwise. */
  vatNote?: string | null;
  /** A signed-in customer's address; a guest gives it on the payment page. */
  customerEmail: string | null;
  successUrl: string;
  cancelUrl: string;
  /** The order's reserved_until: the session cannot be paid after it. */
  expiresAt: Date;
  /** The order id: asking twice gives the same session. */
  idempotencyKey: string;
};

export type CreatedSession = { id: string; url: string };

/** A provider event, read from a signed webhook and reduced to what the shop needs. */
export type PaymentEvent = {
  /** The provider's event id: handled once (payment_events). */
  id: string;
  type:
    | "session.completed" // checkout finished: paid, or an asynchronous payment still pending
    | "session.async_payment_succeeded"
    | "session.async_payment_failed"
    | "session.expired"
    | "ignored"; // any other event type: acknowledged, nothing to do
  sessionId: string | null;
  /** Whether the money is there (completed with payment_status paid, or async succeeded). */
  paid: boolean;
  /** What a refund needs (Stripe: the PaymentIntent id). */
  paymentReference: string | null;
  customerEmail: string | null;
  customerName: string | null;
  shippingAddress: ShippingAddress | null;
  /** The billing address the buyer gave (« Facturé à »); absent or null when the provider did not ask it. */
  billingAddress?: BillingAddress | null;
  amountTotalCents: number | null;
  /** ISO 4217, lower case as Stripe writes it ("eur"); null or absent when the provider does not say. */
  currency?: string | null;
};

const WEBHOOK_SIGNATURE = brand("WebhookSignatureError");
const PROVIDER_FAILURE = brand("PaymentProviderError");

/**
 * Thrown by a provider the Node entry created and caught by a route of the React Router build:
 * `instanceof` must hold across the two copies of this module (lib/process-shared.ts).
 */
export class WebhookSignatureError extends Error {
  readonly [WEBHOOK_SIGNATURE] = true;
  static [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, WEBHOOK_SIGNATURE);
  }

  constructor(message = "Signature invalide") {
    super(message);
    this.name = "WebhookSignatureError";
  }
}

export class PaymentProviderError extends Error {
  readonly [PROVIDER_FAILURE] = true;
  static [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, PROVIDER_FAILURE);
  }

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "PaymentProviderError";
  }
}

export type PaymentProvider = {
  readonly name: "test" | "stripe";
  createSession(input: CreateSessionInput): Promise<CreatedSession>;
  /**
   * Verifies the signature on the raw body (exactly as received) and reads the event.
   * Throws WebhookSignatureError when the signature or the body is not right.
   */
  readWebhook(rawBody: string, headers: Headers): Promise<PaymentEvent>;
  /**
   * Closes an open session so it can no longer be paid (the buyer cancelled); throws when the
   * provider refuses, e.g. because it was paid meanwhile.
   */
  expireSession(sessionId: string): Promise<void>;
  /** Refunds a whole payment; the idempotency key makes a retry safe. */
  refund(input: { paymentReference: string; amountCents: number; idempotencyKey: string }): Promise<{ id: string }>;
};
