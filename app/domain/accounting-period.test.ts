import { describe, expect, it } from "vitest";
import { parseAccountingPeriod, periodBounds, periodFileName, periodLabel, periodQuery } from "./accounting-period";

const params = (query: string) => new URLSearchParams(query);

describe("accounting period", () => {
  it("reads a month or a whole year from the URL, and defaults to the current month in Paris", () => {
    expect(parseAccountingPeriod(params("year=2026&month=11"), new Date())).toEqual({ ok: true, period: { year: 2026, month: 11 } });
    expect(parseAccountingPeriod(params("year=2026&month=03"), new Date())).toEqual({ ok: true, period: { year: 2026, month: 3 } });
    expect(parseAccountingPeriod(params("year=2026&month="), new Date())).toEqual({ ok: true, period: { year: 2026, month: null } });
    expect(parseAccountingPeriod(params("year=2026"), new Date())).toEqual({ ok: true, period: { year: 2026, month: null } });
    // 31 December 23:30 UTC is already 1 January in Paris.
    expect(parseAccountingPeriod(params(""), new Date("2026-12-31T23:30:00Z"))).toEqual({ ok: true, period: { year: 2027, month: 1 } });
  });

  it("refuses a bad year or month with a French message", () => {
    for (const query of ["year=26&month=1", "year=abcd", "year=1999&month=1", "month=11", "year=2026&month=13", "year=2026&month=0", "year=2026&month=1;drop"]) {
      const parsed = parseAccountingPeriod(params(query), new Date());
      expect(parsed.ok, query).toBe(false);
      if (!parsed.ok) expect(parsed.error).toMatch(/^(Année|Mois) invalide/);
    }
  });

  it("bounds a period by midnight in Paris, winter or summer time", () => {
    // Winter: UTC+1; summer: UTC+2 (from 29 March 2026 to 25 October 2026).
    expect(periodBounds({ year: 2026, month: 3 })).toEqual({ from: new Date("2026-02-28T23:00:00Z"), to: new Date("2026-03-31T22:00:00Z") });
    expect(periodBounds({ year: 2026, month: 10 })).toEqual({ from: new Date("2026-09-30T22:00:00Z"), to: new Date("2026-10-31T23:00:00Z") });
    expect(periodBounds({ year: 2026, month: 12 })).toEqual({ from: new Date("2026-11-30T23:00:00Z"), to: new Date("2026-12-31T23:00:00Z") });
    expect(periodBounds({ year: 2026, month: null })).toEqual({ from: new Date("2025-12-31T23:00:00Z"), to: new Date("2026-12-31T23:00:00Z") });
  });

  it("names a period for the page, the URL and the file", () => {
    expect(periodLabel({ year: 2026, month: 8 })).toBe("août 2026");
    expect(periodLabel({ year: 2026, month: null })).toBe("année 2026");
    expect(periodQuery({ year: 2026, month: 8 })).toBe("year=2026&month=8");
    expect(periodQuery({ year: 2026, month: null })).toBe("year=2026&month=");
    expect(periodFileName({ year: 2026, month: 8 })).toBe("recettes-comptoir-2026-08.csv");
    expect(periodFileName({ year: 2026, month: null })).toBe("recettes-comptoir-2026.csv");
  });
});
