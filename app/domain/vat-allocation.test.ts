import { describe, expect, it } from "vitest";
import type { VatBreakdownRow } from "./invoice";
import { VAT_RATES_BP, type VatRateBp } from "./vat";
import { type TaxedLine, allocateVat, formatVatRate, splitProRata, vatInside } from "./vat-allocation";

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

const manga = (totalCents: number): TaxedLine => ({ totalCents, vatRateBp: 550, vatScheme: "normal" });
const booster = (totalCents: number): TaxedLine => ({ totalCents, vatRateBp: 2000, vatScheme: "normal" });
const secondHand = (totalCents: number): TaxedLine => ({ totalCents, vatRateBp: 2000, vatScheme: "margin" });

describe("vatInside", () => {
  it("takes the VAT out of a TTC amount", () => {
    expect(vatInside(1200, 2000)).toBe(200); // 12,00 € TTC at 20 %: 2,00 €
    expect(vatInside(1055, 550)).toBe(55); // 10,55 € TTC at 5,5 %: 0,55 €
    expect(vatInside(1100, 1000)).toBe(100); // 11,00 € TTC at 10 %: 1,00 €
    expect(vatInside(1021, 210)).toBe(21); // 10,21 € TTC at 2,1 %: 0,21 €
    expect(vatInside(0, 2000)).toBe(0);
    expect(vatInside(1000, 0)).toBe(0);
  });

  it("rounds to the nearest cent", () => {
    expect(vatInside(1000, 2000)).toBe(167); // 166,67
    expect(vatInside(1001, 2000)).toBe(167); // 166,83
    expect(vatInside(1004, 2000)).toBe(167); // 167,33
    expect(vatInside(999, 550)).toBe(52); // 52,08
    expect(vatInside(1000, 550)).toBe(52); // 52,13
    expect(vatInside(1010, 550)).toBe(53); // 52,65
  });

  it("rounds a half cent up", () => {
    expect(vatInside(3, 2000)).toBe(1); // 0,5
    expect(vatInside(9, 2000)).toBe(2); // 1,5
    expect(vatInside(15, 2000)).toBe(3); // 2,5
    expect(vatInside(333, 2000)).toBe(56); // 55,5
    expect(vatInside(1005, 2000)).toBe(168); // 167,5
  });

  it("keeps base + VAT = TTC at every rate for every amount up to 100 €", () => {
    for (const rate of VAT_RATES_BP) {
      for (let ttc = 0; ttc <= 10_000; ttc++) {
        const vat = vatInside(ttc, rate);
        const base = ttc - vat;
        // The exact VAT is base × rate: the rounded one is within half a cent of it.
        expect(Math.abs(vat - (ttc * rate) / (10_000 + rate))).toBeLessThanOrEqual(0.5);
        expect(base + vat).toBe(ttc);
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

  it("takes each line's VAT out of its discounted total at its rate", () => {
    const { lines } = allocateVat(CART, 300, 500, false);
    expect(lines).toEqual([
      { totalCents: 1000, vatRateBp: 550, vatScheme: "normal", discountShareCents: 100, netCents: 900, vatCents: 47 }, // 46,92
      { totalCents: 2000, vatRateBp: 2000, vatScheme: "normal", discountShareCents: 200, netCents: 1800, vatCents: 300 },
    ]);
  });

  it("splits the delivery over the rates pro rata of the discounted goods", () => {
    const { chargesVat } = allocateVat(CART, 300, 500, false);
    // 1 800 / 900 of goods: 333,33 / 166,67 of delivery.
    expect(chargesVat).toEqual([
      { rateBp: 2000, baseCents: 277, vatCents: 56, totalCents: 333 },
      { rateBp: 550, baseCents: 158, vatCents: 9, totalCents: 167 },
    ]);
  });

  it("sums the goods and the charges by rate, highest rate first", () => {
    const allocation = allocateVat(CART, 300, 500, false);
    expect(allocation.breakdown).toEqual([
      { rateBp: 2000, baseCents: 1777, vatCents: 356, totalCents: 2133 },
      { rateBp: 550, baseCents: 1011, vatCents: 56, totalCents: 1067 },
    ]);
    expect(sum(allocation.breakdown.map((row) => row.totalCents))).toBe(3000 + 500 - 300);
    for (const row of allocation.breakdown) expect(row.baseCents + row.vatCents).toBe(row.totalCents);
    expect(allocation.marginSchemeCents).toBe(0);
  });

  it("puts several lines at one rate on one row", () => {
    const { breakdown } = allocateVat([booster(650), manga(720), booster(1300)], 0, 0, false);
    expect(breakdown).toEqual([
      { rateBp: 2000, baseCents: 1625, vatCents: 325, totalCents: 1950 }, // 108 + 217: the lines' VAT, each rounded
      { rateBp: 550, baseCents: 682, vatCents: 38, totalCents: 720 },
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
    expect(allocation.lines.map((line) => line.vatCents)).toEqual([0, 0]);
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
    expect(allocation.lines.map((line) => line.vatCents)).toEqual([0, 0, 0]);
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
        expect(line.vatCents).toBe(franchise || line.vatScheme === "margin" ? 0 : vatInside(line.netCents, line.vatRateBp));
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
      for (const row of allocation.chargesVat) expect(row.vatCents).toBe(vatInside(row.totalCents, row.rateBp));
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

/** A small seeded generator (mulberry32): the same carts on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
