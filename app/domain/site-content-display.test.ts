import { describe, expect, it } from "vitest";
import { countdownShownIn, formatParisMoment, promotionShownIn, remainingTime, siteAreaOf } from "./site-content-display";

describe("remainingTime", () => {
  const target = new Date("2026-12-01T17:00:00Z");

  it("splits the time left into days, hours, minutes and seconds", () => {
    const now = new Date(target.getTime() - ((2 * 24 + 3) * 3600 + 4 * 60 + 5) * 1000);
    expect(remainingTime(target, now)).toEqual({ days: 2, hours: 3, minutes: 4, seconds: 5 });
    expect(remainingTime(target, new Date(target.getTime() - 1000))).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 1 });
    expect(remainingTime(target, new Date(target.getTime() - 24 * 3600 * 1000))).toEqual({ days: 1, hours: 0, minutes: 0, seconds: 0 });
  });

  it("rounds down to the second", () => {
    expect(remainingTime(target, new Date(target.getTime() - 61_999))).toEqual({ days: 0, hours: 0, minutes: 1, seconds: 1 });
  });

  it("is null once the target has come", () => {
    expect(remainingTime(target, target)).toBeNull();
    expect(remainingTime(target, new Date(target.getTime() + 5000))).toBeNull();
  });
});

describe("where banners show", () => {
  it.each([
    ["/", "home"],
    ["/cart", "cart"],
    ["/catalog", "catalog"],
    ["/tcg", "catalog"],
    ["/accessories", "catalog"],
    ["/entertainment", "catalog"],
    ["/product/12-display", "catalog"],
    ["/about", "other"],
    ["/catalogue", "other"],
    ["/admin", "none"],
    ["/admin/promotions", "none"],
    ["/paiement/cs_test_1", "none"],
  ] as const)("%s is in %s", (path, area) => {
    expect(siteAreaOf(path)).toBe(area);
  });

  it("shows the promotion on every page as a banner, else on its page only; never in the admin", () => {
    expect(promotionShownIn("banner", "other")).toBe(true);
    expect(promotionShownIn("banner", "none")).toBe(false);
    expect(promotionShownIn("home", "home")).toBe(true);
    expect(promotionShownIn("home", "catalog")).toBe(false);
    expect(promotionShownIn("cart", "cart")).toBe(true);
    expect(promotionShownIn("cart", "home")).toBe(false);
  });

  it("shows the countdown on its location", () => {
    expect(countdownShownIn("home", "home")).toBe(true);
    expect(countdownShownIn("home", "catalog")).toBe(false);
    expect(countdownShownIn("catalog", "catalog")).toBe(true);
    expect(countdownShownIn("global", "cart")).toBe(true);
    expect(countdownShownIn("global", "none")).toBe(false);
  });
});

describe("formatParisMoment", () => {
  it("names the Paris day and time, seconds only when they count", () => {
    expect(formatParisMoment(new Date("2026-03-14T17:00:00Z"))).toBe("samedi 14 mars à 18:00");
    expect(formatParisMoment(new Date("2026-07-01T07:05:30Z"))).toBe("mercredi 1 juillet à 09:05:30");
  });
});
