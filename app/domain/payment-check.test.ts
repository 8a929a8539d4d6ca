import { describe, expect, it } from "vitest";
import { paymentMismatch } from "./payment-check";

describe("paymentMismatch", () => {
  it("accepts the order's amount in euros, whatever the case of the currency", () => {
    expect(paymentMismatch({ totalCents: 1_697 }, { amountTotalCents: 1_697, currency: "eur" })).toBeNull();
    expect(paymentMismatch({ totalCents: 1_697 }, { amountTotalCents: 1_697, currency: "EUR" })).toBeNull();
    // The provider said nothing: the order's figures stand.
    expect(paymentMismatch({ totalCents: 1_697 }, { amountTotalCents: null })).toBeNull();
  });

  it("flags another amount or another currency", () => {
    expect(paymentMismatch({ totalCents: 1_697 }, { amountTotalCents: 1, currency: "eur" })).toEqual({ expectedCents: 1_697, receivedCents: 1, currency: "eur" });
    expect(paymentMismatch({ totalCents: 1_697 }, { amountTotalCents: 1_697, currency: "usd" })).toEqual({ expectedCents: 1_697, receivedCents: 1_697, currency: "usd" });
    expect(paymentMismatch({ totalCents: 1_697 }, { amountTotalCents: 1_698, currency: null })).toEqual({ expectedCents: 1_697, receivedCents: 1_698, currency: null });
  });
});
