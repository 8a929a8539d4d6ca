import { z } from "zod";
import { parisWallClock, parisWallTimeToUtc } from "./paris-time";

/**
 * The seller's dashboard (/admin, issue 41), its rules as pure functions: which Paris days a
 * period covers, the day-by-day series of the chart, how a figure compares with the period before.
 * Every period is made of whole Paris days, bounded by Paris midnights read from the time-zone
 * database (paris-time.ts): a day is 23 or 25 hours when the clocks change.
 */

export type DayRange = { from: Date; to: Date };

/**
 * The periods the dashboard offers, each with the words that compare it with the days just
 * before, whole ("à" + "les" is "aux": never built from a bare "par rapport à").
 */
export const DASHBOARD_PERIODS = [
  { key: "today", days: 1, label: "Aujourd'hui", comparedWith: "par rapport à hier" },
  { key: "7d", days: 7, label: "7 derniers jours", comparedWith: "par rapport aux 7 jours précédents" },
  { key: "30d", days: 30, label: "30 derniers jours", comparedWith: "par rapport aux 30 jours précédents" },
] as const;

export type DashboardPeriodKey = (typeof DASHBOARD_PERIODS)[number]["key"];

/** Days shown by the revenue chart. */
export const CHART_DAYS = 30;
/** "Meilleures ventes": the last 30 whole Paris days, today included, as the "30 derniers jours" card. */
export const BEST_SELLERS_DAYS = 30;
/** A product unsold this long is "never sold" on the dashboard. */
export const UNSOLD_DAYS = 90;
/** The low-stock threshold until the seller sets one. */
export const DEFAULT_LOW_STOCK_THRESHOLD = 3;

const pad = (n: number) => String(n).padStart(2, "0");

/** The calendar date a clock in Paris shows at `at`, "2026-11-27". */
export function parisDate(at: Date): string {
  const { year, month, day } = parisWallClock(at);
  return `${year}-${pad(month)}-${pad(day)}`;
}

/** The calendar date `days` after `date` ("2026-03-29" + 1 = "2026-03-30"), on the calendar alone. */
export function addCalendarDays(date: string, days: number): string {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const shifted = new Date(Date.UTC(year, month - 1, day + days));
  return `${shifted.getUTCFullYear()}-${pad(shifted.getUTCMonth() + 1)}-${pad(shifted.getUTCDate())}`;
}

/** The instant Paris clocks show midnight starting `date` (midnight always exists: clocks change at 2 or 3 a.m.). */
export function parisMidnight(date: string): Date {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  return parisWallTimeToUtc(year, month, day, 0, 0)!;
}

/**
 * A period of `days` whole Paris days ending with today (today included), and the same number
 * of days just before it: "7 derniers jours" against the 7 before.
 */
export function periodRanges(now: Date, days: number): { current: DayRange; previous: DayRange } {
  const today = parisDate(now);
  const first = addCalendarDays(today, 1 - days);
  return {
    current: { from: parisMidnight(first), to: parisMidnight(addCalendarDays(today, 1)) },
    previous: { from: parisMidnight(addCalendarDays(first, -days)), to: parisMidnight(first) },
  };
}

export type DayRevenue = { day: string; revenueCents: number; orders: number };

/** The chart's series: every day from `firstDay` for `days` days, a day without a sale at 0. */
export function dailySeries(rows: DayRevenue[], firstDay: string, days: number): DayRevenue[] {
  const byDay = new Map(rows.map((row) => [row.day, row]));
  return Array.from({ length: days }, (_, i) => {
    const day = addCalendarDays(firstDay, i);
    return byDay.get(day) ?? { day, revenueCents: 0, orders: 0 };
  });
}

/** How a figure moved since the period before, in whole percent; null when there was nothing before. */
export function changePercent(current: number, previous: number): number | null {
  if (previous === 0) return null;
  return Math.round(((current - previous) / Math.abs(previous)) * 100);
}

/** "+12 %", "−5 %", "=" for the comparison line; null before: "nouveau". */
export function changeText(percent: number | null): string {
  if (percent === null) return "nouveau";
  if (percent === 0) return "=";
  return `${percent > 0 ? "+" : "−"}${Math.abs(percent)} %`;
}

/** The average basket in cents (rounded), 0 without an order. */
export function averageBasket(revenueCents: number, orders: number): number {
  return orders === 0 ? 0 : Math.round(revenueCents / orders);
}

/** "2 j 4 h", "5 h 10 min", "12 min": how long an order has waited, or a drop took to sell out. */
export function durationText(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  const days = Math.floor(minutes / 1_440);
  const hours = Math.floor((minutes % 1_440) / 60);
  if (days > 0) return hours > 0 ? `${days} j ${hours} h` : `${days} j`;
  if (hours > 0) return minutes % 60 > 0 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  if (minutes > 0) return `${minutes} min`;
  return `${Math.max(0, Math.floor(ms / 1000))} s`;
}

/** The dashboard's own setting, one form on the page: the low-stock threshold. */
export const dashboardSettingsSchema = z.object({
  lowStockThreshold: z.coerce
    .number({ message: "Indiquez un nombre d'unités" })
    .int("Indiquez un nombre entier d'unités")
    .min(0, "Le seuil ne peut pas être négatif")
    .max(999, "Le seuil doit être d'au plus 999 unités"),
});
