import { Download } from "lucide-react";
import { Link, useFetcher } from "react-router";
import { Alert } from "~/components/ui/alert";
import { Button, buttonVariants } from "~/components/ui/button";
import { FormField } from "~/components/ui/form-field";
import { type AccountingPeriod, periodLabel, periodQuery } from "~/domain/accounting-period";
import { FEC_ACCOUNT_ROLES, fecAccountsSchema } from "~/domain/fec-accounts";
import { useFormValidation } from "~/lib/use-form-validation";
import { cn } from "~/lib/utils";
import type { FieldErrors } from "~/domain/field-errors";
import { type ActionToast, useActionToast } from "./use-action-toast";

/** The answer of /admin/exports/comptes-fec (routes/admin/fec-accounts.ts). */
export type FecAccountsAnswer = ActionToast & { errors?: FieldErrors };

/** What /admin/exports' loader gives this section (services/fec.server.ts). */
export type FecExportView = { accounts: Record<string, string>; sirenMissing: boolean };

/**
 * The FEC of the period chosen above (docs/decisions/052), and the seller's accounts it uses: a
 * plain download link, and a form posted to its own action so the page keeps no action of its own.
 */
export function FecExportForm({ period, fec }: { period: AccountingPeriod | null; fec: FecExportView }) {
  return (
    <section aria-labelledby="fec-title" className="mt-6 rounded-2xl border border-border bg-card p-5 sm:p-6">
      <h2 id="fec-title" className="text-lg font-bold">
        Fichier des écritures comptables (FEC)
      </h2>
      <p className="mt-1 max-w-3xl text-sm text-muted-foreground">
        Le journal des ventes (VE : factures et avoirs, TVA par taux) et celui des encaissements (BQ : paiements et remboursements), au format de l'article A47 A-1 du
        livre des procédures fiscales, à importer dans le logiciel de votre comptable. Les biens d'occasion au régime de la marge y sont signalés : la TVA sur la marge
        reste à calculer tant que les prix d'achat ne sont pas saisis.
      </p>
      {fec.sirenMissing ? (
        <Alert tone="error" title="Numéro SIREN manquant" className="mt-4">
          Le nom du fichier porte le numéro SIREN de la boutique : renseignez-le dans{" "}
          <Link to="/admin/settings" className="font-semibold underline underline-offset-2">
            Paramètres
          </Link>
          .
        </Alert>
      ) : period ? (
        <a href={`/admin/exports/fec.txt?${periodQuery(period)}`} download className={cn(buttonVariants(), "mt-4")}>
          <Download aria-hidden="true" /> Télécharger le FEC <span className="sr-only">({periodLabel(period)})</span>
        </a>
      ) : null}
      <FecAccountsForm key={JSON.stringify(fec.accounts)} accounts={fec.accounts} />
    </section>
  );
}

function FecAccountsForm({ accounts }: { accounts: Record<string, string> }) {
  const fetcher = useFetcher<FecAccountsAnswer>();
  useActionToast(fetcher.data);
  const { errors, onSubmit, onChange } = useFormValidation(fecAccountsSchema, fetcher.data?.errors);
  return (
    <details className="mt-6 rounded-xl border border-border p-4" open={Object.keys(errors).length > 0 || undefined}>
      <summary className="cursor-pointer text-sm font-semibold">Plan de comptes du FEC</summary>
      <p className="mt-2 max-w-3xl text-sm text-muted-foreground">
        Les numéros de compte proposés suivent le plan comptable général ; votre comptable peut indiquer les sous-comptes de son dossier (par exemple un compte de TVA par
        taux).
      </p>
      <fetcher.Form method="post" action="/admin/exports/comptes-fec" noValidate onSubmit={onSubmit} onChange={onChange} className="mt-4">
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {FEC_ACCOUNT_ROLES.map((role) => (
            <FormField
              key={role.field}
              label={role.label}
              name={role.field}
              defaultValue={accounts[role.field]}
              error={errors[role.field]}
              inputMode="numeric"
              autoComplete="off"
              spellCheck={false}
              maxLength={12}
            />
          ))}
        </div>
        <Button type="submit" variant="secondary" className="mt-5 w-full sm:w-auto" disabled={fetcher.state !== "idle"}>
          Enregistrer les comptes
        </Button>
      </fetcher.Form>
    </details>
  );
}
