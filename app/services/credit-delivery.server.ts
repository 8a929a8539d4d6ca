import { and, eq } from "drizzle-orm";
import { orders } from "~/db/schema";
import type { Db } from "~/db/types";
import { billingAddressOf, type BillingFormValues } from "~/domain/billing-address";
import { type DeliveryAddressForm, type PaymentDelivery, shippingAddressOf } from "~/domain/delivery-address-form";
import { payWithStoreCreditOnly, type WebhookDeps } from "./payment-webhooks.server";

/**
 * A home delivery paid entirely by store credit (docs/decisions/060): the credit was spent at
 * checkout, no provider is asked, so the delivery address is asked on the shop's own page
 * (routes/credit-delivery.tsx) and the order is paid once it is given. Left without it, the
 * order ends with its reservation like any unpaid one, and its credit goes back (endUnpaidOrder).
 */

export type CreditDelivery = {
  orderId: string;
  orderNumber: string;
  /** open: waiting for its address; paid: given already; ended: cancelled or past its reservation. */
  state: "open" | "paid" | "ended";
  totalCents: number;
  reservedUntil: string | null;
  delivery: PaymentDelivery & { name: string; deliveryTime: string };
  /** An "Achat professionnel": the company's country, where the billing address must be; null for a consumer. */
  businessCountry: string | null;
};

/** The customer's order of that number when its store credit pays a delivery to an address; null for anyone else's and any other order. */
export async function creditDeliveryOf(db: Db, userId: string, orderNumber: string, now: Date): Promise<CreditDelivery | null> {
  if (orderNumber.length > 40) return null;
  const [row] = await db
    .select({
      id: orders.id,
      status: orders.status,
      totalCents: orders.totalCents,
      storeCreditCents: orders.storeCreditCents,
      reservedUntil: orders.reservedUntil,
      shippingKind: orders.shippingKind,
      shippingCountry: orders.shippingCountry,
      shippingMethodName: orders.shippingMethodName,
      shippingDeliveryTime: orders.shippingDeliveryTime,
      businessBuyer: orders.businessBuyer,
    })
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.number, orderNumber)));
  if (!row || row.totalCents === 0 || row.storeCreditCents !== row.totalCents || row.shippingKind === "relay") return null;
  const waiting = row.status === "pending_payment" && row.reservedUntil !== null && row.reservedUntil > now;
  const ended = row.status === "pending_payment" || row.status === "expired" || row.status === "cancelled";
  return {
    orderId: row.id,
    orderNumber,
    state: waiting ? "open" : ended ? "ended" : "paid",
    totalCents: row.totalCents,
    reservedUntil: row.reservedUntil?.toISOString() ?? null,
    delivery: {
      kind: row.shippingKind ?? "home",
      country: row.shippingCountry ?? "FR",
      relayPoint: null,
      name: row.shippingMethodName ?? "Livraison",
      deliveryTime: row.shippingDeliveryTime ?? "",
    },
    businessCountry: row.businessBuyer?.country ?? null,
  };
}

/**
 * The address given (checked by creditDeliverySchema): the order is paid with it as its delivery
 * and billing addresses. Returns the session id /merci finds it by; null when it no longer waits.
 */
export async function payCreditDelivery(db: Db, order: CreditDelivery, form: DeliveryAddressForm & BillingFormValues, deps: WebhookDeps): Promise<string | null> {
  const shippingAddress = shippingAddressOf(form, order.delivery);
  const billingAddress = billingAddressOf(form, shippingAddress, order.businessCountry !== null);
  return payWithStoreCreditOnly(db, order.orderId, deps, { shippingAddress, billingAddress });
}
