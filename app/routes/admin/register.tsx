import { Download } from "lucide-react";
import { Form, data, useNavigation } from "react-router";
import { PeriodFields } from "~/components/admin/period-fields";
import { Alert } from "~/components/ui/alert";
import { Button, buttonVariants } from "~/components/ui/button";
import { Field, controlClass } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { fieldErrors } from "~/domain/auth-forms";
import { type AccountingPeriod, parseAccountingPeriod, periodLabel, periodQuery } from "~/domain/accounting-period";
import { PAYMENT_MEANS_LABELS } from "~/domain/buyback-offer";
import { formatEuros } from "~/domain/money";
import { formatParisDateTime, parisWallClock } from "~/domain/paris-time";
import { correctionText, identityText, registerCorrectionSchema } from "~/domain/purchase-register";
import { readForm } from "~/lib/request-input.server";
import { cn } from "~/lib/utils";
import { correctRegisterEntry, registerEntries } from "~/services/purchase-register.server";
import { requireAdmin } from "~/services/session.server";
import type { Route } from "./+types/register";

/** The register is kept at least 10 years here (docs/decisions/056): the years offered go back as far. */
const YEARS_SHOWN = 10;

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const now = new Date();
  const currentYear = parisWallClock(now).year;
  const years = Array.from({ length: YEARS_SHOWN }, (_, i) => currentYear - i);
  const parsed = parseAccountingPeriod(new URL(request.url).searchParams, now);
  if (!parsed.ok) return data({ years, period: null, entries: [], error: parsed.error }, { status: 400 });
  return { years, period: parsed.period, entries: await registerEntries(context.db, parsed.period), error: null };
}

type CorrectionAnswer = { ok: boolean; message: string; fieldErrors?: Partial<Record<string, string>> };

/** A correction: a new entry naming the one it corrects (the register never changes). */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context, "api");
  const form = await readForm(request);
  const parsed = registerCorrectionSchema.safeParse(Object.fromEntries([...form.entries()].filter(([, value]) => typeof value === "string")));
  if (!parsed.success) return data<CorrectionAnswer>({ ok: false, message: "Vérifiez la rectification.", fieldErrors: fieldErrors(parsed.error) }, { status: 400 });
  const outcome = await correctRegisterEntry(context.db, { ...parsed.data, actorId: admin.id });
  if (!outcome.ok) return data<CorrectionAnswer>({ ok: false, message: outcome.message }, { status: outcome.status });
  return data<CorrectionAnswer>({ ok: true, message: `Entrée n° ${outcome.number} ajoutée : elle rectifie l'entrée n° ${parsed.data.correctsNumber}.` });
}

export const meta: Route.MetaFunction = () => [{ title: "Registre des objets mobiliers" }];

const card = "rounded-2xl border border-border bg-card p-5 sm:p-6";

export default function AdminRegister({ loaderData, actionData }: Route.ComponentProps) {
  const { years, period, entries, error } = loaderData;
  const shownYears = period && !years.includes(period.year) ? [period.year, ...years] : years;
  return (
    <section>
      <h1 className="text-2xl font-extrabold tracking-tight sm:text-3xl">Registre des objets mobiliers</h1>
      <p className="mt-1 max-w-prose text-sm text-muted-foreground">
        Les achats d'occasion faits à des particuliers, dans l'ordre, numérotés sans trou (art. 321-7 et R321-3 et suivants du Code pénal). Une entrée ne
        change jamais : une erreur se rectifie par une nouvelle entrée.
      </p>
      <Form key={period ? periodQuery(period) : "invalid"} method="get" aria-label="Choisir la période" className={cn(card, "mt-6 flex flex-wrap items-end gap-4")}>
        <PeriodFields years={shownYears} period={period} />
        <Button type="submit" variant="outline">
          Afficher
        </Button>
      </Form>
      {error ? (
        <Alert tone="error" title="Période invalide" className="mt-6">
          {error}
        </Alert>
      ) : null}
      {period ? <EntriesCard period={period} entries={entries} /> : null}
      <CorrectionForm answer={actionData} />
    </section>
  );
}

function EntriesCard({ period, entries }: { period: AccountingPeriod; entries: Route.ComponentProps["loaderData"]["entries"] }) {
  const label = periodLabel(period);
  return (
    <div className={cn(card, "mt-6")}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-lg font-bold">
          {entries.length === 0 ? "Aucune entrée" : `${entries.length} entrée${entries.length > 1 ? "s" : ""}`} · {label}
        </h2>
        <div className="flex flex-wrap gap-2">
          <a href={`/admin/registre.pdf?${periodQuery(period)}`} download className={buttonVariants({ variant: "outline" })}>
            <Download aria-hidden="true" /> PDF
          </a>
          <a href={`/admin/registre.csv?${periodQuery(period)}`} download className={buttonVariants({ variant: "outline" })}>
            <Download aria-hidden="true" /> CSV
          </a>
        </div>
      </div>
      {entries.length > 0 ? (
        <div className="mt-4 overflow-x-auto">
          <table className="w-full min-w-[56rem] text-sm">
            <caption className="sr-only">Entrées du registre, {label}</caption>
            <thead className="border-b border-border text-left text-muted-foreground">
              <tr>
                <th scope="col" className="p-2 font-medium">N°</th>
                <th scope="col" className="p-2 font-medium">Date</th>
                <th scope="col" className="p-2 font-medium">Vendeur et pièce d'identité</th>
                <th scope="col" className="p-2 font-medium">Désignation</th>
                <th scope="col" className="p-2 text-right font-medium">Qté</th>
                <th scope="col" className="p-2 text-right font-medium">Prix unitaire</th>
                <th scope="col" className="p-2 text-right font-medium">Total</th>
                <th scope="col" className="p-2 font-medium">Paiement</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.number} className="border-b border-border align-top last:border-0" data-testid="register-entry">
                  <td className="tabular p-2 font-semibold">{entry.number}</td>
                  <td className="tabular p-2 whitespace-nowrap">{formatParisDateTime(entry.recordedAt)}</td>
                  <td className="p-2">
                    <span className="font-medium">{entry.sellerName}</span>
                    <span className="block text-muted-foreground [overflow-wrap:anywhere]">{entry.sellerAddress}</span>
                    <span className="block text-xs text-muted-foreground">{identityText(entry)}</span>
                  </td>
                  <td className="p-2 [overflow-wrap:anywhere]">
                    {entry.description}
                    {entry.correctsNumber !== null ? <span className="block text-xs text-muted-foreground">{correctionText(entry)}</span> : null}
                  </td>
                  <td className="tabular p-2 text-right">{entry.quantity}</td>
                  <td className="tabular p-2 text-right">{formatEuros(entry.unitPriceCents)}</td>
                  <td className="tabular p-2 text-right">{formatEuros(entry.totalCents)}</td>
                  <td className="p-2">{PAYMENT_MEANS_LABELS[entry.paymentMeans]}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}

function CorrectionForm({ answer }: { answer: CorrectionAnswer | undefined }) {
  const busy = useNavigation().state !== "idle";
  const errors = answer?.fieldErrors ?? {};
  return (
    <Form method="post" noValidate className={cn(card, "mt-6 flex flex-col gap-4")} aria-labelledby="correction-title">
      <h2 id="correction-title" className="text-lg font-bold">
        Rectifier une entrée
      </h2>
      <p className="max-w-prose text-sm text-muted-foreground">Ajoute une entrée qui reprend le vendeur et sa pièce d'identité, avec les bonnes valeurs et la raison.</p>
      {answer ? (
        <Alert tone={answer.ok ? "success" : "error"} title={answer.ok ? "Rectification enregistrée" : "Rectification refusée"}>
          {answer.message}
        </Alert>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Field label="N° de l'entrée rectifiée" required error={errors.correctsNumber}>
          {(props) => <Input {...props} name="correctsNumber" inputMode="numeric" autoComplete="off" />}
        </Field>
        <Field label="Désignation" required error={errors.description} className="lg:col-span-3">
          {(props) => <Input {...props} name="description" autoComplete="off" />}
        </Field>
        <Field label="Quantité" required error={errors.quantity}>
          {(props) => <Input {...props} name="quantity" inputMode="numeric" autoComplete="off" defaultValue="1" />}
        </Field>
        <Field label="Prix unitaire (€)" required error={errors.unitPrice}>
          {(props) => <Input {...props} name="unitPrice" inputMode="decimal" autoComplete="off" />}
        </Field>
        <Field label="Raison" required error={errors.reason} className="sm:col-span-2">
          {(props) => <textarea {...props} name="reason" rows={2} className={cn(controlClass, "py-2")} />}
        </Field>
      </div>
      <div>
        <Button type="submit" variant="secondary" disabled={busy}>
          Ajouter l'entrée rectificative
        </Button>
      </div>
    </Form>
  );
}
