import { ArrowLeft, Package, Search } from "lucide-react";
import { Form, Link, data, useNavigation } from "react-router";
import { OrderStatusBadges } from "~/components/orders/withdrawal-status";
import { Button, buttonVariants } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Pagination } from "~/components/ui/pagination";
import { ACCOUNT_ORDER_SEARCH_MAX, accountOrderListHref, emptyAccountOrdersText, orderContentsText } from "~/domain/account-order-list";
import { parseAccountOrderQuery } from "~/domain/account-order-query";
import { itemCountText, ordersFoundText } from "~/domain/admin-order-list";
import { formatEuros } from "~/domain/money";
import { formatParisDate } from "~/domain/paris-time";
import { PRIVATE_PAGE_CACHE_CONTROL } from "~/lib/http";
import { pageMeta, seoRoot } from "~/lib/seo";
import { useShownValue } from "~/lib/use-shown-value";
import { listCustomerOrderPage } from "~/services/customer-orders.server";
import { requireViewer } from "~/services/session.server";
import type { Route } from "./+types/account-orders";

/** Every order of the signed-in customer, newest first: pages and a search by number or product, in the URL. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireViewer(request, context);
  const { query, error } = parseAccountOrderQuery(new URL(request.url).searchParams);
  const list = await listCustomerOrderPage(context.db, viewer.id, query);
  const answer = { query: { ...query, page: list.page }, error, ...list };
  // A search too long is the visitor's mistake: said in the page, with a 400.
  return error ? data(answer, { status: 400 }) : answer;
}

export function headers() {
  return { "Cache-Control": PRIVATE_PAGE_CACHE_CONTROL };
}

export const meta: Route.MetaFunction = ({ matches }) => {
  const root = seoRoot(matches);
  return pageMeta(root, { title: `Mes commandes | ${root.shop.name}`, description: "Toutes vos commandes.", path: "/account/orders", noindex: true });
};

export default function AccountOrders({ loaderData }: Route.ComponentProps) {
  const { query, error, rows, total, page, pageCount } = loaderData;
  const navigation = useNavigation();
  useShownValue("account-orders-q", query.q);
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6" aria-busy={navigation.state === "loading"}>
      <Link to="/account" className={buttonVariants({ variant: "ghost", className: "-ml-3" })}>
        <ArrowLeft aria-hidden="true" /> Mon compte
      </Link>
      <h1 className="mt-2 text-3xl font-extrabold tracking-tight">Mes commandes</h1>

      <Form method="get" action="/account/orders" role="search" aria-label="Rechercher dans mes commandes" className="mt-6 flex flex-wrap items-end gap-3">
        <label htmlFor="account-orders-q" className="flex min-w-56 flex-1 flex-col gap-1 text-sm font-medium">
          Rechercher une commande
          <span className="relative">
            <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
            <Input
              id="account-orders-q"
              type="search"
              name="q"
              defaultValue={query.q}
              maxLength={ACCOUNT_ORDER_SEARCH_MAX}
              placeholder="Numéro de commande ou produit"
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? "account-orders-q-error" : undefined}
              className="pl-9"
            />
          </span>
        </label>
        <Button type="submit" variant="secondary">
          Rechercher
        </Button>
        {query.q ? (
          <Link to="/account/orders" className={buttonVariants({ variant: "ghost" })}>
            Effacer la recherche
          </Link>
        ) : null}
      </Form>
      {error ? (
        <p id="account-orders-q-error" className="mt-2 text-sm font-medium text-destructive" role="alert">
          {error}
        </p>
      ) : null}

      <p className="tabular mt-4 text-sm text-muted-foreground" aria-live="polite">
        {query.q ? `${ordersFoundText(total)} pour «\u00a0${query.q}\u00a0»` : ordersFoundText(total)}
      </p>

      {rows.length === 0 ? (
        <div className="mt-4 flex flex-col items-center gap-2 rounded-2xl border border-dashed border-border p-10 text-center">
          <Package className="size-8 text-muted-foreground" aria-hidden="true" />
          <p className="font-semibold text-muted-foreground">{emptyAccountOrdersText(query.q)}</p>
          {query.q ? null : (
            <Link to="/catalog" className={buttonVariants({ variant: "outline", className: "mt-2" })}>
              Voir le catalogue
            </Link>
          )}
        </div>
      ) : (
        <ul className="mt-3 flex flex-col gap-3" aria-label="Commandes, les plus récentes d'abord">
          {rows.map((row) => (
            <li key={row.number}>
              <Link
                to={`/account/orders/${encodeURIComponent(row.number)}`}
                className="grid grid-cols-[minmax(0,1fr)_auto] gap-x-4 gap-y-1 rounded-2xl border border-border bg-card p-4 transition-colors hover:bg-muted focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
              >
                <span className="tabular font-bold whitespace-nowrap">
                  <span className="sr-only">Commande </span>
                  {row.number}
                </span>
                <span className="tabular text-right font-bold whitespace-nowrap">{formatEuros(row.totalCents)}</span>
                {/* Phones: the badges on a line of their own, under the date; wider: beside it. */}
                <span className="tabular col-span-2 text-sm text-muted-foreground sm:col-span-1">
                  {formatParisDate(row.createdAt)} · {itemCountText(row.itemCount)}
                </span>
                <span className="col-span-2 sm:col-span-1 sm:justify-self-end">
                  <OrderStatusBadges status={row.status} withdrawalRequested={row.withdrawalRequested} partlyRefunded={row.partlyRefunded} />
                </span>
                {row.firstItemName ? <span className="col-span-2 truncate text-sm">{orderContentsText(row.firstItemName, row.lineCount)}</span> : null}
              </Link>
            </li>
          ))}
        </ul>
      )}

      <Pagination className="mt-6" page={page} pageCount={pageCount} href={(n) => accountOrderListHref({ ...query, page: n })} />
    </div>
  );
}
