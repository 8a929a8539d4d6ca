import { describe, expect, it } from "vitest";
import {
  formatParisDate,
  formatParisDateTime,
  formatParisShortDate,
  formatParisShortDateTime,
  formatParisTime,
  parisWallClock,
  parisWallTime,
  parisWallTimeToUtc,
} from "./paris-time";

// The reference: Intl's own text for Europe/Paris, by date styles the module does not use.
const intlDate = new Intl.DateTimeFormat("fr-FR", { day: "numeric", month: "long", year: "numeric", timeZone: "Europe/Paris" });
const intlTime = new Intl.DateTimeFormat("fr-FR", { hour: "2-digit", minute: "2-digit", timeZone: "Europe/Paris" });
const intlDateTime = new Intl.DateTimeFormat("fr-FR", { dateStyle: "long", timeStyle: "short", timeZone: "Europe/Paris" });
const intlShortDate = new Intl.DateTimeFormat("fr-FR", { day: "2-digit", month: "2-digit", year: "numeric", timeZone: "Europe/Paris" });
const intlShortDateTime = new Intl.DateTimeFormat("fr-FR", { dateStyle: "short", timeStyle: "short", timeZone: "Europe/Paris" });
const intlIso = new Intl.DateTimeFormat("sv-SE", { dateStyle: "short", timeStyle: "medium", timeZone: "Europe/Paris" }); // "2026-03-29 03:00:00"
const HOUR = 60 * 60 * 1000;
/** A Paris date and time ("2026-03-29 03:00:00"), read as if it were UTC. */
const wallMs = (wall: string) => Date.parse(`${wall.replace(" ", "T")}Z`);

/**
 * The instants the checks run on, 2000 to 2060: every `stride` hours (each hour of the day in
 * turn), 37 minutes past, and every half hour of the last week of March and of October, where
 * the clocks change.
 */
function* instants(stride: number): Generator<number> {
  for (let time = Date.UTC(2000, 0, 1, 0, 37); time < Date.UTC(2060, 0, 1); time += stride * HOUR) yield time;
  for (let year = 2000; year < 2060; year++) {
    for (const month of [2, 9]) {
      for (let time = Date.UTC(year, month, 25); time < Date.UTC(year, month + 1, 1); time += HOUR / 2) yield time;
    }
  }
}

describe("Paris time on the time-zone database", () => {
  it("writes what Intl writes for Europe/Paris from 2000 to 2060", () => {
    const mismatches: string[] = [];
    for (const time of instants(7)) {
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
    }
    expect(mismatches).toEqual([]);
  });

  it("writes the examples of its comments", () => {
    const at = new Date("2025-03-05T13:30:00Z");
    expect(formatParisDate(at)).toBe("5 mars 2025");
    expect(formatParisDate(new Date("2025-03-01T12:00:00Z"))).toBe("1 mars 2025");
    expect(formatParisTime(new Date("2025-03-05T08:05:00Z"))).toBe("09:05");
    expect(formatParisDateTime(at)).toBe("5 mars 2025 à 14:30");
    expect(formatParisShortDate(at)).toBe("05/03/2025");
    expect(formatParisShortDateTime(at)).toBe("05/03/2025 14:30");
    expect(parisWallClock("2025-03-05T13:30:00.000Z")).toEqual({ year: 2025, month: 3, day: 5, hour: 14, minute: 30 });
  });

  it("changes at 01:00 UTC in March and October", () => {
    // 2026: summer time from 29 March, winter time from 25 October.
    expect(formatParisTime(new Date("2026-03-29T00:59:59Z"))).toBe("01:59");
    expect(formatParisTime(new Date("2026-03-29T01:00:00Z"))).toBe("03:00");
    expect(formatParisTime(new Date("2026-10-25T00:59:59Z"))).toBe("02:59");
    expect(formatParisTime(new Date("2026-10-25T01:00:00Z"))).toBe("02:00");
    // 2025: 30 March and 26 October; the Saturday before is still the season before.
    expect(formatParisShortDateTime(new Date("2025-03-29T12:00:00Z"))).toBe("29/03/2025 13:00");
    expect(formatParisShortDateTime(new Date("2025-03-30T12:00:00Z"))).toBe("30/03/2025 14:00");
    expect(formatParisShortDateTime(new Date("2025-10-25T12:00:00Z"))).toBe("25/10/2025 14:00");
    expect(formatParisShortDateTime(new Date("2025-10-26T12:00:00Z"))).toBe("26/10/2025 13:00");
    expect(formatParisDate(new Date("2026-12-31T23:30:00Z"))).toBe("1 janvier 2027");
    expect(formatParisDate(new Date("2026-11-22T23:00:00Z"))).toBe("23 novembre 2026");
  });
});

describe("Paris wall time", () => {
  it("converts across both changes of clocks", () => {
    expect(parisWallTimeToUtc(2027, 3, 28, 1, 59)).toEqual(new Date("2027-03-28T00:59:00Z"));
    expect(parisWallTimeToUtc(2027, 3, 28, 2, 30)).toBeNull();
    expect(parisWallTimeToUtc(2027, 3, 28, 2, 0)).toBeNull();
    expect(parisWallTimeToUtc(2027, 3, 28, 3, 0)).toEqual(new Date("2027-03-28T01:00:00Z"));
    // 25 October 2026: 02:30 happens twice; the first (still summer time) wins.
    expect(parisWallTimeToUtc(2026, 10, 25, 2, 30)).toEqual(new Date("2026-10-25T00:30:00Z"));
    expect(parisWallTimeToUtc(2026, 10, 25, 1, 59, 59)).toEqual(new Date("2026-10-24T23:59:59Z"));
    expect(parisWallTimeToUtc(2026, 10, 25, 3, 0)).toEqual(new Date("2026-10-25T02:00:00Z"));
  });

  it("shows an instant as the Paris date and time", () => {
    expect(parisWallTime(new Date("2026-12-31T23:30:00Z"))).toEqual({ date: "2027-01-01", time: "00:30" });
    expect(parisWallTime(new Date("2027-07-01T16:00:00Z"))).toEqual({ date: "2027-07-01", time: "18:00" });
    expect(parisWallTime(new Date("2027-07-01T16:00:05Z"))).toEqual({ date: "2027-07-01", time: "18:00:05" });
  });

  it("finds, from 2000 to 2060, the first instant Intl shows at a Paris date and time, and none in a skipped hour", () => {
    const mismatches: string[] = [];
    for (const time of instants(35)) {
      const wall = intlIso.format(time);
      const [y, mo, d, h, mi, s] = wall.split(/[- :]/).map(Number) as [number, number, number, number, number, number];
      const back = parisWallTimeToUtc(y, mo, d, h, mi, s);
      // The instant an hour before shows the same time: the hour repeated; the first one wins.
      const first = intlIso.format(time - HOUR) === wall ? time - HOUR : time;
      if (back?.getTime() !== first) mismatches.push(`${wall}: ${back?.toISOString()} instead of ${new Date(first).toISOString()}`);
      // Half an hour later the clocks show an hour later: the half hour in between never shows.
      const next = intlIso.format(time + HOUR / 2);
      if (wallMs(next) - wallMs(wall) === 3 * (HOUR / 2)) {
        const skipped = new Date(wallMs(wall) + HOUR / 2);
        const at = parisWallTimeToUtc(skipped.getUTCFullYear(), skipped.getUTCMonth() + 1, skipped.getUTCDate(), skipped.getUTCHours(), skipped.getUTCMinutes());
        if (at !== null) mismatches.push(`${skipped.toISOString()} (skipped): ${at.toISOString()}`);
      }
    }
    expect(mismatches).toEqual([]);
  });
});
