import type { Database } from "~/db/client.server";
import { shippingMethods } from "~/db/schema";

/**
 * A delivery method to an address in France at one price whatever the cart's weight and value:
 * an order that chooses it is charged `priceCents` of delivery, a figure the test sets itself
 * (the default methods' bands and free thresholds are the seller's data, tested on their own).
 * Returns the checkout body's `delivery`.
 */
export async function flatDelivery(db: Database["db"], name: string, priceCents: number): Promise<{ methodId: number; country: string }> {
  const [method] = await db
    .insert(shippingMethods)
    .values({ name, kind: "home", countries: ["FR"], bands: [{ upToGrams: null, fromSubtotalCents: 0, priceCents }], freeFromCents: null })
    .returning({ id: shippingMethods.id });
  return { methodId: method!.id, country: "FR" };
}
