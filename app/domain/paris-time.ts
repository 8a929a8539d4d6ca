import { TZDate, tzOffset } from "@date-fns/tz";
import { calendarDayText } from "./calendar-date";

/**
 * Paris time, in one module, read from the time-zone database: the shop's dates and times are
 * what a clock in Paris shows, whatever the zone of the server or of the visitor. Nothing here
 * knows when the clocks change: an instant is read with Intl's "Europe/Paris" (one formatter,
 * made once, whose parts give the numbers), and a Paris date and time typed by the seller
 * becomes an instant through @date-fns/tz's TZDate, itself on Intl. The text is written from
 * those numbers rather than by a date style, whose wording differs between ICU versions: the
 * server's text and the browser's must match for hydration. paris-time.test.ts holds it to
 * Intl's own text hour by hour over decades.
 */

const SHOP_TIME_ZONE = "Europe/Paris";

const parisClock = new Intl.DateTimeFormat("en-GB", {
  timeZone: SHOP_TIME_ZONE,
  year: "numeric",
  month: "numeric",
  day: "numeric",
  hour: "numeric",
  minute: "numeric",
  second: "numeric",
  hourCycle: "h23",
});

/** An instant: a Date, or its ISO text as loader data carries it. */
type Instant = Date | string;

type WallClock = { year: number; month: number; day: number; hour: number; minute: number; second: number };

/** The date and time, to the second, a clock in Paris shows at `at`. */
function parisClockAt(at: Instant): WallClock {
  const wall: WallClock = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  for (const part of parisClock.formatToParts(new Date(at))) {
    if (part.type in wall) wall[part.type as keyof WallClock] = Number(part.value);
  }
  return wall;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** The date and time a clock in Paris shows at `at`. */
export function parisWallClock(at: Instant): { year: number; month: number; day: number; hour: number; minute: number } {
  const { year, month, day, hour, minute } = parisClockAt(at);
  return { year, month, day, hour, minute };
}

const timeText = (p: WallClock) => `${pad(p.hour)}:${pad(p.minute)}`;
const shortDateText = (p: WallClock) => `${pad(p.day)}/${pad(p.month)}/${p.year}`;

/** "23 novembre 2026": the day in Paris. */
export function formatParisDate(at: Instant): string {
  return calendarDayText(parisClockAt(at));
}

/** "09:05": the time in Paris. */
export function formatParisTime(at: Instant): string {
  return timeText(parisClockAt(at));
}

/** "5 mars 2025 à 14:30": an order's moments, in Paris. */
export function formatParisDateTime(at: Instant): string {
  const p = parisClockAt(at);
  return `${calendarDayText(p)} à ${timeText(p)}`;
}

/** "05/03/2025": the day in Paris, for tables. */
export function formatParisShortDate(at: Instant): string {
  return shortDateText(parisClockAt(at));
}

/** "05/03/2025 14:30": a moment in Paris, for tables. */
export function formatParisShortDateTime(at: Instant): string {
  const p = parisClockAt(at);
  return `${shortDateText(p)} ${timeText(p)}`;
}

/** An instant as the admin's forms show it: Paris date "2026-12-01" and time "18:00" ("18:00:30" when the seconds count). */
export function parisWallTime(instant: Date): { date: string; time: string } {
  const p = parisClockAt(instant);
  return { date: `${p.year}-${pad(p.month)}-${pad(p.day)}`, time: `${pad(p.hour)}:${pad(p.minute)}${p.second !== 0 ? `:${pad(p.second)}` : ""}` };
}

const DAY_MS = 24 * 60 * 60 * 1000;

function shows(at: Date, wall: WallClock): boolean {
  const p = parisClockAt(at);
  return p.year === wall.year && p.month === wall.month && p.day === wall.day && p.hour === wall.hour && p.minute === wall.minute && p.second === wall.second;
}

/**
 * The instant at which Paris clocks show this date and time (a drop, a promotion's expiry, a
 * countdown typed by the seller). Null for a time that does not exist (the hour skipped when
 * summer time starts); a time that happens twice (the hour repeated when it ends) gives the
 * first one, so a drop never opens an hour late.
 */
export function parisWallTimeToUtc(year: number, month: number, day: number, hour: number, minute: number, second = 0): Date | null {
  const wall = { year, month, day, hour, minute, second };
  const at = new TZDate(year, month - 1, day, hour, minute, second, SHOP_TIME_ZONE);
  // In the skipped hour, TZDate moves on to a time the clocks do show.
  if (!shows(at, wall)) return null;
  // In the repeated hour, it gives the later one: the offset in force a day before, if larger,
  // gives the earlier one.
  const earlier = new Date(at.getTime() - (tzOffset(SHOP_TIME_ZONE, new Date(at.getTime() - DAY_MS)) - tzOffset(SHOP_TIME_ZONE, at)) * 60_000);
  return earlier < at && shows(earlier, wall) ? earlier : new Date(at.getTime());
}
