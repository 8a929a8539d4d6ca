import { describe, expect, it } from "vitest";
import { addCalendarDays, averageBasket, changePercent, changeText, DASHBOARD_PERIODS, dailySeries, durationText, parisDate, parisMidnight, periodRanges } from "./dashboard";

describe("the dashboard's Paris days", () => {
  it("reads the Paris date of an instant, the evening before in UTC being the next day in winter and in summer", () => {
    expect(parisDate(new Date("2026-11-30T22:59:59Z"))).toBe("2026-11-30");
    expect(parisDate(new Date("2026-11-30T23:00:00Z"))).toBe("2026-12-01");
    expect(parisDate(new Date("2026-06-30T22:00:00Z"))).toBe("2026-07-01");
  });

  it("bounds days by Paris midnights: 23 hours when summer time starts, 25 when it ends", () => {
    expect(parisMidnight("2026-03-29").toISOString()).toBe("2026-03-28T23:00:00.000Z");
    expect(parisMidnight("2026-03-30").toISOString()).toBe("2026-03-29T22:00:00.000Z");
    expect(parisMidnight("2026-10-25").toISOString()).toBe("2026-10-24T22:00:00.000Z");
    expect(parisMidnight("2026-10-26").toISOString()).toBe("2026-10-25T23:00:00.000Z");
    expect(addCalendarDays("2026-02-28", 1)).toBe("2026-03-01");
    expect(addCalendarDays("2026-01-01", -1)).toBe("2025-12-31");
  });

  it("makes today, 7 and 30 days of whole Paris days against the days just before", () => {
    const now = new Date("2026-03-30T10:00:00Z"); // a Monday in Paris, the day after summer time began
    expect(periodRanges(now, 1)).toEqual({
      current: { from: new Date("2026-03-29T22:00:00Z"), to: new Date("2026-03-30T22:00:00Z") },
      previous: { from: new Date("2026-03-28T23:00:00Z"), to: new Date("2026-03-29T22:00:00Z") },
    });
    const week = periodRanges(now, 7);
    expect(week.current).toEqual({ from: new Date("2026-03-23T23:00:00Z"), to: new Date("2026-03-30T22:00:00Z") });
    expect(week.previous).toEqual({ from: new Date("2026-03-16T23:00:00Z"), to: new Date("2026-03-23T23:00:00Z") });
    expect(week.current.to.getTime() - week.current.from.getTime()).toBe((7 * 24 - 1) * 3_600_000);
  });

  it("fills the chart's days without a sale with 0", () => {
    expect(dailySeries([{ day: "2026-10-26", revenueCents: 500, orders: 1 }], "2026-10-25", 3)).toEqual([
      { day: "2026-10-25", revenueCents: 0, orders: 0 },
      { day: "2026-10-26", revenueCents: 500, orders: 1 },
      { day: "2026-10-27", revenueCents: 0, orders: 0 },
    ]);
  });

  it("words each period's comparison with the days before in correct French", () => {
    expect(DASHBOARD_PERIODS.map((period) => [period.key, period.label, period.comparedWith])).toEqual([
      ["today", "Aujourd'hui", "par rapport à hier"],
      ["7d", "7 derniers jours", "par rapport aux 7 jours précédents"],
      ["30d", "30 derniers jours", "par rapport aux 30 jours précédents"],
    ]);
    // The contractions French requires: à + les = aux, de + les = des, à + le = au, de + le = du.
    for (const period of DASHBOARD_PERIODS) expect(period.comparedWith).not.toMatch(/\b(à|de) (les|le)\b/);
  });

  it("compares with the period before, and words durations", () => {
    expect(changePercent(150, 100)).toBe(50);
    expect(changePercent(0, 100)).toBe(-100);
    expect(changePercent(10, 0)).toBeNull();
    expect([changeText(12), changeText(-5), changeText(0), changeText(null)]).toEqual(["+12 %", "−5 %", "=", "nouveau"]);
    expect(averageBasket(10_001, 2)).toBe(5_001);
    expect(averageBasket(0, 0)).toBe(0);
    expect(durationText(42_000)).toBe("42 s");
    expect(durationText(12 * 60_000)).toBe("12 min");
    expect(durationText((5 * 60 + 10) * 60_000)).toBe("5 h 10 min");
    expect(durationText((2 * 24 + 4) * 3_600_000)).toBe("2 j 4 h");
  });
});
