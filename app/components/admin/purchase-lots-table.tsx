import { formatEuros } from "~/domain/money";
import { formatParisShortDateTime } from "~/domain/paris-time";

export type PurchaseLotRow = { id: number; receivedAt: string; quantity: number; remaining: number; unitCostCents: number; source: "buyback" | "manual" };

const SOURCE_LABELS: Record<PurchaseLotRow["source"], string> = { buyback: "Rachat", manual: "Saisie" };

/**
 * A margin-scheme product's purchase lots (docs/decisions/057), oldest first: the order in which
 * sales take their units (first in, first out), each with its unit purchase price.
 */
export function PurchaseLotsTable({ lots }: { lots: PurchaseLotRow[] }) {
  return (
    <section className="mt-8 rounded-2xl border border-border bg-card p-5" aria-labelledby="purchase-lots-title">
      <h2 id="purchase-lots-title" className="text-lg font-bold">
        Lots d'achat (régime de la marge)
      </h2>
      <p className="mt-1 max-w-prose text-sm text-muted-foreground">
        Les ventes prennent les unités du lot le plus ancien d'abord ; la TVA sur la marge se calcule sur leur prix d'achat unitaire.
      </p>
      {lots.length === 0 ? (
        <p className="mt-4 text-sm font-medium" data-testid="no-purchase-lots">
          Aucun lot : les unités vendues de ce produit n'ont pas de prix d'achat connu.
        </p>
      ) : (
        <div className="mt-4 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="text-muted-foreground">
              <tr>
                <th scope="col" className="py-2 pr-2 sm:pr-4 font-medium">Reçu le</th>
                <th scope="col" className="py-2 pr-2 sm:pr-4 font-medium">Origine</th>
                <th scope="col" className="py-2 pr-2 sm:pr-4 text-right font-medium">Quantité</th>
                <th scope="col" className="py-2 pr-2 sm:pr-4 text-right font-medium">Restant</th>
                <th scope="col" className="py-2 text-right font-medium">Prix d'achat</th>
              </tr>
            </thead>
            <tbody>
              {lots.map((lot) => (
                <tr key={lot.id} className="border-t border-border">
                  <td className="py-2 pr-2 sm:pr-4">{formatParisShortDateTime(lot.receivedAt)}</td>
                  <td className="py-2 pr-2 sm:pr-4">{SOURCE_LABELS[lot.source]}</td>
                  <td className="tabular py-2 pr-2 sm:pr-4 text-right">{lot.quantity}</td>
                  <td className="tabular py-2 pr-2 sm:pr-4 text-right">{lot.remaining}</td>
                  <td className="tabular py-2 text-right">{formatEuros(lot.unitCostCents)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
