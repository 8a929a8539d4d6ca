import { describe, expect, it } from "vitest";
import { insuranceChargeCents, insuranceFeeCents, isInsuranceOffered } from "./insurance";

describe("parcel insurance", () => {
  it.each([
    [0, false, 0],
    [-100, false, 0],
    [1, true, 1_000],
    [49_999, true, 1_000],
    [50_000, true, 1_000],
    [50_001, true, 2_000],
    [100_000, true, 2_000],
    [100_001, false, 0],
  ])("subtotal %i cents: offered %s, fee %i", (subtotal, offered, fee) => {
    expect(isInsuranceOffered(subtotal)).toBe(offered);
    expect(insuranceFeeCents(subtotal)).toBe(fee);
  });

  it("charges only when chosen", () => {
    expect(insuranceChargeCents(49_999, true)).toBe(1_000);
    expect(insuranceChargeCents(49_999, false)).toBe(0);
    expect(insuranceChargeCents(100_001, true)).toBe(0);
  });
});
