/**
 * French calendar days, with no instant and no time zone: what a `date` column holds
 * ("2026-12-12"). Apart from paris-time.ts so that a page showing such a day (a pre-order's
 * release on the product page) does not load the time-zone code with it.
 */

/** The months as French dates write them, January first. */
export const MONTH_NAMES = ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"];

/** "12 décembre 2026" from its numbers. */
export const calendarDayText = (p: { year: number; month: number; day: number }) => `${p.day} ${MONTH_NAMES[p.month - 1]} ${p.year}`;

/** "12 décembre 2026" for a calendar date ("2026-12-12", a date column). */
export function formatCalendarDate(isoDate: string): string {
  const [year, month, day] = isoDate.split("-").map(Number);
  return calendarDayText({ year: year!, month: month!, day: day! });
}
