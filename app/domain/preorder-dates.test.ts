import { describe, expect, it } from "vitest";
import { preorderDatesText, preorderLineNote } from "./preorder-dates";

describe("preorderDatesText", () => {
  it("says the release and the estimated delivery in French calendar words", () => {
    expect(preorderDatesText({ releaseOn: "2026-12-12", estimatedDeliveryOn: "2026-12-19" })).toBe(
      "Précommande : sortie le 12 décembre 2026, date de livraison estimée : 19 décembre 2026",
    );
  });
});

describe("preorderLineNote", () => {
  it("is the dates of a pre-order line", () => {
    expect(preorderLineNote({ preorderReleaseOn: "2027-01-08", preorderDeliveryOn: "2027-01-15" })).toBe(
      "Précommande : sortie le 8 janvier 2027, date de livraison estimée : 15 janvier 2027",
    );
  });

  it("is nothing on a line in stock, or one missing a date", () => {
    expect(preorderLineNote({ preorderReleaseOn: null, preorderDeliveryOn: null })).toBeNull();
    expect(preorderLineNote({ preorderReleaseOn: "2027-01-08", preorderDeliveryOn: null })).toBeNull();
  });
});
