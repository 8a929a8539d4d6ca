import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { orders } from "~/db/schema";
import type { Db } from "~/db/types";
import { type CheckoutContext, startCheckout } from "~/services/checkout.server";
import { type WebhookDeps, handlePaymentEvent, receiveWebhook } from "~/services/payment-webhooks.server";
import { type TestProvider, testWebhook } from "~/services/payments/test-provider.server";
import type { PaymentEvent, PaymentProvider } from "~/services/payments/types";

/** Marie Curie's home, where the refund tests' orders go. */
export const HOME_ADDRESS = { method: "home" as const, fullName: "Marie Curie", line1: "12 rue des Lilas", postalCode: "75011", city: "Paris", country: "FR" };

/**
 * A guest's real checkout of `items`, paid through the provider's webhook path with the payment
 * reference `intent` (Stripe: the PaymentIntent its refunds name): the order row as it is then.
 * `beforePayment` changes the order before it is paid (and its invoice issued).
 */
export async function checkoutAndPay(
  db: Db,
  provider: PaymentProvider,
  items: { productId: number; quantity: number }[],
  options: { ctx: CheckoutContext; deps: WebhookDeps; intent: string; email?: string; name?: string; address?: typeof HOME_ADDRESS; beforePayment?: (orderId: string) => Promise<unknown> },
) {
  const order = await startGuestCheckout(db, provider, items, options);
  await options.beforePayment?.(order.id);
  expect(await payOrder(db, provider, order, options)).toBe("paid");
  return (await db.select().from(orders).where(eq(orders.id, order.id)))[0]!;
}

/** A guest's checkout of `items`, not paid yet: the order row. */
export async function startGuestCheckout(db: Db, provider: PaymentProvider, items: { productId: number; quantity: number }[], options: { ctx: CheckoutContext; email?: string }) {
  const started = await startCheckout(db, provider, { items, insuranceSelected: false, email: options.email ?? "marie@example.com" }, options.ctx);
  if (started.status !== 200) throw new Error(`checkout refused: ${JSON.stringify(started.body)}`);
  const [order] = await db.select().from(orders).where(eq(orders.number, started.body.orderNumber));
  return order!;
}

/** The provider's webhook saying the order is paid (reference `intent`): what the handler made of it. */
export function payOrder(
  db: Db,
  provider: PaymentProvider,
  order: typeof orders.$inferSelect,
  options: { deps: WebhookDeps; intent: string; email?: string; name?: string; address?: typeof HOME_ADDRESS },
) {
  const paid: PaymentEvent = {
    id: `evt_${order.id}`,
    type: "session.completed",
    sessionId: order.providerSessionId,
    paid: true,
    paymentReference: options.intent,
    customerEmail: options.email ?? "marie@example.com",
    customerName: options.name ?? HOME_ADDRESS.fullName,
    shippingAddress: options.address ?? HOME_ADDRESS,
    amountTotalCents: order.totalCents,
  };
  return handlePaymentEvent(db, provider, paid, options.deps);
}

/**
 * The test provider's signed webhook, through the HTTP path's receiver, saying the order is paid by
 * `email` to be delivered at `address` (reference `pi_<number>`): the outcome the receiver gave.
 */
export async function payByTestWebhook(db: Db, provider: TestProvider, orderId: string, buyer: { email: string; address: typeof HOME_ADDRESS }, deps: WebhookDeps) {
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
  const event = testWebhook(provider, "checkout.session.completed", {
    sessionId: order!.providerSessionId!,
    paid: true,
    paymentReference: `pi_${order!.number}`,
    customerEmail: buyer.email,
    customerName: buyer.address.fullName,
    shippingAddress: buyer.address,
    amountTotalCents: null,
  });
  return (await receiveWebhook(db, provider, event.raw, event.headers, deps)).body.outcome;
}
