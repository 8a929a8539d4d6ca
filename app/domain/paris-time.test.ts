import { describe, expect, it } from "vitest";
import { formatParisDate, formatParisDateTime, formatParisShortDate, formatParisShortDateTime, formatParisTime } from "./paris-time";

const intlDate = new Intl.DateTimeFormat("fr-FR", { day: "numeric", month: "long", year: "numeric", timeZone: "Europe/Paris" });
const intlTime = new Intl.DateTimeFormat("fr-FR", { hour: "2-digit", minute: "2-digit", timeZone: "Europe/Paris" });
const intlDateTime = new Intl.DateTimeFormat("fr-FR", { dateStyle: "long", timeStyle: "short", timeZone: "Europe/Paris" });
const intlShortDate = new Intl.DateTimeFormat("fr-FR", { day: "2-digit", month: "2-digit", year: "numeric", timeZone: "Europe/Paris" });
const intlShortDateTime = new Intl.DateTimeFormat("fr-FR", { dateStyle: "short", timeStyle: "short", timeZone: "Europe/Paris" });
const HOUR = 60 * 60 * 1000;

describe("Paris time without Intl", () => {
  it("writes what Intl writes for Europe/Paris from 2000 to 2060", () => {
    const mismatches: string[] = [];
    const check = (time: number) => {
      const date = new Date(time);
      if (
        formatParisDate(date) !== intlDate.format(date) ||
        formatParisTime(date) !== intlTime.format(date) ||
        formatParisDateTime(date) !== intlDateTime.format(date) ||
        formatParisShortDate(date) !== intlShortDate.format(date) ||
        formatParisShortDateTime(date) !== intlShortDateTime.format(date)
      ) {
        mismatches.push(`${date.toISOString()}: ${formatParisDate(date)} ${formatParisTime(date)}`);
      }
    };
    // Every 7 hours (each hour of the day in turn), 37 minutes past.
    for (let time = Date.UTC(2000, 0, 1, 0, 37); time < Date.UTC(2060, 0, 1); time += 7 * HOUR) check(time);
    // Every half hour of the last week of March and of October, where the clocks change.
    for (let year = 2000; year < 2060; year++) {
      for (const month of [2, 9]) {
        for (let time = Date.UTC(year, month, 25); time < Date.UTC(year, month + 1, 1); time += HOUR / 2) check(time);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it("changes at 01:00 UTC on the last Sundays of March and October", () => {
    // 2026: summer time from 29 March, winter time from 25 October.
    expect(formatParisTime(new Date("2026-03-29T00:59:59Z"))).toBe("01:59");
    expect(formatParisTime(new Date("2026-03-29T01:00:00Z"))).toBe("03:00");
    expect(formatParisTime(new Date("2026-10-25T00:59:59Z"))).toBe("02:59");
    expect(formatParisTime(new Date("2026-10-25T01:00:00Z"))).toBe("02:00");
    expect(formatParisDate(new Date("2026-12-31T23:30:00Z"))).toBe("1 janvier 2027");
    expect(formatParisDate(new Date("2026-11-22T23:00:00Z"))).toBe("23 novembre 2026");
  });
});
