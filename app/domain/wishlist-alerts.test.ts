import { describe, expect, it } from "vitest";
import { type WishlistAlertItem, type WishlistAlertProduct, dropDue, onSaleNow, priceDue, wishlistAlertStep } from "./wishlist-alerts";

const now = new Date("2026-11-29T12:00:00Z");
const before = new Date("2026-11-29T11:00:00Z");
const earlier = new Date("2026-11-20T10:00:00Z");

const item = (values: Partial<WishlistAlertItem> = {}): WishlistAlertItem => ({
  createdAt: earlier,
  alertRestock: true,
  alertDrop: true,
  priceBelowCents: null,
  restockArmed: false,
  dropAlertedFor: null,
  priceAlertedFigureCents: null,
  ...values,
});
const product = (values: Partial<WishlistAlertProduct> = {}): WishlistAlertProduct => ({ status: "en_ligne", stock: 3, archived: false, dropTime: null, priceCents: 5_000, ...values });

describe("onSaleNow", () => {
  it("is online or opened, in stock, not archived", () => {
    expect(onSaleNow(product(), now)).toBe(true);
    expect(onSaleNow(product({ stock: 0 }), now)).toBe(false);
    expect(onSaleNow(product({ status: "hors_ligne" }), now)).toBe(false);
    expect(onSaleNow(product({ archived: true }), now)).toBe(false);
    expect(onSaleNow(product({ status: "a_venir", dropTime: now }), now)).toBe(true);
    expect(onSaleNow(product({ status: "a_venir", dropTime: new Date(now.getTime() + 1) }), now)).toBe(false);
    expect(onSaleNow(product({ status: "a_venir", dropTime: null }), now)).toBe(false);
  });
});

describe("wishlistAlertStep", () => {
  it("sends a restock once its alert is armed, and disarms it", () => {
    expect(wishlistAlertStep(item({ restockArmed: true }), product(), now)).toEqual({ kind: "restock", state: { restockArmed: false } });
    expect(wishlistAlertStep(item(), product(), now)).toEqual({ kind: null, state: {} });
  });

  it("waits while the product cannot be bought", () => {
    expect(wishlistAlertStep(item({ restockArmed: true, priceBelowCents: 6_000 }), product({ stock: 0 }), now)).toEqual({ kind: null, state: {} });
  });

  it("handles an event whose alert is off without sending it", () => {
    expect(wishlistAlertStep(item({ restockArmed: true, alertRestock: false }), product(), now)).toEqual({ kind: null, state: { restockArmed: false } });
    const opened = product({ dropTime: before });
    expect(wishlistAlertStep(item({ alertDrop: false }), opened, now)).toEqual({ kind: null, state: { dropAlertedFor: before } });
  });

  it("sends an opening the customer waited for, once; an opening and a restock at once are one e-mail", () => {
    const opened = product({ status: "a_venir", dropTime: before });
    expect(wishlistAlertStep(item({ restockArmed: true }), opened, now)).toEqual({ kind: "drop", state: { dropAlertedFor: before, restockArmed: false } });
    expect(dropDue(item({ dropAlertedFor: new Date(before) }), opened, now)).toBe(false);
    // Put on the list after it opened: nothing to announce.
    expect(dropDue(item({ createdAt: now }), opened, now)).toBe(false);
    // A new opening (a restock's drop) is a new event.
    expect(dropDue(item({ dropAlertedFor: earlier }), opened, now)).toBe(true);
  });

  it("sends the price at or under the figure once, before any other, and handles the others with it", () => {
    const step = wishlistAlertStep(item({ priceBelowCents: 5_000, restockArmed: true }), product({ dropTime: before }), now);
    expect(step).toEqual({ kind: "price", state: { priceAlertedFigureCents: 5_000, priceAlertedCents: 5_000, dropAlertedFor: before, restockArmed: false } });
    expect(priceDue(item({ priceBelowCents: 5_000, priceAlertedFigureCents: 5_000 }), 4_000)).toBe(false);
    expect(priceDue(item({ priceBelowCents: 4_999 }), 5_000)).toBe(false);
  });

  it("re-arms the price alert when the price goes back above the figure, or for a new figure", () => {
    const alerted = item({ priceBelowCents: 5_000, priceAlertedFigureCents: 5_000 });
    expect(wishlistAlertStep(alerted, product({ priceCents: 5_001 }), now)).toEqual({ kind: null, state: { priceAlertedFigureCents: null, priceAlertedCents: null } });
    expect(wishlistAlertStep(alerted, product({ priceCents: 4_000 }), now)).toEqual({ kind: null, state: {} });
    expect(wishlistAlertStep({ ...alerted, priceBelowCents: 4_500 }, product({ priceCents: 4_000 }), now).kind).toBe("price");
    // The figure removed: nothing left to re-arm against.
    expect(wishlistAlertStep({ ...alerted, priceBelowCents: null }, product(), now).state).toEqual({ priceAlertedFigureCents: null, priceAlertedCents: null });
  });
});
