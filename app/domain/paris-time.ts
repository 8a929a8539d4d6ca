/**
 * Paris wall-clock time without Intl (as formatEuros, decision 025): a browser's first Intl
 * formatter costs 30–100 ms of main thread while it loads its locale data. France keeps the
 * European Union's summer time (since 1996): UTC+2 from the last Sunday of March at 01:00 UTC
 * to the last Sunday of October at 01:00 UTC, UTC+1 otherwise. paris-time.test.ts holds these
 * to Intl's "Europe/Paris" hour by hour over decades.
 */

const HOUR = 60 * 60 * 1000;
const MONTHS = ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"];

/** The last Sunday of a month (0-based), at 01:00 UTC: when EU clocks change. */
function lastSundayAtOneUtc(year: number, month: number): number {
  const lastDay = new Date(Date.UTC(year, month + 1, 0, 1));
  return lastDay.getTime() - lastDay.getUTCDay() * 24 * HOUR;
}

/** An instant: a Date, or its ISO text as loader data carries it. */
type Instant = Date | string;

/** The date and time a clock in Paris shows at `at`. */
export function parisWallClock(at: Instant): { year: number; month: number; day: number; hour: number; minute: number } {
  const date = new Date(at);
  const time = date.getTime();
  const year = date.getUTCFullYear();
  const summer = time >= lastSundayAtOneUtc(year, 2) && time < lastSundayAtOneUtc(year, 9);
  const local = new Date(time + (summer ? 2 : 1) * HOUR);
  return { year: local.getUTCFullYear(), month: local.getUTCMonth() + 1, day: local.getUTCDate(), hour: local.getUTCHours(), minute: local.getUTCMinutes() };
}

/** "23 novembre 2026": the day in Paris. */
export function formatParisDate(at: Instant): string {
  const { year, month, day } = parisWallClock(at);
  return `${day} ${MONTHS[month - 1]} ${year}`;
}

/** "09:05": the time in Paris. */
export function formatParisTime(at: Instant): string {
  const { hour, minute } = parisWallClock(at);
  return `${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`;
}

/** "5 mars 2025 à 14:30": an order's moments, in Paris. */
export function formatParisDateTime(at: Instant): string {
  return `${formatParisDate(at)} à ${formatParisTime(at)}`;
}

/** "05/03/2025": the day in Paris, for tables. */
export function formatParisShortDate(at: Instant): string {
  const { year, month, day } = parisWallClock(at);
  return `${String(day).padStart(2, "0")}/${String(month).padStart(2, "0")}/${year}`;
}

/** "05/03/2025 14:30": a moment in Paris, for tables. */
export function formatParisShortDateTime(at: Instant): string {
  return `${formatParisShortDate(at)} ${formatParisTime(at)}`;
}
