import { describe, expect, it } from "vitest";
import { creditExpiry, creditsLeft, expiredCents, paymentParts, refundSplit, splitPayment } from "./store-credit";

describe("splitPayment", () => {
  it("uses min(asked, balance, total) and leaves the rest to the card", () => {
    expect(splitPayment(45_00, 100_00, 100_00)).toEqual({ creditCents: 45_00, cardCents: 0 });
    expect(splitPayment(45_00, 20_00, 100_00)).toEqual({ creditCents: 20_00, cardCents: 25_00 });
    expect(splitPayment(45_00, 100_00, 10_00)).toEqual({ creditCents: 10_00, cardCents: 35_00 });
    expect(splitPayment(45_00, 0, 10_00)).toEqual({ creditCents: 0, cardCents: 45_00 });
    expect(splitPayment(45_00, 100_00, -5)).toEqual({ creditCents: 0, cardCents: 45_00 });
  });

  it("never leaves the card a rest under its minimum: uses that much less credit", () => {
    expect(splitPayment(45_00, 44_80, 44_80)).toEqual({ creditCents: 44_50, cardCents: 50 });
    expect(splitPayment(40, 30, 30)).toEqual({ creditCents: 0, cardCents: 40 });
    // Whatever the delivery: a home delivery's address is asked on the shop when the credit pays it all (decision 060).
    expect(splitPayment(45_00, 45_00, 100_00)).toEqual({ creditCents: 45_00, cardCents: 0 });
  });
});

describe("FIFO and expiry", () => {
  const d = (iso: string) => new Date(iso);
  it("spends the oldest credits first and expires only what is left of the expired ones", () => {
    const movements = [
      { id: 1, amountCents: 30_00, kind: "buyback", expiresAt: d("2026-06-01T00:00:00Z") },
      { id: 2, amountCents: 20_00, kind: "goodwill", expiresAt: d("2027-06-01T00:00:00Z") },
      { id: 3, amountCents: -25_00, kind: "order", expiresAt: null },
    ];
    expect(creditsLeft(movements)).toEqual([
      { id: 1, leftCents: 5_00, expiresAt: d("2026-06-01T00:00:00Z") },
      { id: 2, leftCents: 20_00, expiresAt: d("2027-06-01T00:00:00Z") },
    ]);
    expect(expiredCents(movements, d("2026-05-31T23:59:59Z"))).toBe(0);
    expect(expiredCents(movements, d("2026-11-29T00:00:00Z"))).toBe(5_00);
    // Once its expiry debit is written, nothing is left to expire: the job is idempotent.
    expect(expiredCents([...movements, { id: 4, amountCents: -5_00, kind: "expiry", expiresAt: null }], d("2026-11-29T00:00:00Z"))).toBe(0);
  });

  it("never lets an expiry take a credit that has no end", () => {
    const movements = [
      { id: 1, amountCents: 10_00, kind: "refund", expiresAt: null },
      { id: 2, amountCents: 8_00, kind: "goodwill", expiresAt: d("2026-01-01T00:00:00Z") },
      { id: 3, amountCents: -8_00, kind: "expiry", expiresAt: null },
    ];
    expect(creditsLeft(movements)).toEqual([{ id: 1, leftCents: 10_00, expiresAt: null }]);
  });

  it("dates a new credit's end from the setting", () => {
    expect(creditExpiry(d("2026-11-29T10:00:00Z"), 12)).toEqual(d("2027-11-29T10:00:00Z"));
    expect(creditExpiry(d("2026-11-29T10:00:00Z"), null)).toBeNull();
  });
});

describe("paymentParts", () => {
  it("says the credit's part and the card's, nothing without credit", () => {
    expect(paymentParts({ totalCents: 42_00 })).toEqual([]);
    expect(paymentParts({ totalCents: 42_00, storeCreditCents: 12_00 })).toEqual([
      { label: "Payé par avoir", cents: 12_00 },
      { label: "Payé par carte", cents: 30_00 },
    ]);
    expect(paymentParts({ totalCents: 42_00, storeCreditCents: 42_00 })).toEqual([{ label: "Payé par avoir", cents: 42_00 }]);
  });
});

describe("refundSplit", () => {
  it("gives a refund back to the card and the credit in proportion of what each paid", () => {
    expect(refundSplit({ totalCents: 45_00, storeCreditCents: 20_00 }, [], 9_00)).toEqual({ cardCents: 5_00, creditCents: 4_00 });
    expect(refundSplit({ totalCents: 45_00, storeCreditCents: 20_00 }, [], 45_00)).toEqual({ cardCents: 25_00, creditCents: 20_00 });
  });

  it("settles the rounding on the later refunds: the whole order goes back exactly", () => {
    const order = { totalCents: 10_00, storeCreditCents: 3_33 };
    const amounts = [1, 1, 1, 9_97];
    const splits = amounts.map((amount, i) => refundSplit(order, amounts.slice(0, i), amount));
    expect(splits.reduce((sum, s) => sum + s.cardCents, 0)).toBe(6_67);
    expect(splits.reduce((sum, s) => sum + s.creditCents, 0)).toBe(3_33);
    expect(splits.every((s) => s.cardCents >= 0 && s.creditCents >= 0)).toBe(true);
  });

  it("an order without credit goes back to the card, one paid by credit alone to the credit", () => {
    expect(refundSplit({ totalCents: 30_00, storeCreditCents: 0 }, [5_00], 10_00)).toEqual({ cardCents: 10_00, creditCents: 0 });
    expect(refundSplit({ totalCents: 30_00, storeCreditCents: 30_00 }, [5_00], 10_00)).toEqual({ cardCents: 0, creditCents: 10_00 });
  });
});
