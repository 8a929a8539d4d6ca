import { CircleAlert } from "lucide-react";
import type { OrderOutcome } from "~/domain/order-outcome";

/** Why an order was not fulfilled (refused and refunded, cancelled, expired), in the e-mail's words. */
export function OrderOutcomeNotice({ outcome }: { outcome: OrderOutcome }) {
  return (
    <section aria-labelledby="order-outcome-title" className="mt-6 flex gap-3 rounded-2xl border border-destructive/40 bg-card p-5">
      <CircleAlert className="mt-0.5 size-5 shrink-0 text-destructive" aria-hidden="true" />
      <div>
        <h2 id="order-outcome-title" className="font-bold">
          {outcome.title}
        </h2>
        <p className="mt-1 text-sm text-muted-foreground">{outcome.description}</p>
      </div>
    </section>
  );
}
