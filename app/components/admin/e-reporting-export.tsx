import { Download } from "lucide-react";
import { Button } from "~/components/ui/button";
import type { AccountingPeriod } from "~/domain/accounting-period";
import { PeriodFields } from "./period-fields";

/**
 * The e-reporting of consumer sales (docs/decisions/053): a plain GET of the CSV for a month or a
 * year, the period shown on the page chosen first. The same figures, as JSON, at /api/e-reporting
 * for the seller's approved platform.
 */
export function EReportingExport({ years, period }: { years: number[]; period: AccountingPeriod | null }) {
  return (
    <section aria-labelledby="e-reporting-title" className="mt-6 rounded-2xl border border-border bg-card p-5 sm:p-6">
      <h2 id="e-reporting-title" className="text-lg font-bold">
        E-reporting des ventes aux particuliers
      </h2>
      <p className="mt-1 max-w-3xl text-sm text-muted-foreground">
        Par jour : le nombre de factures et d'avoirs, la base HT et la TVA par taux, les biens d'occasion (régime de la marge) et les ventes taxées dans un autre pays de
        l'UE à part, les remboursements au jour de leur avoir. Les achats professionnels n'y figurent pas. Ce sont les données à transmettre par une plateforme agréée
        à partir du{" "}
        <span className="whitespace-nowrap">1er septembre 2027</span>.
      </p>
      {/* Keyed by the period: the selects follow the one loaded after a back or forward navigation. */}
      <form key={period ? `${period.year}-${period.month ?? ""}` : "invalid"} method="get" action="/admin/exports/e-reporting.csv" className="mt-4 flex flex-wrap items-end gap-4">
        <PeriodFields years={years} period={period} />
        <Button type="submit" className="w-full sm:w-auto">
          <Download aria-hidden="true" /> Télécharger le CSV d'e-reporting
        </Button>
      </form>
    </section>
  );
}
