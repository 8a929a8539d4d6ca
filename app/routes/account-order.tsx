import { ArrowLeft } from "lucide-react";
import { data, Link } from "react-router";
import { OrderStatusBadge, OrderSummary, formatOrderDate } from "~/components/orders/order-summary";
import { buttonVariants } from "~/components/ui/button";
import { PRIVATE_PAGE_CACHE_CONTROL } from "~/lib/http";
import { pageMeta, seoRoot } from "~/lib/seo";
import { getCustomerOrder } from "~/services/orders.server";
import { requireViewer } from "~/services/session.server";
import type { Route } from "./+types/account-order";

/** One of the signed-in customer's orders; anybody else's number answers 404. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const viewer = await requireViewer(request, context);
  const order = await getCustomerOrder(context.db, viewer.id, params.number);
  if (!order) throw data(null, { status: 404 });
  return { order };
}

export function headers() {
  return { "Cache-Control": PRIVATE_PAGE_CACHE_CONTROL };
}

export const meta: Route.MetaFunction = ({ matches, data: loaderData, params }) => {
  const root = seoRoot(matches);
  const title = loaderData ? `Commande ${loaderData.order.number}` : "Commande";
  return pageMeta(root, { title: `${title} | ${root.shop.name}`, description: "Le détail de votre commande.", path: `/account/orders/${encodeURIComponent(params.number)}`, noindex: true });
};

export default function AccountOrder({ loaderData }: Route.ComponentProps) {
  const { order } = loaderData;
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
      <Link to="/account" className={buttonVariants({ variant: "ghost", className: "-ml-3" })}>
        <ArrowLeft aria-hidden="true" /> Mon compte
      </Link>
      <div className="mt-2 flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="tabular text-3xl font-extrabold tracking-tight">Commande {order.number}</h1>
          <p className="mt-1 text-muted-foreground">
            Passée le {formatOrderDate(order.createdAt)}
            {order.paidAt ? <span className="block text-sm">Payée le {formatOrderDate(order.paidAt)}</span> : null}
          </p>
        </div>
        <OrderStatusBadge status={order.status} />
      </div>
      <div className="mt-6">
        <OrderSummary order={order} />
      </div>
    </div>
  );
}
