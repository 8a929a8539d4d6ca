import { describe, expect, it } from "vitest";
import { fieldErrors } from "./field-errors";
import { WISHLIST_PRICE_INVALID, WISHLIST_PRODUCT_UNKNOWN, wishlistAlertsSchema, wishlistItemState, wishlistToggleSchema } from "./wishlist";

describe("wishlistAlertsSchema", () => {
  it("reads the switches and the figure in euros as cents", () => {
    expect(wishlistAlertsSchema.parse({ productId: "7", alertRestock: "on", priceBelow: " 12,5 € " })).toEqual({ productId: 7, alertRestock: true, alertDrop: false, priceBelow: 1250 });
    expect(wishlistAlertsSchema.parse({ productId: "7", alertDrop: "on", priceBelow: "" })).toEqual({ productId: 7, alertRestock: false, alertDrop: true, priceBelow: null });
    expect(wishlistAlertsSchema.parse({ productId: "7", priceBelow: "1 000" }).priceBelow).toBe(100_000);
  });

  it.each(["abc", "-3", "0", "0,00", "12,345", "100001"])("refuses %j with the French message", (priceBelow) => {
    const parsed = wishlistAlertsSchema.safeParse({ productId: "7", priceBelow });
    expect(parsed.success).toBe(false);
    expect(fieldErrors(parsed.error!)).toEqual({ priceBelow: WISHLIST_PRICE_INVALID });
  });

  it("refuses a switch posted with another value than a checkbox's", () => {
    expect(wishlistAlertsSchema.safeParse({ productId: "7", alertRestock: "yes" }).success).toBe(false);
  });
});

describe("wishlistToggleSchema", () => {
  it("takes a product id and add or remove", () => {
    expect(wishlistToggleSchema.parse({ productId: "12", intent: "remove" })).toEqual({ productId: 12, intent: "remove" });
  });

  it.each(["", "0", "1.5", "abc", "99999999999"])("refuses the product id %j", (productId) => {
    const parsed = wishlistToggleSchema.safeParse({ productId, intent: "add" });
    expect(fieldErrors(parsed.error!).productId).toBe(WISHLIST_PRODUCT_UNKNOWN);
  });

  it("refuses another intent", () => {
    expect(wishlistToggleSchema.safeParse({ productId: "12", intent: "buy" }).success).toBe(false);
  });
});

describe("wishlistItemState", () => {
  const now = new Date("2026-11-29T12:00:00Z");
  const base = { status: "en_ligne" as const, dropTime: null, archived: false, stock: 2 };
  it("says in stock, sold out, coming and gone", () => {
    expect(wishlistItemState(base, now)).toBe("available");
    expect(wishlistItemState({ ...base, stock: 0 }, now)).toBe("sold-out");
    expect(wishlistItemState({ ...base, status: "a_venir", dropTime: new Date("2026-12-01T18:00:00Z") }, now)).toBe("coming");
    expect(wishlistItemState({ ...base, status: "hors_ligne" }, now)).toBe("gone");
    expect(wishlistItemState({ ...base, status: "hors_ligne", archived: true }, now)).toBe("gone");
  });

  it("sells a drop whose time has come like any product", () => {
    expect(wishlistItemState({ ...base, status: "a_venir", dropTime: new Date("2026-11-29T11:59:59Z"), stock: 0 }, now)).toBe("sold-out");
  });
});
