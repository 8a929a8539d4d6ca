import { CalendarClock, Undo2 } from "lucide-react";
import { OrderStatusBadge } from "~/components/orders/order-status-badge";
import { Badge } from "~/components/ui/badge";
import { buttonVariants } from "~/components/ui/button";
import type { OrderStatus } from "~/domain/catalog-values";
import { requestMoment, withdrawalState } from "~/domain/withdrawal";
import { cn } from "~/lib/utils";
import { Link } from "react-router";

export const withdrawalHref = (number: string) => `/retractation?commande=${encodeURIComponent(number)}`;

/**
 * An order's withdrawal on the customer's side: the button "Se rétracter du contrat ici" while
 * it is possible, "Rétractation demandée le … à …" once asked, nothing otherwise.
 */
export function WithdrawalAction({ number, status, requestedAt, className }: { number: string; status: OrderStatus; requestedAt: string | null; className?: string }) {
  const state = withdrawalState(status, requestedAt);
  if (state.kind === "unavailable") return null;
  if (state.kind === "requested") {
    const { date, time } = requestMoment(state.requestedAt);
    return (
      <p className={cn("flex items-center gap-2 text-sm font-medium text-warning", className)}>
        <CalendarClock className="size-4 shrink-0" aria-hidden="true" />
        <span>
          Rétractation demandée le{" "}
          <time dateTime={state.requestedAt}>
            {date} à {time}
          </time>
        </span>
      </p>
    );
  }
  return (
    <Link to={withdrawalHref(number)} className={buttonVariants({ variant: "outline", className: cn("h-11", className) })}>
      <Undo2 aria-hidden="true" />
      Se rétracter du contrat ici
      <span className="sr-only"> – commande {number}</span>
    </Link>
  );
}

/** The seller's order list: the order's status, and "Rétractation" once the customer asked. */
export function OrderStatusBadges({ status, withdrawalRequested, partlyRefunded = false }: { status: OrderStatus; withdrawalRequested: boolean; partlyRefunded?: boolean }) {
  return (
    <span className="inline-flex flex-wrap items-center justify-end gap-1.5">
      <OrderStatusBadge status={status} />
      {partlyRefunded ? <Badge tone="info">Remboursée en partie</Badge> : null}
      {withdrawalRequested ? <Badge tone="warning">Rétractation</Badge> : null}
    </span>
  );
}
