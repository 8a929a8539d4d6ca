import { Field, controlClass } from "~/components/ui/field";
import type { AccountingPeriod } from "~/domain/accounting-period";
import { MONTH_NAMES } from "~/domain/calendar-date";
import { cn } from "~/lib/utils";

/** A month or a whole year of the accounting exports: « Année » and « Mois » (`year`, `month`), the loaded period first. */
export function PeriodFields({ years, period }: { years: number[]; period: AccountingPeriod | null }) {
  return (
    <>
      <YearField years={years} defaultValue={period?.year ?? years[0]} />
      <Field label="Mois" className="min-w-40 flex-1 sm:flex-none">
        {(props) => (
          <select {...props} name="month" defaultValue={period ? (period.month ?? "") : ""} className={cn(controlClass, "h-11")}>
            <option value="">Toute l'année</option>
            {MONTH_NAMES.map((name, i) => (
              <option key={name} value={i + 1}>
                {name}
              </option>
            ))}
          </select>
        )}
      </Field>
    </>
  );
}

/** « Année » (`year`) of an export's period, among the years the shop has data for. */
export function YearField({ years, defaultValue }: { years: number[]; defaultValue: number | undefined }) {
  return (
    <Field label="Année" className="min-w-28 flex-1 sm:flex-none">
      {(props) => (
        <select {...props} name="year" defaultValue={defaultValue} className={cn(controlClass, "h-11")}>
          {years.map((year) => (
            <option key={year} value={year}>
              {year}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
