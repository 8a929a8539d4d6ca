import { type Cart, cartSubtotalCents } from "~/domain/cart";
import { type ShippingMethodRule, type ShippingQuote, quoteAll } from "~/domain/shipping";
import { type StoredDelivery, useDelivery } from "~/lib/delivery-store";

export type DeliveryState = {
  stored: StoredDelivery;
  /** Null while a line's weight is not known yet (before the cart's first refresh). */
  weightGrams: number | null;
  quotes: ShippingQuote[];
  /** The buyer's method when it fits the cart, else the cheapest (a relay point's included); null when none fits. */
  selected: ShippingQuote | null;
};

/**
 * The delivery methods that fit the cart and the country, priced by the same rule as the server
 * (domain/shipping.ts) from the goods after the discount; the checkout sends the selected one.
 */
export function useDeliveryQuotes(cart: Cart, methods: readonly ShippingMethodRule[], discountCents: number): DeliveryState {
  const stored = useDelivery();
  const weights = cart.items.map((line) => (line.product.weightGrams === undefined ? null : line.product.weightGrams * line.quantity));
  const weightGrams = weights.includes(null) ? null : weights.reduce<number>((sum, grams) => sum + grams!, 0);
  if (weightGrams === null) return { stored, weightGrams, quotes: [], selected: null };
  const quotes = quoteAll(methods, { weightGrams, goodsCents: cartSubtotalCents(cart) - discountCents, country: stored.country });
  // Without a choice, the cheapest method, a relay point's included (quotes come cheapest first):
  // the buyer then names the point, or picks another method.
  const selected = quotes.find((quote) => quote.methodId === stored.methodId) ?? quotes[0] ?? null;
  return { stored, weightGrams, quotes, selected };
}
