import { describe, expect, it } from "vitest";
import { isNewProduct, isPubliclyVisible } from "./visibility";

const now = new Date("2025-06-15T12:00:00Z");
const DAY = 24 * 60 * 60 * 1000;
const at = (offsetMs: number) => new Date(now.getTime() + offsetMs);

describe("isPubliclyVisible", () => {
  it("shows en_ligne products", () => {
    expect(isPubliclyVisible({ status: "en_ligne" }, now)).toBe(true);
  });

  it("never shows hors_ligne products, even with a past drop time", () => {
    expect(isPubliclyVisible({ status: "hors_ligne" }, now)).toBe(false);
    expect(isPubliclyVisible({ status: "hors_ligne", dropTime: at(-DAY) }, now)).toBe(false);
  });

  it("shows a_venir products from their drop time on", () => {
    expect(isPubliclyVisible({ status: "a_venir", dropTime: at(-1) }, now)).toBe(true);
    expect(isPubliclyVisible({ status: "a_venir", dropTime: at(0) }, now)).toBe(true);
    expect(isPubliclyVisible({ status: "a_venir", dropTime: at(1) }, now)).toBe(false);
  });

  it("hides a_venir products without a drop time", () => {
    expect(isPubliclyVisible({ status: "a_venir" }, now)).toBe(false);
    expect(isPubliclyVisible({ status: "a_venir", dropTime: null }, now)).toBe(false);
  });
});

describe("isNewProduct", () => {
  it("is new for 14 days after creation", () => {
    expect(isNewProduct(now, now)).toBe(true);
    expect(isNewProduct(at(-13 * DAY), now)).toBe(true);
    expect(isNewProduct(at(-14 * DAY + 1), now)).toBe(true);
  });

  it("is no longer new at 14 days", () => {
    expect(isNewProduct(at(-14 * DAY), now)).toBe(false);
    expect(isNewProduct(at(-30 * DAY), now)).toBe(false);
  });

  it("is not new when created in the future", () => {
    expect(isNewProduct(at(1), now)).toBe(false);
    expect(isNewProduct(at(DAY), now)).toBe(false);
  });
});
