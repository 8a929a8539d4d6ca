import { describe, expect, it } from "vitest";
import { centsToDecimalString, centsToFrenchDecimal, formatEuros, parseEurosToCents } from "./money";

const fr = (euros: number) => new Intl.NumberFormat("fr-FR", { style: "currency", currency: "EUR" }).format(euros);

describe("formatEuros", () => {
  it("formats cents as French euros", () => {
    expect(formatEuros(1299)).toBe(fr(12.99));
    expect(formatEuros(1299)).toMatch(/^12,99\s€$/u);
    expect(formatEuros(0)).toBe(fr(0));
    expect(formatEuros(5)).toBe(fr(0.05));
  });

  it("groups thousands the French way", () => {
    expect(formatEuros(123450)).toBe(fr(1234.5));
    expect(formatEuros(123450)).toMatch(/^1\s234,50\s€$/u);
  });

  it("writes what Intl.NumberFormat writes, for every amount up to 10,000 € and refunds down to -1,000 €", () => {
    const intl = new Intl.NumberFormat("fr-FR", { style: "currency", currency: "EUR" });
    const differ: number[] = [];
    for (let cents = -100_000; cents <= 1_000_000; cents++) {
      if (formatEuros(cents) !== intl.format(cents / 100)) differ.push(cents);
    }
    expect(differ.slice(0, 5)).toEqual([]);
  });

  it("and for large amounts, at each power of ten and around it", () => {
    const intl = new Intl.NumberFormat("fr-FR", { style: "currency", currency: "EUR" });
    const amounts = [];
    for (let power = 0; power <= 14; power++) for (const delta of [-1, 0, 1, 7, 99]) amounts.push(10 ** power + delta, -(10 ** power + delta));
    // Beyond about 10^15 cents, cents / 100 as a double is no longer exact for Intl.
    amounts.push(123_456_789_012, 999_999_999_999);
    for (const cents of amounts.filter((amount) => amount !== 0)) expect([cents, formatEuros(cents)]).toEqual([cents, intl.format(cents / 100)]);
  });

  it("rounds a fraction of a cent half away from zero, as Intl does, and never writes -0,00 €", () => {
    expect(formatEuros(1250.5)).toBe("12,51\u00a0€");
    expect(formatEuros(-1250.5)).toBe("-12,51\u00a0€");
    expect(formatEuros(-0.4)).toBe("0,00\u00a0€");
    expect(formatEuros(-0)).toBe("0,00\u00a0€");
  });
});

describe("parseEurosToCents", () => {
  it.each([
    ["12,99", 1299],
    ["12.99", 1299],
    ["12", 1200],
    ["12,9", 1290],
    ["0,05", 5],
    [" 1 234,50 € ", 123450],
    ["12,99 €", 1299],
  ])("parses %j as %i cents", (input, cents) => {
    expect(parseEurosToCents(input)).toBe(cents);
  });

  it("reads back what formatEuros prints (narrow no-break spaces included)", () => {
    expect(parseEurosToCents(formatEuros(123450))).toBe(123450);
  });

  it.each(["abc", "-1", "1.234", "12,999", "", ",5", "12,", "1,2,3"])("rejects %j", (input) => {
    expect(parseEurosToCents(input)).toBeNull();
  });
});

describe("centsToDecimalString", () => {
  it.each([
    [0, "0.00"],
    [5, "0.05"],
    [50, "0.50"],
    [1299, "12.99"],
    [49999, "499.99"],
    [100000, "1000.00"],
    [-5, "-0.05"],
    [-1299, "-12.99"],
  ])("%i → %s", (cents, text) => {
    expect(centsToDecimalString(cents)).toBe(text);
  });
});

describe("centsToFrenchDecimal", () => {
  it.each([
    [0, "0,00"],
    [5, "0,05"],
    [1250, "12,50"],
    [-1299, "-12,99"],
  ])("%i → %s", (cents, text) => {
    expect(centsToFrenchDecimal(cents)).toBe(text);
  });
});
