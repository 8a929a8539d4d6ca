import { z } from "zod";
import { MONTH_NAMES } from "./calendar-date";
import { parisWallClock, parisWallTimeToUtc } from "./paris-time";

/**
 * The period of an accounting export (/admin/exports): a month or a whole year, in Paris time.
 * One schema for the page's form and the CSV download, both read from the URL (`?year=2026&month=11`,
 * `?year=2026&month=` for the year).
 */
export type AccountingPeriod = { year: number; month: number | null };

const YEAR_ERROR = "Année invalide : indiquez une année entre 2000 et 2100.";
const MONTH_ERROR = "Mois invalide : choisissez un mois de 1 à 12, ou toute l'année.";

export const accountingPeriodSchema = z.object({
  year: z.string({ error: YEAR_ERROR }).trim().regex(/^\d{4}$/, YEAR_ERROR).transform(Number).pipe(z.number().min(2000, YEAR_ERROR).max(2100, YEAR_ERROR)),
  month: z
    .string({ error: MONTH_ERROR })
    .trim()
    .regex(/^(|0?[1-9]|1[0-2])$/, MONTH_ERROR)
    .transform((value) => (value === "" ? null : Number(value))),
});

/** The period a URL asks for; without a year, the current month in Paris. */
export function parseAccountingPeriod(params: URLSearchParams, now: Date): { ok: true; period: AccountingPeriod } | { ok: false; error: string } {
  if (!params.has("year") && !params.has("month")) {
    const { year, month } = parisWallClock(now);
    return { ok: true, period: { year, month } };
  }
  const parsed = accountingPeriodSchema.safeParse({ year: params.get("year") ?? undefined, month: params.get("month") ?? "" });
  return parsed.success ? { ok: true, period: parsed.data } : { ok: false, error: parsed.error.issues[0]!.message };
}

/**
 * [first day 00:00 in Paris, the next period's first day 00:00 in Paris): midnight exists every
 * day in Paris (the clocks change at 2 or 3 a.m.), so both bounds are always found.
 */
export function periodBounds({ year, month }: AccountingPeriod): { from: Date; to: Date } {
  const from = parisWallTimeToUtc(year, month ?? 1, 1, 0, 0)!;
  const to = month === null || month === 12 ? parisWallTimeToUtc(year + 1, 1, 1, 0, 0)! : parisWallTimeToUtc(year, month + 1, 1, 0, 0)!;
  return { from, to };
}

/** "novembre 2026", "année 2026". */
export function periodLabel({ year, month }: AccountingPeriod): string {
  return month === null ? `année ${year}` : `${MONTH_NAMES[month - 1]} ${year}`;
}

/** The URL query of a period: `year=2026&month=11`, `year=2026&month=`. */
export function periodQuery({ year, month }: AccountingPeriod): string {
  return `year=${year}&month=${month ?? ""}`;
}

/** "recettes-comptoir-2026-11.csv", "recettes-comptoir-2026.csv". */
export function periodFileName({ year, month }: AccountingPeriod): string {
  return `recettes-comptoir-${year}${month === null ? "" : `-${String(month).padStart(2, "0")}`}.csv`;
}
