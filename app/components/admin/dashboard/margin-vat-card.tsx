import { Link } from "react-router";
import { MARGIN_VAT_MODE_LABELS, type MarginVatMode } from "~/domain/margin-vat";
import { formatEuros } from "~/domain/money";
import { MONTH_NAMES } from "~/domain/calendar-date";

/**
 * The month's VAT due on the margin of second-hand goods (docs/decisions/057), as the seller
 * computes it, and the units sold this month whose purchase price is unknown.
 */
export function MarginVatCard({ summary, month }: { summary: { mode: MarginVatMode; vatCents: number; unknownUnits: number }; month: { year: number; month: number } }) {
  return (
    <section aria-labelledby="margin-vat-title" className="rounded-2xl border border-border bg-card p-4 sm:p-5">
      <h2 id="margin-vat-title" className="text-lg font-bold tracking-tight">
        TVA sur la marge (biens d'occasion)
      </h2>
      <p className="mt-1 max-w-prose text-sm text-muted-foreground">
        Due pour {MONTH_NAMES[month.month - 1]} {month.year}, calcul {MARGIN_VAT_MODE_LABELS[summary.mode].split(" (")[0]!.toLowerCase()} ; jamais indiquée sur les factures des acheteurs.
      </p>
      <p className="mt-3 tabular text-2xl font-extrabold" data-testid="margin-vat-due">
        {formatEuros(summary.vatCents)}
      </p>
      {summary.unknownUnits > 0 ? (
        <p className="mt-2 text-sm font-medium text-destructive" data-testid="margin-vat-unknown">
          {summary.unknownUnits} unité{summary.unknownUnits > 1 ? "s" : ""} vendue{summary.unknownUnits > 1 ? "s" : ""} sans prix d'achat : leur marge est à calculer.
        </p>
      ) : null}
      <p className="mt-3 text-sm">
        <Link to="/admin/settings" className="text-accent underline underline-offset-4">
          Mode de calcul
        </Link>{" "}
        ·{" "}
        <Link to="/admin/exports" className="text-accent underline underline-offset-4">
          Export FEC
        </Link>
      </p>
    </section>
  );
}
