/**
 * The wish list's alerts (issue 56, point 3; decision 067): which event an item's state and its
 * product's make due, and what is then recorded so that each event is handled once. Pure: the
 * sender (services/wishlist-alerts.server.ts) reads the rows, asks here, writes the answer.
 */

export type WishlistAlertKind = "price" | "drop" | "restock";

export type WishlistAlertItem = {
  createdAt: Date;
  alertRestock: boolean;
  alertDrop: boolean;
  priceBelowCents: number | null;
  restockArmed: boolean;
  dropAlertedFor: Date | null;
  priceAlertedFigureCents: number | null;
};

export type WishlistAlertProduct = {
  status: "en_ligne" | "hors_ligne" | "a_venir";
  stock: number;
  archived: boolean;
  dropTime: Date | null;
  priceCents: number;
};

/** The columns the sender writes back: the events handled, sent or not. */
export type WishlistAlertState = Partial<{
  restockArmed: false;
  dropAlertedFor: Date;
  priceAlertedFigureCents: number | null;
  priceAlertedCents: number | null;
}>;

export type WishlistAlertStep = { kind: WishlistAlertKind | null; state: WishlistAlertState };

/** On sale now, as the shop sells it: online or opened, in stock, not archived (the "Prévenez-moi" sender's rule). */
export function onSaleNow(product: WishlistAlertProduct, now: Date): boolean {
  if (product.archived || product.stock <= 0) return false;
  return product.status === "en_ligne" || (product.status === "a_venir" && product.dropTime !== null && product.dropTime <= now);
}

/** The price is at or under the customer's figure, and this figure's crossing has not been handled. */
export function priceDue(item: WishlistAlertItem, priceCents: number): boolean {
  return item.priceBelowCents !== null && priceCents <= item.priceBelowCents && item.priceAlertedFigureCents !== item.priceBelowCents;
}

/** An opening the customer waited for (on their list before it), not handled yet. */
export function dropDue(item: WishlistAlertItem, product: WishlistAlertProduct, now: Date): boolean {
  const opening = product.dropTime;
  return opening !== null && opening <= now && item.createdAt < opening && item.dropAlertedFor?.getTime() !== opening.getTime();
}

/**
 * One step of an item: at most one e-mail (the price one says the product is on sale too, so it
 * goes first; an opening and a restock at once are one event, the opening), and every event due
 * handled with it, whether its alert is on or not (an alert switched on later does not send an
 * old event). Nothing is due while the product cannot be bought; the price alert re-arms when
 * the price goes back above the figure (a changed figure is a new one: priceDue).
 */
export function wishlistAlertStep(item: WishlistAlertItem, product: WishlistAlertProduct, now: Date): WishlistAlertStep {
  const state: WishlistAlertState = {};
  if (item.priceAlertedFigureCents !== null && (item.priceBelowCents === null || product.priceCents > item.priceBelowCents)) {
    state.priceAlertedFigureCents = null;
    state.priceAlertedCents = null;
  }
  if (!onSaleNow(product, now)) return { kind: null, state };
  const price = priceDue(item, product.priceCents);
  const drop = dropDue(item, product, now);
  if (price) {
    state.priceAlertedFigureCents = item.priceBelowCents;
    state.priceAlertedCents = product.priceCents;
  }
  if (drop) state.dropAlertedFor = product.dropTime!;
  if (item.restockArmed) state.restockArmed = false;
  const kind: WishlistAlertKind | null = price ? "price" : drop && item.alertDrop ? "drop" : item.restockArmed && item.alertRestock ? "restock" : null;
  return { kind, state };
}
