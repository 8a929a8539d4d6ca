import { Search } from "lucide-react";
import { type ReactNode, useRef } from "react";
import { Form, Link, useNavigation, useSubmit } from "react-router";
import { OrderStatusBadges } from "~/components/orders/withdrawal-status";
import { buttonVariants } from "~/components/ui/button";
import { controlClass } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Pagination } from "~/components/ui/pagination";
import { type AdminOrderQuery, DEFAULT_ORDER_QUERY, adminOrderListHref, emptyOrdersText, hasOrderFilters, itemCountText, ordersFoundText, parseAdminOrderQuery } from "~/domain/admin-order-list";
import { pagerItems } from "~/domain/admin-product-list";
import { ORDER_STATUSES, ORDER_STATUS_LABELS } from "~/domain/catalog-values";
import { formatEuros } from "~/domain/money";
import { ClearFiltersLink } from "~/components/admin/clear-filters-link";
import { focusGroup } from "~/lib/restore-focus";
import { cn } from "~/lib/utils";
import { useShownValue } from "~/lib/use-shown-value";
import { type AdminOrderRow, listAdminOrders } from "~/services/admin-orders.server";
import { requireAdmin } from "~/services/session.server";
import type { Route } from "./+types/orders";
import { formatParisShortDateTime } from "~/domain/paris-time";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const query = parseAdminOrderQuery(new URL(request.url).searchParams);
  const list = await listAdminOrders(context.db, query);
  return { query: { ...query, page: list.page }, ...list };
}

export const meta: Route.MetaFunction = () => [{ title: "Commandes" }];

/** The seller's orders, newest first: search, status filter and pages, all in the URL. */
export default function AdminOrders({ loaderData }: Route.ComponentProps) {
  const { query, rows, total, page, pageCount, toShip } = loaderData;
  const navigation = useNavigation();
  return (
    <section aria-busy={navigation.state === "loading"}>
      <h1 className="text-3xl font-extrabold tracking-tight">Commandes</h1>

      <nav aria-label="Raccourcis" className="mt-4 flex flex-wrap gap-2">
        <QuickFilter to={adminOrderListHref(DEFAULT_ORDER_QUERY)} active={!hasOrderFilters(query)}>
          Toutes
        </QuickFilter>
        <QuickFilter to={adminOrderListHref({ ...DEFAULT_ORDER_QUERY, status: "paid" })} active={query.status === "paid" && !query.q}>
          À expédier
          <span className={cn("tabular rounded-full px-2 text-xs font-bold leading-5", toShip > 0 ? "bg-warning text-background" : "bg-muted text-muted-foreground")}>{toShip}</span>
        </QuickFilter>
      </nav>

      <Filters query={query} />

      <p className="tabular mt-4 text-sm text-muted-foreground" aria-live="polite">
        {ordersFoundText(total)} · Page {pageCount === 0 ? 0 : page} sur {pageCount}
      </p>

      {rows.length === 0 ? (
        <p className="mt-4 rounded-2xl border border-dashed border-border p-10 text-center font-semibold text-muted-foreground">{emptyOrdersText(query)}</p>
      ) : (
        <>
          {/* Phones: a card per order; wider screens: the table. */}
          <ul className="mt-3 flex flex-col gap-3 sm:hidden">
            {rows.map((row) => (
              <li key={row.number} className="rounded-2xl border border-border bg-card px-4 pb-3">
                <div className="flex items-center justify-between gap-3">
                  <OrderLink number={row.number} />
                  <OrderStatusBadges status={row.status} withdrawalRequested={row.withdrawalRequested} partlyRefunded={row.partlyRefunded} />
                </div>
                <Customer name={row.customerName} email={row.customerEmail} />
                <p className="mt-2 flex items-baseline justify-between gap-3 text-sm">
                  <span className="tabular text-muted-foreground">
                    {formatParisShortDateTime(row.createdAt)} · {itemCountText(row.itemCount)}
                  </span>
                  <span className="tabular font-semibold whitespace-nowrap">{formatEuros(row.totalCents)}</span>
                </p>
              </li>
            ))}
          </ul>
          <OrdersTable rows={rows} caption={ordersFoundText(total)} />
        </>
      )}

      <Pagination
        className="mt-6"
        page={page}
        pageCount={pageCount}
        items={pagerItems(page, pageCount)}
        showPageText={false}
        href={(n) => adminOrderListHref({ ...query, page: n })}
      />
    </section>
  );
}

function OrdersTable({ rows, caption }: { rows: AdminOrderRow[]; caption: string }) {
  return (
    <div className="mt-3 hidden max-h-[70vh] overflow-auto rounded-2xl border border-border bg-card sm:block">
      <table className="w-full min-w-[46rem] text-left text-sm">
        <caption className="sr-only">Commandes, {caption}, les plus récentes d'abord</caption>
        <thead className="sticky top-0 z-10 border-b border-border bg-card text-muted-foreground">
          <tr>
            <th scope="col" className="px-3 py-3 font-medium">Numéro</th>
            <th scope="col" className="px-3 py-3 font-medium">Date</th>
            <th scope="col" className="px-3 py-3 font-medium">Client</th>
            <th scope="col" className="px-3 py-3 font-medium">Statut</th>
            <th scope="col" className="px-3 py-3 text-right font-medium">Articles</th>
            <th scope="col" className="px-3 py-3 text-right font-medium">Total</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-border">
          {rows.map((row) => (
            <tr key={row.number} className="hover:bg-muted/40">
              <td className="px-3 py-2 whitespace-nowrap">
                <OrderLink number={row.number} />
              </td>
              <td className="tabular px-3 py-2 whitespace-nowrap text-muted-foreground">{formatParisShortDateTime(row.createdAt)}</td>
              <td className="max-w-64 px-3 py-2">
                <Customer name={row.customerName} email={row.customerEmail} />
              </td>
              <td className="px-3 py-2">
                <OrderStatusBadges status={row.status} withdrawalRequested={row.withdrawalRequested} partlyRefunded={row.partlyRefunded} />
              </td>
              <td className="tabular px-3 py-2 text-right">{row.itemCount}</td>
              <td className="tabular px-3 py-2 text-right font-semibold whitespace-nowrap">{formatEuros(row.totalCents)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function OrderLink({ number }: { number: string }) {
  return (
    <Link to={`/admin/orders/${encodeURIComponent(number)}`} className="tabular inline-flex min-h-11 items-center font-semibold text-accent hover:underline">
      {number}
    </Link>
  );
}

function Customer({ name, email }: { name: string | null; email: string | null }) {
  return (
    <>
      <span className="block truncate font-medium">{name ?? "Client non renseigné"}</span>
      <span className="block truncate text-sm text-muted-foreground">{email ?? "—"}</span>
    </>
  );
}

function QuickFilter({ to, active, children }: { to: string; active: boolean; children: ReactNode }) {
  return (
    <Link
      to={to}
      aria-current={active ? "page" : undefined}
      className={cn(
        "inline-flex min-h-11 items-center gap-2 rounded-full border px-4 text-sm font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring",
        active ? "border-primary bg-primary text-primary-foreground" : "border-border hover:bg-muted",
      )}
    >
      {children}
    </Link>
  );
}

function Filters({ query }: { query: AdminOrderQuery }) {
  const submit = useSubmit();
  const form = useRef<HTMLFormElement>(null);
  // The status applies at once; the search on Enter or the button.
  const apply = () => form.current && submit(form.current, { preventScrollReset: true, replace: true });
  useShownValue("admin-orders-q", query.q);
  useShownValue("admin-orders-status", query.status ?? "");
  return (
    <Form ref={form} method="get" action="/admin/orders" role="search" aria-label="Filtrer les commandes" {...focusGroup()} className="mt-4 flex flex-wrap items-end gap-3">
      <label className="flex min-w-56 flex-1 flex-col gap-1 text-sm font-medium">
        Rechercher une commande
        <span className="relative">
          <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
          <Input id="admin-orders-q" type="search" name="q" defaultValue={query.q} placeholder="Numéro, e-mail ou nom du client..." className="pl-9" />
        </span>
      </label>
      <label className="flex flex-col gap-1 text-sm font-medium">
        Statut
        <select id="admin-orders-status" name="status" defaultValue={query.status ?? ""} onChange={apply} className={cn(controlClass, "h-11 w-auto")}>
          <option value="">Tous les statuts</option>
          {ORDER_STATUSES.map((status) => (
            <option key={status} value={status}>
              {ORDER_STATUS_LABELS[status]}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className={buttonVariants({ variant: "secondary" })}>
        Filtrer
      </button>
      {hasOrderFilters(query) ? (
        <ClearFiltersLink to={adminOrderListHref(DEFAULT_ORDER_QUERY)} />
      ) : null}
    </Form>
  );
}
