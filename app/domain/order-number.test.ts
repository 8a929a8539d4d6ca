import { describe, expect, it } from "vitest";
import { ORDER_NUMBER_PATTERN, formatOrderNumber } from "./order-number";

describe("order numbers", () => {
  it("joins the prefix, the last 6 digits of the timestamp and 4 random digits", () => {
    expect(formatOrderNumber("CPT", 1_763_912_345_678, 71)).toBe("CPT-345678-0071");
    expect(formatOrderNumber("CPT", 1_763_912_345_678, 9_999)).toBe("CPT-345678-9999");
  });

  it("pads a short timestamp and keeps 4 digits", () => {
    expect(formatOrderNumber("AB", 42, 0)).toBe("AB-000042-0000");
    expect(formatOrderNumber("AB", 42, 12_345)).toBe("AB-000042-2345");
    expect(ORDER_NUMBER_PATTERN.test(formatOrderNumber("CPT", Date.now(), 5))).toBe(true);
  });
});
