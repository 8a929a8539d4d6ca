import { describe, expect, it } from "vitest";
import { isSignatureDeliveryOffered, signatureDeliveryChargeCents, signatureDeliveryFeeCents } from "./signature-delivery";

describe("remise contre signature", () => {
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
    expect(isSignatureDeliveryOffered(subtotal)).toBe(offered);
    expect(signatureDeliveryFeeCents(subtotal)).toBe(fee);
  });

  it("charges only when chosen", () => {
    expect(signatureDeliveryChargeCents(49_999, true)).toBe(1_000);
    expect(signatureDeliveryChargeCents(49_999, false)).toBe(0);
    expect(signatureDeliveryChargeCents(100_001, true)).toBe(0);
  });

  it("is neither offered nor charged when the seller turned it off", () => {
    expect(isSignatureDeliveryOffered(20_000, false)).toBe(false);
    expect(signatureDeliveryFeeCents(20_000, false)).toBe(0);
    expect(signatureDeliveryChargeCents(20_000, true, false)).toBe(0);
  });
});
