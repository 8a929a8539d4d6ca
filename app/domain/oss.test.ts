import { describe, expect, it } from "vitest";
import { destinationRates } from "./eu-vat-rates";
import { OSS_THRESHOLD_CENTS, destinationRateBp, isOtherMemberState, taxedAtDestination } from "./oss";

const at = new Date("2026-11-28T12:00:00Z");

describe("the distance-sales threshold (art. 259 B CGI, art. 59c)", () => {
  const none = { currentYearCents: 0, previousYearCents: 0 };
  it("keeps French VAT while the year stays at or under 10,000 € excluding VAT, the sale included", () => {
    expect(taxedAtDestination({ ...none, currentYearCents: 990_000 }, 9_999, false)).toBe(false);
    expect(taxedAtDestination({ ...none, currentYearCents: 990_000 }, 10_000, false)).toBe(false);
  });
  it("taxes in the buyer's country the sale that takes the year past it, and every later one", () => {
    expect(taxedAtDestination({ ...none, currentYearCents: 990_000 }, 10_001, false)).toBe(true);
    expect(taxedAtDestination({ ...none, currentYearCents: OSS_THRESHOLD_CENTS + 1 }, 100, false)).toBe(true);
  });
  it("taxes there all year when the previous year went past it, not when it only reached it", () => {
    expect(taxedAtDestination({ currentYearCents: 0, previousYearCents: OSS_THRESHOLD_CENTS + 1 }, 100, false)).toBe(true);
    expect(taxedAtDestination({ currentYearCents: 0, previousYearCents: OSS_THRESHOLD_CENTS }, 100, false)).toBe(false);
  });
  it("taxes there from the first sale when the seller opted in", () => {
    expect(taxedAtDestination(none, 100, true)).toBe(true);
  });
  it("counts only the other member states", () => {
    expect(isOtherMemberState("BE")).toBe(true);
    expect(isOtherMemberState("FR")).toBe(false);
    expect(isOtherMemberState(null)).toBe(false);
  });
});

describe("the buyer's country's rates (sales-tax package, books' column)", () => {
  it("Belgium: 21 % standard, 6 % on books", () => {
    expect(destinationRates("BE", at)).toEqual({ country: "BE", standardBp: 2100, bookBp: 600 });
  });
  it("Germany: 19 % standard, 7 % on books", () => {
    expect(destinationRates("DE", at)).toEqual({ country: "DE", standardBp: 1900, bookBp: 700 });
  });
  it("follows a dated change of rate: Finland 24 % until 31 August 2024, 25,5 % after", () => {
    expect(destinationRates("FI", new Date("2024-08-15T12:00:00Z"))?.standardBp).toBe(2400);
    expect(destinationRates("FI", at)?.standardBp).toBe(2550);
  });
  it("Denmark has no reduced rate for books", () => {
    expect(destinationRates("DK", at)).toEqual({ country: "DK", standardBp: 2500, bookBp: null });
  });
  it("knows every member state the shop ships to, each rate under its standard one", async () => {
    const { SHIPPING_COUNTRY_CODES } = await import("./shipping-countries");
    for (const code of SHIPPING_COUNTRY_CODES) {
      const rates = destinationRates(code, at);
      expect(rates, code).not.toBeNull();
      expect(rates!.standardBp, code).toBeGreaterThanOrEqual(1500);
      if (rates!.bookBp !== null) expect(rates!.bookBp, code).toBeLessThan(rates!.standardBp);
    }
  });
  it("a manga takes the book rate, a card the standard rate, a second-hand card keeps the margin scheme", () => {
    const be = destinationRates("BE", at)!;
    expect(destinationRateBp(550, "normal", be)).toBe(600);
    expect(destinationRateBp(2000, "normal", be)).toBe(2100);
    expect(destinationRateBp(2000, "margin", be)).toBe(2000);
    expect(destinationRateBp(550, "normal", destinationRates("DK", at)!)).toBe(2500);
  });
});

describe("the OSS return (by country and rate, net of credit notes)", async () => {
  const { ossReturn, ossReturnCsv, quarterBounds } = await import("./oss-return");
  it("sums the sales by country and rate and takes off the credit notes", () => {
    const rows = ossReturn([
      { country: "BE", sign: 1, rows: [{ rateBp: 2100, baseCents: 992, vatCents: 208, totalCents: 1_200 }, { rateBp: 600, baseCents: 651, vatCents: 39, totalCents: 690 }] },
      { country: "DE", sign: 1, rows: [{ rateBp: 1900, baseCents: 1_000, vatCents: 190, totalCents: 1_190 }] },
      { country: "BE", sign: -1, rows: [{ rateBp: 600, baseCents: 651, vatCents: 39, totalCents: 690 }] },
      { country: "BE", sign: 1, rows: [{ rateBp: 2100, baseCents: 100, vatCents: 21, totalCents: 121 }] },
    ]);
    expect(rows).toEqual([
      { country: "DE", rateBp: 1900, baseCents: 1_000, vatCents: 190 },
      { country: "BE", rateBp: 2100, baseCents: 1_092, vatCents: 229 },
    ]);
    expect(ossReturnCsv(rows)).toBe("\uFEFFPays de consommation;Code pays;Taux de TVA (%);Base imposable HT;TVA due\r\nAllemagne;DE;19;10,00;1,90\r\nBelgique;BE;21;10,92;2,29\r\n");
  });
  it("bounds a quarter in Paris time", () => {
    expect(quarterBounds({ year: 2026, quarter: 4 })).toEqual({ from: new Date("2026-09-30T22:00:00Z"), to: new Date("2026-12-31T23:00:00Z") });
  });
});
