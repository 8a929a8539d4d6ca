import { formatEuros } from "~/domain/money";
import { formatParisDate } from "~/domain/paris-time";

export type StoreCreditHistory = {
  balanceCents: number;
  movements: { id: number; createdAt: string; reason: string; amountCents: number; expiresAt: string | null }[];
};

/**
 * « Mon avoir »: the balance and the ledger's movements (date, reason, amount, the credit's end
 * of validity when it has one), newest first. Shown to the customer on /account and to the
 * seller on the customer's admin page.
 */
export function StoreCreditHistoryView({ history, titleId, title = "Mon avoir" }: { history: StoreCreditHistory; titleId: string; title?: string }) {
  return (
    <section aria-labelledby={titleId} className="rounded-2xl border border-border bg-card p-6">
      <h2 id={titleId} className="text-lg font-bold">
        {title}
      </h2>
      <p className="mt-2 text-sm">
        Solde : <strong className="tabular text-base">{formatEuros(history.balanceCents)}</strong>
      </p>
      <div className="mt-4 overflow-x-auto" role="region" aria-label="Mouvements de l'avoir" tabIndex={0}>
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Mouvements de l'avoir, du plus récent au plus ancien</caption>
          <thead className="text-xs text-muted-foreground">
            <tr>
              <th scope="col" className="hidden py-2 pr-3 font-medium sm:table-cell">
                Date
              </th>
              <th scope="col" className="py-2 pr-3 font-medium">
                Motif
              </th>
              <th scope="col" className="py-2 pr-3 text-right font-medium">
                Montant
              </th>
              <th scope="col" className="hidden py-2 font-medium sm:table-cell">
                Validité
              </th>
            </tr>
          </thead>
          <tbody>
            {history.movements.map((movement) => (
              <tr key={movement.id} className="border-t border-border align-top">
                <td className="hidden py-2 pr-3 whitespace-nowrap sm:table-cell">{formatParisDate(movement.createdAt)}</td>
                <td className="py-2 pr-3">
                  {movement.reason}
                  {/* On a phone the date and the validity go under the reason: as columns they left it a word per line. */}
                  <span className="mt-0.5 block text-xs text-muted-foreground sm:hidden">
                    {[formatParisDate(movement.createdAt), validityText(movement)].filter(Boolean).join(" · ")}
                  </span>
                </td>
                <td className={`tabular py-2 pr-3 text-right whitespace-nowrap ${movement.amountCents > 0 ? "text-success" : ""}`}>
                  {movement.amountCents > 0 ? "+" : "−"}
                  {formatEuros(Math.abs(movement.amountCents))}
                </td>
                <td className="hidden py-2 whitespace-nowrap sm:table-cell">{validityText(movement)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

const validityText = (movement: { expiresAt: string | null }) => (movement.expiresAt ? `jusqu'au ${formatParisDate(movement.expiresAt)}` : "");
