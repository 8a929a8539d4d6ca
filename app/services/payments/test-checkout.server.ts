import { and, eq, gt } from "drizzle-orm";
import { orders, testPaymentSessions } from "~/db/schema";
import type { Db } from "~/db/types";
import type { OrderStatus } from "~/domain/catalog-values";
import { billingAddressOf } from "~/domain/billing-address";
import { mixedCartShippingText } from "~/domain/preorder-shipping";
import { type PaymentDelivery, shippingAddressOf } from "~/domain/delivery-address-form";
import { type TestPaymentForm, testCardOutcome } from "~/domain/test-payment-form";
import { receiveWebhook, type WebhookDeps } from "../payment-webhooks.server";
import { newId, type TestProvider, testWebhook } from "./test-provider.server";
import type { SessionLine } from "./types";

/** The hosted test page's view of a session. */
export type TestSessionView = {
  id: string;
  orderNumber: string;
  lines: SessionLine[];
  discountCents: number;
  storeCreditCents: number;
  totalCents: number;
  customerEmail: string | null;
  /** "cancelled": ended before its time, by the buyer's "Annuler" (stored as expired, as Stripe does). */
  status: "open" | "complete" | "expired" | "cancelled";
  expiresAt: string;
  cancelUrl: string;
  orderStatus: OrderStatus | null;
  /** The order's delivery as chosen in the cart: the page asks the address that goes with it. */
  /** `note`: how an order mixing pre-orders and items in stock ships (decision 062), or null. */
  delivery: PaymentDelivery & { name: string; deliveryTime: string; note: string | null };
  /** An "Achat professionnel": the company's billing country given in the cart, where the billing address must be; null for a consumer. */
  businessCountry: string | null;
  /** An exempt intra-EU supply (docs/decisions/054): the total charged is before VAT. */
  exemptIntraEu: boolean;
  /** The signed-in customer who ordered (their address book is proposed), null for a guest. */
  userId: string | null;
};

export async function getTestSession(db: Db, id: string, now = new Date()): Promise<TestSessionView | null> {
  if (!/^cs_test_[A-Za-z0-9_-]{10,64}$/.test(id)) return null;
  const [row] = await db
    .select({
      session: testPaymentSessions,
      orderStatus: orders.status,
      userId: orders.userId,
      shippingKind: orders.shippingKind,
      shippingCountry: orders.shippingCountry,
      shippingMethodName: orders.shippingMethodName,
      shippingDeliveryTime: orders.shippingDeliveryTime,
      shippingAddress: orders.shippingAddress,
      businessBuyer: orders.businessBuyer,
      vatRegime: orders.vatRegime,
      preorderShipping: orders.preorderShipping,
    })
    .from(testPaymentSessions)
    .leftJoin(orders, eq(orders.id, testPaymentSessions.orderId))
    .where(eq(testPaymentSessions.id, id));
  if (!row) return null;
  const { session } = row;
  const expired = session.status === "expired" || (session.status === "open" && session.expiresAt <= now);
  // The reservation's end expires a session at its time or later: one ended sooner was cancelled.
  const cancelled = session.status === "expired" && session.expiresAt > now;
  return {
    id: session.id,
    orderNumber: session.orderNumber,
    lines: session.lines,
    discountCents: session.discountCents,
    storeCreditCents: session.storeCreditCents,
    totalCents: session.totalCents,
    customerEmail: session.customerEmail,
    status: cancelled ? "cancelled" : expired ? "expired" : session.status,
    expiresAt: session.expiresAt.toISOString(),
    cancelUrl: session.cancelUrl,
    orderStatus: row.orderStatus,
    delivery: {
      kind: row.shippingKind ?? "home",
      country: row.shippingCountry ?? "FR",
      relayPoint: row.shippingKind === "relay" ? (row.shippingAddress ?? null) : null,
      name: row.shippingMethodName ?? "Livraison",
      deliveryTime: row.shippingDeliveryTime ?? "",
      note: row.preorderShipping ? mixedCartShippingText(row.preorderShipping) : null,
    },
    businessCountry: row.businessBuyer?.country ?? null,
    exemptIntraEu: row.vatRegime === "intra_eu_exempt",
    userId: row.userId,
  };
}

export type PayResult =
  | { ok: true; redirectTo: string }
  | { ok: false; reason: "declined" | "unknown-card" | "expired" | "cancelled" | "not-open" };

/**
 * "Payer": a test card is charged, the session completes, and its event goes through the same
 * signed webhook path as Stripe's (receiveWebhook), then the buyer goes to the success URL.
 */
export async function payTestSession(db: Db, provider: TestProvider, id: string, form: TestPaymentForm, delivery: PaymentDelivery, deps: WebhookDeps, business = false): Promise<PayResult> {
  const outcome = testCardOutcome(form.cardNumber);
  if (outcome === "declined") return { ok: false, reason: "declined" };
  if (outcome === "unknown") return { ok: false, reason: "unknown-card" };
  const paymentReference = newId("pi_test");
  const now = new Date();
  // One payment per session, and never after its expiry (the reservation has ended by then).
  const [session] = await db
    .update(testPaymentSessions)
    .set({ status: "complete", paymentReference, ...(form.email ? { customerEmail: form.email } : {}) })
    .where(and(eq(testPaymentSessions.id, id), eq(testPaymentSessions.status, "open"), gt(testPaymentSessions.expiresAt, now)))
    .returning();
  if (!session) {
    const current = await getTestSession(db, id, now);
    return { ok: false, reason: current?.status === "expired" || current?.status === "cancelled" ? current.status : "not-open" };
  }
  const address = shippingAddressOf(form, delivery);
  const webhook = testWebhook(provider, "checkout.session.completed", {
    sessionId: session.id,
    paid: true,
    paymentReference,
    customerEmail: session.customerEmail,
    customerName: address.fullName,
    shippingAddress: address,
    billingAddress: billingAddressOf(form, address, business),
    amountTotalCents: session.totalCents,
    currency: "eur",
  });
  const received = await receiveWebhook(db, provider, webhook.raw, webhook.headers, deps);
  if (received.status !== 200) throw new Error(`test webhook refused: ${received.body.error}`);
  return { ok: true, redirectTo: session.successUrl.replace("{CHECKOUT_SESSION_ID}", encodeURIComponent(session.id)) };
}

/** "Annuler": the session expires, which releases the stock (same webhook path), back to the cart. */
export async function cancelTestSession(db: Db, provider: TestProvider, id: string, deps: WebhookDeps): Promise<string | null> {
  const [session] = await db
    .update(testPaymentSessions)
    .set({ status: "expired" })
    .where(and(eq(testPaymentSessions.id, id), eq(testPaymentSessions.status, "open")))
    .returning();
  if (!session) {
    const current = await getTestSession(db, id);
    return current ? current.cancelUrl : null;
  }
  const webhook = testWebhook(provider, "checkout.session.expired", {
    sessionId: session.id,
    paid: false,
    paymentReference: null,
    customerEmail: session.customerEmail,
    customerName: null,
    shippingAddress: null,
    amountTotalCents: session.totalCents,
    currency: "eur",
  });
  const received = await receiveWebhook(db, provider, webhook.raw, webhook.headers, deps);
  if (received.status !== 200) throw new Error(`test webhook refused: ${received.body.error}`);
  return session.cancelUrl;
}
