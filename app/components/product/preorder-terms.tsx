import { CalendarClock } from "lucide-react";
import { limitText } from "~/domain/drop-limit-text";
import { formatCalendarDate } from "~/domain/calendar-date";
import type { ProductPreorderTerms } from "~/domain/product-view";

/** A pre-order's dates where the price is (issue 55): server-rendered, no script of its own. */
export function PreorderTerms({ terms }: { terms: ProductPreorderTerms }) {
  return (
    <div
      className="flex flex-col gap-1 rounded-2xl border border-border bg-card p-3 text-sm sm:p-4"
      data-testid="preorder-terms"
    >
      <p className="flex items-center gap-2 font-bold">
        <CalendarClock className="size-4 shrink-0" aria-hidden="true" />
        Précommande
      </p>
      <p>
        Sortie le <strong>{formatCalendarDate(terms.releaseOn)}</strong> · date
        de livraison estimée :{" "}
        <strong>{formatCalendarDate(terms.estimatedDeliveryOn)}</strong>
      </p>
      <p className="text-muted-foreground">
        Payée à la commande. {limitText(terms.perCustomerLimit)}.
      </p>
    </div>
  );
}
