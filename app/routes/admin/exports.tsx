import { Download } from "lucide-react";
import { Form, data, useNavigation } from "react-router";
import { EReportingExport } from "~/components/admin/e-reporting-export";
import { PeriodFields, YearField } from "~/components/admin/period-fields";
import { Alert } from "~/components/ui/alert";
import { Button, buttonVariants } from "~/components/ui/button";
import { Field, controlClass } from "~/components/ui/field";
import { type AccountingPeriod, parseAccountingPeriod, periodLabel, periodQuery } from "~/domain/accounting-period";
import type { LedgerSummary } from "~/domain/accounting-export";
import { formatEuros } from "~/domain/money";
import { parisWallClock } from "~/domain/paris-time";
import { formatVatRate } from "~/domain/vat-allocation";
import { cn } from "~/lib/utils";
import { ledgerSummary } from "~/services/accounting-export.server";
import { fecExportView } from "~/services/fec.server";
import { FecExportForm } from "~/components/admin/fec-export-form";
import { requireAdmin } from "~/services/session.server";
import type { Route } from "./+types/exports";

/** Invoices are kept 10 years (Code de commerce L123-22): the years offered go back as far. */
const YEARS_KEPT = 10;

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const now = new Date();
  const currentYear = parisWallClock(now).year;
  const years = Array.from({ length: YEARS_KEPT }, (_, i) => currentYear - i);
  const parsed = parseAccountingPeriod(new URL(request.url).searchParams, now);
  const fec = await fecExportView(context.db, context.shop.legal);
  if (!parsed.ok) return data({ years, period: null, summary: null, error: parsed.error, fec }, { status: 400 });
  const summary = await ledgerSummary(context.db, parsed.period);
  return { years, period: parsed.period, summary, error: null, fec };
}

export const meta: Route.MetaFunction = () => [{ title: "Exports comptables" }];

const card = "rounded-2xl border border-border bg-card p-5 sm:p-6";

/** The receipts book of a month or a year: its figures, and the CSV for the accountant. */
export default function AdminExports({ loaderData }: Route.ComponentProps) {
  const { years, period, summary, error, fec } = loaderData;
  const navigation = useNavigation();
  return (
    <section aria-labelledby="exports-title" aria-busy={navigation.state === "loading"}>
      <h1 id="exports-title" className="text-3xl font-extrabold tracking-tight">
        Exports comptables
      </h1>
      <p className="mt-1 max-w-3xl text-sm text-muted-foreground">
        Le livre des recettes : chaque paiement reçu et chaque remboursement, dans l'ordre chronologique, avec la TVA par taux. Dates à l'heure de Paris ; fichier CSV
        pour Excel, LibreOffice ou le logiciel de votre comptable.
      </p>

      <PeriodForm years={years} period={period} />

      {error ? (
        <Alert tone="error" title="Période invalide" className="mt-6">
          {error}
        </Alert>
      ) : null}
      {period && summary ? <PeriodSummary period={period} summary={summary} /> : null}
      <FecExportForm period={period} fec={fec} />
      <OssReturnForm years={years} />
      <EReportingExport years={years} period={period} />
    </section>
  );
}

/** The quarter's OSS return (docs/decisions/046): a plain GET of the CSV, no page of its own. */
function OssReturnForm({ years }: { years: number[] }) {
  return (
    <section aria-labelledby="oss-title" className={cn(card, "mt-6")}>
      <h2 id="oss-title" className="text-lg font-bold">
        Guichet unique (OSS)
      </h2>
      <p className="mt-1 max-w-3xl text-sm text-muted-foreground">
        Les ventes à distance taxées dans un autre pays de l'UE, par pays et par taux : base HT et TVA du trimestre, nettes des avoirs, pour la déclaration trimestrielle
        sur impots.gouv.fr.
      </p>
      <form method="get" action="/admin/exports/oss.csv" className="mt-4 flex flex-wrap items-end gap-4">
        <YearField years={years} defaultValue={years[0]} />
        <Field label="Trimestre" className="min-w-40 flex-1 sm:flex-none">
          {(props) => (
            <select {...props} name="quarter" defaultValue="" className={cn(controlClass, "h-11")}>
              <option value="">Trimestre en cours</option>
              {[1, 2, 3, 4].map((quarter) => (
                <option key={quarter} value={quarter}>
                  {quarter === 1 ? "1er" : `${quarter}e`} trimestre
                </option>
              ))}
            </select>
          )}
        </Field>
        <Button type="submit" className="w-full sm:w-auto">
          <Download aria-hidden="true" /> Télécharger le CSV OSS
        </Button>
      </form>
    </section>
  );
}

function PeriodForm({ years, period }: { years: number[]; period: AccountingPeriod | null }) {
  const shownYears = period && !years.includes(period.year) ? [period.year, ...years] : years;
  // Keyed by the period: the selects show the one loaded after a back or forward navigation.
  return (
    <Form key={period ? periodQuery(period) : "invalid"} method="get" aria-label="Choisir la période" className={cn(card, "mt-6 flex flex-wrap items-end gap-4")}>
      <PeriodFields years={shownYears} period={period} />
      <Button type="submit" variant="secondary" className="w-full sm:w-auto">
        Afficher
      </Button>
    </Form>
  );
}

function PeriodSummary({ period, summary }: { period: AccountingPeriod; summary: LedgerSummary }) {
  const lines = summary.receipts + summary.refunds;
  const label = periodLabel(period);
  return (
    <section aria-labelledby="summary-title" className={cn(card, "mt-6")}>
      <h2 id="summary-title" className="text-lg font-bold first-letter:uppercase">
        {label}
      </h2>
      <p className="tabular mt-1 text-sm text-muted-foreground" aria-live="polite">
        {lines === 0
          ? "Aucun paiement ni remboursement sur la période."
          : `${lines} ligne${lines > 1 ? "s" : ""} : ${summary.receipts} paiement${summary.receipts > 1 ? "s" : ""}, ${summary.refunds} remboursement${summary.refunds > 1 ? "s" : ""}`}
      </p>
      <dl className="mt-4 grid max-w-sm grid-cols-[1fr_auto] gap-x-6 gap-y-2 text-sm">
        <Figure term="Total TTC" cents={summary.totalCents} strong />
        <Figure term="Total HT" cents={summary.exclVatCents} />
        {summary.vat.map((row) => (
          <Figure key={row.rateBp} term={`TVA ${formatVatRate(row.rateBp)}`} cents={row.vatCents} />
        ))}
        {summary.marginSchemeCents !== 0 ? <Figure term="Biens d'occasion, régime de la marge (TTC)" cents={summary.marginSchemeCents} /> : null}
      </dl>
      <a href={`/admin/exports/recettes.csv?${periodQuery(period)}`} download className={cn(buttonVariants(), "mt-6")}>
        <Download aria-hidden="true" /> Télécharger le CSV <span className="sr-only">({label})</span>
      </a>
    </section>
  );
}

function Figure({ term, cents, strong = false }: { term: string; cents: number; strong?: boolean }) {
  return (
    <>
      <dt className="text-muted-foreground">{term}</dt>
      <dd className={cn("tabular text-right whitespace-nowrap", strong && "font-bold")}>{formatEuros(cents)}</dd>
    </>
  );
}
