import { describe, expect, it } from "vitest";
import type { VatBreakdownRow } from "./invoice";
import { VAT_RATES_BP, type VatRateBp } from "./vat";
import { type TaxedLine, allocateVat, chargesByRate, exclVatOf, formatVatRate, spreadBases, splitProRata, vatByRate } from "./vat-allocation";
import { seeded } from "../../tests/support/seeded-random";

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

const manga = (totalCents: number): TaxedLine => ({ totalCents, vatRateBp: 550, vatScheme: "normal" });
const booster = (totalCents: number): TaxedLine => ({ totalCents, vatRateBp: 2000, vatScheme: "normal" });
const secondHand = (totalCents: number): TaxedLine => ({ totalCents, vatRateBp: 2000, vatScheme: "margin" });

describe("exclVatOf", () => {
  it("takes the base of a rate's TTC total: TTC / (1 + rate), to the nearest cent", () => {
    expect(exclVatOf(1200, 2000)).toBe(1000);
    expect(exclVatOf(914, 550)).toBe(866); // 866,35
    expect(exclVatOf(1067, 550)).toBe(1011); // 1 011,37
    expect(exclVatOf(1021, 210)).toBe(1000);
    expect(exclVatOf(1100, 1000)).toBe(1000);
  });

  it("rounds a half cent up, and a negative amount as its opposite, negated", () => {
    expect(exclVatOf(1005, 2000)).toBe(838); // 837,5
    expect(exclVatOf(3, 2000)).toBe(3); // 2,5
    expect(exclVatOf(-1005, 2000)).toBe(-838);
    expect(Object.is(exclVatOf(0, 2000), 0)).toBe(true);
    for (const rate of VAT_RATES_BP) {
      for (let ttc = 1; ttc <= 10_000; ttc++) {
        const base = exclVatOf(ttc, rate);
        expect(Math.abs(base - (ttc * 10_000) / (10_000 + rate))).toBeLessThanOrEqual(0.5);
        expect(exclVatOf(-ttc, rate)).toBe(-base);
      }
    }
  });
});

describe("vatByRate", () => {
  // The goods and the delivery of allocateVat's cart below: 18 € and 3,33 € at 20 %, 9 € and 1,67 € at 5,5 %.
  const AMOUNTS = [
    { rateBp: 2000, totalCents: 1800 },
    { rateBp: 550, totalCents: 900 },
    { rateBp: 2000, totalCents: 333 },
    { rateBp: 550, totalCents: 167 },
  ] as const;

  it("takes the VAT of each rate's total and spreads its base over the rate's amounts", () => {
    expect(vatByRate(AMOUNTS)).toEqual({
      rows: [
        { rateBp: 2000, baseCents: 1778, vatCents: 355, totalCents: 2133 },
        { rateBp: 550, baseCents: 1011, vatCents: 56, totalCents: 1067 },
      ],
      exclVatCents: [1500, 853, 278, 158],
    });
  });

  it("gives a refund of the same amounts the same figures, negated", () => {
    const refund = vatByRate(AMOUNTS.map((amount) => ({ ...amount, totalCents: -amount.totalCents })));
    expect(refund).toEqual({
      rows: [
        { rateBp: 2000, baseCents: -1778, vatCents: -355, totalCents: -2133 },
        { rateBp: 550, baseCents: -1011, vatCents: -56, totalCents: -1067 },
      ],
      exclVatCents: [-1500, -853, -278, -158],
    });
  });

  it("works the VAT of a part of an order out of that part alone", () => {
    // One manga line of 9 € refunded: 8,53 € + 0,47 €.
    expect(vatByRate([{ rateBp: 550, totalCents: -900 }])).toEqual({ rows: [{ rateBp: 550, baseCents: -853, vatCents: -47, totalCents: -900 }], exclVatCents: [-853] });
  });

  it("has no row for a rate of nothing, and nothing for no amounts", () => {
    expect(vatByRate([{ rateBp: 2000, totalCents: 0 }])).toEqual({ rows: [], exclVatCents: [0] });
    expect(vatByRate([])).toEqual({ rows: [], exclVatCents: [] });
  });

  it("refuses amounts of both signs at one rate", () => {
    expect(() =>
      vatByRate([
        { rateBp: 2000, totalCents: 1000 },
        { rateBp: 2000, totalCents: -200 },
      ]),
    ).toThrow(RangeError);
  });
});

describe("spreadBases", () => {
  it("spreads the bases of given rows, an order's stored ones included", () => {
    // A row stored before the per-rate rule: 17,77 € of base in 21,33 €.
    const amounts = [
      { rateBp: 2000, totalCents: 1800 },
      { rateBp: 2000, totalCents: 333 },
    ] as const;
    // 1 499,58 and 277,42.
    expect(spreadBases(amounts, [{ rateBp: 2000, baseCents: 1777, vatCents: 356, totalCents: 2133 }])).toEqual([1500, 277]);
  });
});

describe("chargesByRate", () => {
  it("gives a single charge the charges' rows", () => {
    const rows = allocateVat([manga(1000), booster(2000)], 300, 500, false).chargesVat;
    expect(chargesByRate([500], rows)).toEqual([
      [
        { rateBp: 2000, totalCents: 333, exclVatCents: 278 },
        { rateBp: 550, totalCents: 167, exclVatCents: 158 },
      ],
    ]);
  });

  it("splits the rows over the delivery and the insurance, each charge summing to itself and each rate to its row", () => {
    const rows = allocateVat([manga(1000), booster(2000)], 300, 490 + 1000, false).chargesVat;
    // 14,90 € over 18 € / 9 € of goods: 9,93 € and 4,97 €; at 20 %, 27,93 € / 1,2 = 23,275 €, so
    // 23,28 € of base, 8,28 € of it the charges'; at 5,5 %, 13,24 € of base, 4,71 € the charges'.
    expect(rows).toEqual([
      { rateBp: 2000, baseCents: 828, vatCents: 165, totalCents: 993 },
      { rateBp: 550, baseCents: 471, vatCents: 26, totalCents: 497 },
    ]);
    const [delivery, insurance] = chargesByRate([490, 1000], rows);
    // The delivery: 4,90 € in proportion to 9,93 € / 4,97 €: 326,56 and 163,44.
    expect(delivery).toEqual([
      { rateBp: 2000, totalCents: 327, exclVatCents: 273 },
      { rateBp: 550, totalCents: 163, exclVatCents: 154 },
    ]);
    expect(insurance).toEqual([
      { rateBp: 2000, totalCents: 666, exclVatCents: 555 },
      { rateBp: 550, totalCents: 334, exclVatCents: 317 },
    ]);
  });

  it("gives a charge of nothing no part, and refuses charges that are not the rows'", () => {
    const rows = [{ rateBp: 2000 as const, baseCents: 408, vatCents: 82, totalCents: 490 }];
    expect(chargesByRate([490, 0], rows)).toEqual([[{ rateBp: 2000, totalCents: 490, exclVatCents: 408 }], []]);
    expect(chargesByRate([0, 490], rows)).toEqual([[], [{ rateBp: 2000, totalCents: 490, exclVatCents: 408 }]]);
    expect(chargesByRate([], [])).toEqual([]);
    expect(() => chargesByRate([500], rows)).toThrow(RangeError);
  });

  it("over random rows, sums each charge to itself and each rate's parts to its row, TTC and base", () => {
    const random = seeded(7);
    for (let run = 0; run < 300; run++) {
      const rates = VAT_RATES_BP.filter(() => random() < 0.6);
      const rows = rates.map((rateBp) => {
        const totalCents = Math.floor(random() * 3_000);
        const baseCents = exclVatOf(totalCents, rateBp);
        return { rateBp, baseCents, vatCents: totalCents - baseCents, totalCents };
      });
      const all = sum(rows.map((row) => row.totalCents));
      const delivery = Math.floor(random() * (all + 1));
      const parts = chargesByRate([delivery, all - delivery], rows);
      const context = JSON.stringify({ rows, delivery });
      expect(parts.map((charge) => sum(charge.map((part) => part.totalCents))), context).toEqual([delivery, all - delivery]);
      for (const row of rows) {
        const at = parts.flatMap((charge) => charge.filter((part) => part.rateBp === row.rateBp));
        expect(sum(at.map((part) => part.totalCents)), context).toBe(row.totalCents);
        expect(sum(at.map((part) => part.exclVatCents)), context).toBe(row.baseCents);
        for (const part of at) {
          expect(part.totalCents).toBeGreaterThan(0);
          expect(part.exclVatCents).toBeGreaterThanOrEqual(0);
          expect(part.exclVatCents).toBeLessThanOrEqual(part.totalCents);
        }
      }
    }
  });
});

describe("splitProRata", () => {
  it("splits in proportion to the weights", () => {
    expect(splitProRata(300, [1000, 2000])).toEqual([100, 200]);
    expect(splitProRata(100, [1, 1, 2])).toEqual([25, 25, 50]);
    expect(splitProRata(7, [7])).toEqual([7]);
  });

  it("gives the cents left over to the largest remainders, so the parts sum to the total", () => {
    // 333,33 and 166,67: the second part has the larger remainder.
    expect(splitProRata(500, [1800, 900])).toEqual([333, 167]);
    // 1,5 / 4,5 / 4: the larger remainder first, then the earlier index.
    expect(splitProRata(10, [3, 9, 8])).toEqual([2, 4, 4]);
  });

  it("breaks ties by position, the first lines first", () => {
    expect(splitProRata(10, [1, 1, 1])).toEqual([4, 3, 3]);
    expect(splitProRata(2, [1, 1, 1])).toEqual([1, 1, 0]);
    expect(splitProRata(1, [5, 5])).toEqual([1, 0]);
    expect(splitProRata(11, [2, 1, 1, 2])).toEqual([4, 2, 2, 3]);
    // A tie away from the first line: exactly 2 for the first, 2/3 for each of the others; the
    // two cents left go to the second and third lines, not the fourth.
    expect(splitProRata(4, [3, 1, 1, 1])).toEqual([2, 1, 1, 0]);
    // Exact ties in large amounts: 28 495 is 5/6 of 34 194, so 20, 33 254 and 110 all leave 2/3
    // of a cent; the two cents left go to the first two. (With the remainders as floats' fractional
    // parts, 16,67 and 27 711,67 differed in their last bits and the tie went to the wrong lines.)
    expect(splitProRata(28_495, [20, 33_254, 810, 110])).toEqual([17, 27_712, 675, 91]);
  });

  it("gives nothing to a zero weight", () => {
    expect(splitProRata(100, [0, 3, 0, 1])).toEqual([0, 75, 0, 25]);
    expect(splitProRata(1, [0, 1, 1])).toEqual([0, 1, 0]);
    expect(splitProRata(5, [0, 1])).toEqual([0, 5]);
  });

  it("gives zeros when the total is zero or the weights sum to nothing", () => {
    expect(splitProRata(0, [1, 2, 3])).toEqual([0, 0, 0]);
    expect(splitProRata(100, [0, 0])).toEqual([0, 0]);
    expect(splitProRata(100, [])).toEqual([]);
    expect(splitProRata(0, [])).toEqual([]);
  });

  it("splits a negative total, still summing to it", () => {
    expect(splitProRata(-300, [1000, 2000])).toEqual([-100, -200]);
    const parts = splitProRata(-10, [1, 1, 1]);
    expect(sum(parts)).toBe(-10);
    expect(parts).toEqual([-3, -3, -4]);
  });

  it("always sums to the total, each part within one cent of its exact share", () => {
    const random = seeded(20261127);
    for (let run = 0; run < 500; run++) {
      const weights = Array.from({ length: 1 + Math.floor(random() * 8) }, () => (random() < 0.15 ? 0 : Math.floor(random() * 100_000)));
      const total = Math.floor(random() * 200_001) - 50_000;
      const parts = splitProRata(total, weights);
      expect(parts).toHaveLength(weights.length);
      const weightSum = sum(weights);
      if (weightSum === 0 || total === 0) {
        expect(parts.every((part) => part === 0)).toBe(true);
        continue;
      }
      expect(sum(parts)).toBe(total);
      weights.forEach((weight, i) => {
        expect(Number.isInteger(parts[i])).toBe(true);
        expect(Math.abs(parts[i]! - (total * weight) / weightSum)).toBeLessThan(1);
        // (-0 for a negative total: equal to 0, as the sum above.)
        if (weight === 0) expect(parts[i] === 0).toBe(true);
      });
    }
  });
});

describe("allocateVat", () => {
  it("puts the delivery at 20 % when a code took every taxed good, instead of losing its VAT", () => {
    const all = allocateVat([{ totalCents: 2000, vatRateBp: 2000, vatScheme: "normal" }], 2000, 490, false);
    expect(all.breakdown).toEqual([{ rateBp: 2000, baseCents: 408, vatCents: 82, totalCents: 490 }]);
    expect(all.chargesVat).toEqual(all.breakdown);
    const beside = allocateVat(
      [
        { totalCents: 1, vatRateBp: 2000, vatScheme: "normal" },
        { totalCents: 10_000, vatRateBp: 2000, vatScheme: "margin" },
      ],
      9_999,
      490,
      false,
    );
    expect(beside.breakdown.reduce((sum, row) => sum + row.totalCents, 0)).toBe(490);
  });

  // A manga at 5,5 % (10 €) and boosters at 20 % (20 €), 3 € off, 5 € of delivery.
  const CART = [manga(1000), booster(2000)];

  it("shares the discount over the lines in proportion to their totals", () => {
    const { lines } = allocateVat(CART, 300, 500, false);
    expect(lines.map((line) => line.discountShareCents)).toEqual([100, 200]);
    expect(lines.map((line) => line.netCents)).toEqual([900, 1800]);
    expect(sum(lines.map((line) => line.discountShareCents))).toBe(300);
  });

  it("gives each line its part of its rate's base, and the rest of its discounted total as its VAT", () => {
    const { lines } = allocateVat(CART, 300, 500, false);
    expect(lines).toEqual([
      // 1 011 of base at 5,5 % over 900 and 167: 852,77 and 158,23, the cent left to the larger remainder.
      { totalCents: 1000, vatRateBp: 550, vatScheme: "normal", discountShareCents: 100, netCents: 900, exclVatCents: 853, vatCents: 47 },
      // 1 778 at 20 % over 1 800 and 333: 1 500,42 and 277,58.
      { totalCents: 2000, vatRateBp: 2000, vatScheme: "normal", discountShareCents: 200, netCents: 1800, exclVatCents: 1500, vatCents: 300 },
    ]);
  });

  it("splits the delivery over the rates pro rata of the discounted goods, each part with its part of the rate's base", () => {
    const { chargesVat } = allocateVat(CART, 300, 500, false);
    // 1 800 / 900 of goods: 333,33 / 166,67 of delivery.
    expect(chargesVat).toEqual([
      { rateBp: 2000, baseCents: 278, vatCents: 55, totalCents: 333 },
      { rateBp: 550, baseCents: 158, vatCents: 9, totalCents: 167 },
    ]);
  });

  it("takes each rate's VAT out of the rate's total, goods and charges together, highest rate first", () => {
    const allocation = allocateVat(CART, 300, 500, false);
    expect(allocation.breakdown).toEqual([
      // 21,33 € / 1,2 = 17,775 €: base 17,78 €, VAT 3,55 € (the lines' VAT rounded one by one gave 3,56 €).
      { rateBp: 2000, baseCents: 1778, vatCents: 355, totalCents: 2133 },
      // 10,67 € / 1,055 = 10,1137 €.
      { rateBp: 550, baseCents: 1011, vatCents: 56, totalCents: 1067 },
    ]);
    expect(sum(allocation.breakdown.map((row) => row.totalCents))).toBe(3000 + 500 - 300);
    for (const row of allocation.breakdown) expect(row.baseCents + row.vatCents).toBe(row.totalCents);
    expect(allocation.marginSchemeCents).toBe(0);
  });

  it("puts several lines at one rate on one row", () => {
    const { breakdown } = allocateVat([booster(650), manga(720), booster(1300)], 0, 0, false);
    expect(breakdown).toEqual([
      { rateBp: 2000, baseCents: 1625, vatCents: 325, totalCents: 1950 },
      { rateBp: 550, baseCents: 682, vatCents: 38, totalCents: 720 },
    ]);
  });

  it("rounds the VAT of the rate's total, not of each line (issue 51: 8,67 € of base and 0,47 € of VAT at 5,5 %)", () => {
    // Mangas of 3,10 € and 6,04 €: 0,1616 € and 0,3149 € of VAT, 0,16 € + 0,31 € = 0,47 € rounded
    // line by line; the 9,14 € at 5,5 % hold 8,6635 € of base: 8,66 €, and 0,48 € of VAT.
    const { breakdown, lines } = allocateVat([manga(310), manga(604)], 0, 0, false);
    expect(breakdown).toEqual([{ rateBp: 550, baseCents: 866, vatCents: 48, totalCents: 914 }]);
    // 866 over 310 and 604: 293,72 and 572,28, the cent left to the larger remainder.
    expect(lines.map((line) => [line.exclVatCents, line.vatCents])).toEqual([
      [294, 16],
      [572, 32],
    ]);
    // Three boosters of 9,92 € in three lines: 3 × 1,65 € = 4,95 € line by line; 29,76 € / 1,2 = 24,80 €, so 4,96 €.
    const boosters = allocateVat([booster(992), booster(992), booster(992)], 0, 0, false);
    expect(boosters.breakdown).toEqual([{ rateBp: 2000, baseCents: 2480, vatCents: 496, totalCents: 2976 }]);
    // 2 480 over three equal lines: 826,67 each, the two cents left to the first two.
    expect(boosters.lines.map((line) => [line.exclVatCents, line.vatCents])).toEqual([
      [827, 165],
      [827, 165],
      [826, 166],
    ]);
  });

  it("takes no charges into account when there are none", () => {
    const allocation = allocateVat(CART, 300, 0, false);
    expect(allocation.chargesVat).toEqual([]);
    expect(allocation.breakdown).toEqual([
      { rateBp: 2000, baseCents: 1500, vatCents: 300, totalCents: 1800 },
      { rateBp: 550, baseCents: 853, vatCents: 47, totalCents: 900 },
    ]);
  });

  it("shows no VAT on margin-scheme goods and leaves them out of the breakdown and of the charges' split", () => {
    const allocation = allocateVat([manga(1000), secondHand(3000), booster(2000)], 600, 500, false);
    // 600 of discount over 1 000 / 3 000 / 2 000.
    expect(allocation.lines.map((line) => line.discountShareCents)).toEqual([100, 300, 200]);
    expect(allocation.lines[1]).toMatchObject({ vatScheme: "margin", netCents: 2700, vatCents: 0 });
    expect(allocation.marginSchemeCents).toBe(2700);
    // The delivery follows the normal goods only: 1 800 at 20 %, 900 at 5,5 %, as without the card.
    expect(allocation.chargesVat).toEqual(allocateVat(CART, 300, 500, false).chargesVat);
    expect(allocation.breakdown).toEqual(allocateVat(CART, 300, 500, false).breakdown);
    expect(sum(allocation.breakdown.map((row) => row.totalCents)) + allocation.marginSchemeCents).toBe(6000 + 500 - 600);
  });

  it("puts the charges at 20 % when the cart holds only margin-scheme goods", () => {
    const allocation = allocateVat([secondHand(4000), { totalCents: 1000, vatRateBp: 550, vatScheme: "margin" }], 500, 690, false);
    expect(allocation.lines.map((line) => [line.exclVatCents, line.vatCents])).toEqual([
      [null, 0],
      [null, 0],
    ]);
    expect(allocation.marginSchemeCents).toBe(4500);
    expect(allocation.chargesVat).toEqual([{ rateBp: 2000, baseCents: 575, vatCents: 115, totalCents: 690 }]);
    expect(allocation.breakdown).toEqual([{ rateBp: 2000, baseCents: 575, vatCents: 115, totalCents: 690 }]);
  });

  it("gives an empty breakdown for margin-scheme goods and no charges", () => {
    const allocation = allocateVat([secondHand(4000)], 0, 0, false);
    expect(allocation.chargesVat).toEqual([]);
    expect(allocation.breakdown).toEqual([]);
    expect(allocation.marginSchemeCents).toBe(4000);
  });

  it("puts the charges at 20 % when a 100 % discount leaves mangas at nothing", () => {
    const allocation = allocateVat([manga(1000), manga(550)], 1550, 490, false);
    expect(allocation.lines.map((line) => [line.discountShareCents, line.netCents, line.vatCents])).toEqual([
      [1000, 0, 0],
      [550, 0, 0],
    ]);
    expect(allocation.breakdown).toEqual([{ rateBp: 2000, baseCents: 408, vatCents: 82, totalCents: 490 }]);
  });

  it("has no VAT at all under the franchise", () => {
    const allocation = allocateVat([manga(1000), secondHand(3000), booster(2000)], 600, 500, true);
    expect(allocation.lines.map((line) => [line.exclVatCents, line.vatCents])).toEqual([
      [null, 0],
      [null, 0],
      [null, 0],
    ]);
    // The discount is still shared: the lines' totals after it are printed.
    expect(allocation.lines.map((line) => line.netCents)).toEqual([900, 2700, 1800]);
    expect(allocation.chargesVat).toEqual([]);
    expect(allocation.breakdown).toEqual([]);
    expect(allocation.marginSchemeCents).toBe(0);
  });

  it("handles an empty cart", () => {
    expect(allocateVat([], 0, 0, false)).toEqual({ lines: [], chargesVat: [], breakdown: [], marginSchemeCents: 0 });
    expect(allocateVat([], 0, 500, false).breakdown).toEqual([{ rateBp: 2000, baseCents: 417, vatCents: 83, totalCents: 500 }]);
  });

  it("holds its invariants over a few hundred random carts", () => {
    const random = seeded(42);
    const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
    for (let run = 0; run < 400; run++) {
      const lines: TaxedLine[] = Array.from({ length: 1 + Math.floor(random() * 6) }, () => ({
        // From 1 € up: with at most half of the goods off, every normal line keeps a positive total.
        totalCents: 100 + Math.floor(random() * 50_000),
        vatRateBp: pick(VAT_RATES_BP),
        vatScheme: random() < 0.2 ? "margin" : "normal",
      }));
      const goods = sum(lines.map((line) => line.totalCents));
      const discount = random() < 0.3 ? 0 : Math.floor(random() * (goods / 2));
      const charges = random() < 0.2 ? 0 : Math.floor(random() * 3_000);
      const franchise = random() < 0.1;
      const allocation = allocateVat(lines, discount, charges, franchise);
      const context = JSON.stringify({ lines, discount, charges, franchise });

      // The discount's shares sum to it, each at most the line's total.
      expect(sum(allocation.lines.map((line) => line.discountShareCents)), context).toBe(discount);
      allocation.lines.forEach((line, i) => {
        expect(line).toMatchObject(lines[i]!);
        expect(line.discountShareCents).toBeGreaterThanOrEqual(0);
        expect(line.netCents).toBe(line.totalCents - line.discountShareCents);
        expect(line.netCents).toBeGreaterThan(0);
        if (franchise || line.vatScheme === "margin") expect([line.exclVatCents, line.vatCents]).toEqual([null, 0]);
        else expect(line.exclVatCents! + line.vatCents).toBe(line.netCents);
      });

      if (franchise) {
        expect(allocation.breakdown).toEqual([]);
        expect(allocation.chargesVat).toEqual([]);
        expect(allocation.marginSchemeCents).toBe(0);
        continue;
      }
      const normal = allocation.lines.filter((line) => line.vatScheme === "normal");
      const margin = allocation.lines.filter((line) => line.vatScheme === "margin");
      expect(allocation.marginSchemeCents).toBe(sum(margin.map((line) => line.netCents)));

      // The breakdown covers every cent paid but the margin-scheme goods.
      expect(sum(allocation.breakdown.map((row) => row.totalCents)), context).toBe(goods + charges - discount - allocation.marginSchemeCents);
      expect(sum(allocation.breakdown.map((row) => row.vatCents))).toBe(sum(normal.map((line) => line.vatCents)) + sum(allocation.chargesVat.map((row) => row.vatCents)));
      expectRows(allocation.breakdown);
      expect(allocation.breakdown.every((row) => row.totalCents !== 0)).toBe(true);

      // The charges: all of them, over the rates of the normal goods pro rata, else at 20 %.
      expect(sum(allocation.chargesVat.map((row) => row.totalCents)), context).toBe(charges);
      expectRows(allocation.chargesVat);
      const goodsByRate = new Map<VatRateBp, number>();
      for (const line of normal) goodsByRate.set(line.vatRateBp, (goodsByRate.get(line.vatRateBp) ?? 0) + line.netCents);
      if (normal.length === 0) {
        expect(allocation.chargesVat.map((row) => row.rateBp)).toEqual(charges === 0 ? [] : [2000]);
      } else {
        const normalNet = sum(normal.map((line) => line.netCents));
        for (const row of allocation.chargesVat) {
          expect(goodsByRate.has(row.rateBp)).toBe(true);
          expect(Math.abs(row.totalCents - (charges * goodsByRate.get(row.rateBp)!) / normalNet)).toBeLessThan(1);
        }
        // Each rate's row: its goods after discount, plus its share of the charges.
        for (const row of allocation.breakdown) {
          const chargesAtRate = allocation.chargesVat.find((charge) => charge.rateBp === row.rateBp)?.totalCents ?? 0;
          expect(row.totalCents).toBe((goodsByRate.get(row.rateBp) ?? 0) + chargesAtRate);
        }
      }
      // Each rate's base: its total / (1 + rate), to the nearest cent; the lines' and the
      // charges' parts of it sum to it, each within a cent of its exact share.
      for (const row of allocation.breakdown) {
        const exact = (row.totalCents * 10_000) / (10_000 + row.rateBp);
        expect(Math.abs(row.baseCents - exact), context).toBeLessThanOrEqual(0.5);
        const parts = [...normal.filter((line) => line.vatRateBp === row.rateBp).map((line) => [line.exclVatCents!, line.netCents] as const)];
        const charge = allocation.chargesVat.find((c) => c.rateBp === row.rateBp);
        if (charge) parts.push([charge.baseCents, charge.totalCents]);
        expect(sum(parts.map(([base]) => base)), context).toBe(row.baseCents);
        for (const [base, total] of parts) expect(Math.abs(base - (row.baseCents * total) / row.totalCents)).toBeLessThan(1);
      }
    }
  });
});

/** Rows of a breakdown: one per rate, highest first, base + VAT = total. */
function expectRows(rows: readonly VatBreakdownRow[]) {
  expect(new Set(rows.map((row) => row.rateBp)).size).toBe(rows.length);
  expect(rows.map((row) => row.rateBp)).toEqual([...rows.map((row) => row.rateBp)].sort((a, b) => b - a));
  for (const row of rows) expect(row.baseCents + row.vatCents).toBe(row.totalCents);
}

describe("formatVatRate", () => {
  it("writes a rate as the French read it, with a no-break space", () => {
    expect(formatVatRate(2000)).toBe("20\u00a0%");
    expect(formatVatRate(550)).toBe("5,5\u00a0%");
    expect(formatVatRate(1000)).toBe("10\u00a0%");
    expect(formatVatRate(210)).toBe("2,1\u00a0%");
    expect(formatVatRate(0)).toBe("0\u00a0%");
    expect(formatVatRate(1234)).toBe("12,34\u00a0%");
  });
});

