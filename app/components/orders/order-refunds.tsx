import { documentPath } from "~/domain/order-view";
import { formatEuros } from "~/domain/money";
import { formatParisDateTime } from "~/domain/paris-time";
import type { RefundView } from "~/domain/refund-view";
import { Badge } from "~/components/ui/badge";

/** The order's refunds, oldest first: when, how much, what, the store-credit part and the credit note of each (the seller's and the customer's order pages). */
export function OrderRefunds({ orderId, orderTotalCents, refunds, className = "mt-6" }: { orderId: string; orderTotalCents: number; refunds: RefundView[]; className?: string }) {
  const refundedCents = refunds.filter((refund) => refund.status === "refunded").reduce((sum, refund) => sum + refund.amountCents, 0);
  return (
    <section aria-labelledby="order-refunds" className={`${className} rounded-2xl border border-border bg-card p-5`}>
      <h2 id="order-refunds" className="text-lg font-bold">
        Remboursements
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        {formatEuros(refundedCents)} remboursés sur {formatEuros(orderTotalCents)}.
      </p>
      <ol className="mt-4 flex flex-col gap-3">
        {refunds.map((refund) => (
          <li key={refund.id} className="rounded-lg border border-border p-3 text-sm">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <span className="tabular font-semibold">{formatEuros(refund.amountCents)}</span>
              {refund.status === "refunded" ? (
                <span className="text-muted-foreground">le {formatParisDateTime(refund.refundedAt!)}</span>
              ) : (
                <Badge tone="warning">En attente du prestataire</Badge>
              )}
            </div>
            {refund.storeCreditCents > 0 ? (
              <p className="tabular mt-1">
                dont {formatEuros(refund.storeCreditCents)} rendus en avoir
                {refund.storeCreditCents < refund.amountCents ? `, ${formatEuros(refund.amountCents - refund.storeCreditCents)} sur la carte` : ""}
              </p>
            ) : null}
            {refund.parts.length > 0 ? (
              <ul className="mt-1 list-disc pl-5 text-muted-foreground">
                {refund.parts.map((part) => (
                  <li key={part}>{part}</li>
                ))}
              </ul>
            ) : null}
            {refund.creditNoteNumber ? (
              <a href={documentPath(orderId, refund.creditNoteNumber)} className="mt-2 inline-flex min-h-11 items-center font-medium text-accent hover:underline">
                Avoir {refund.creditNoteNumber} (PDF)
              </a>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
