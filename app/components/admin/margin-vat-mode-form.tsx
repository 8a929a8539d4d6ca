import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { MARGIN_VAT_MODES, MARGIN_VAT_MODE_LABELS, type MarginVatMode } from "~/domain/margin-vat";

/**
 * /admin/settings: how the VAT on the margin of second-hand goods is computed (docs/decisions/057).
 * Radio buttons: the browser only lets a listed value be sent; the server checks it with
 * marginVatModeSchema all the same.
 */
export function MarginVatModeForm({ mode, saving }: { mode: MarginVatMode; saving: boolean }) {
  return (
    <Form method="post" className="mt-8 flex flex-col gap-4 rounded-2xl border border-border bg-card p-5" aria-labelledby="margin-vat-title">
      <h2 id="margin-vat-title" className="text-lg font-bold">
        TVA sur la marge (biens d&apos;occasion)
      </h2>
      <p className="max-w-prose text-sm text-muted-foreground">
        Les produits sous le régime de la marge (art. 297 A du CGI) sont taxés sur la différence entre le prix de vente et le prix
        d&apos;achat&nbsp;: 20/120 de la marge positive. Cette TVA n&apos;apparaît jamais sur la facture de l&apos;acheteur&nbsp;; elle
        figure dans les exports comptables et le tableau de bord.
      </p>
      <fieldset key={mode} className="flex flex-col gap-3">
        <legend className="mb-2 text-sm font-semibold">Calcul de la marge</legend>
        {MARGIN_VAT_MODES.map((value) => (
          <label key={value} className="flex min-h-11 items-start gap-3 text-sm">
            <input type="radio" name="mode" value={value} defaultChecked={mode === value} className="mt-0.5 size-5 shrink-0 accent-[var(--color-accent)] focus-visible:outline-2 focus-visible:outline-offset-2" />
            <span>{MARGIN_VAT_MODE_LABELS[value]}</span>
          </label>
        ))}
      </fieldset>
      <div>
        <Button type="submit" name="intent" value="margin-vat" variant="outline" disabled={saving}>
          Enregistrer le calcul de la TVA sur la marge
        </Button>
      </div>
    </Form>
  );
}
