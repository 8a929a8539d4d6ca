import { Bell, CalendarDays, Heart, Mail, MapPin, Package, User } from "lucide-react";
import { buttonVariants } from "~/components/ui/button";
import { AccountLinkCard } from "~/components/account/account-link-card";
import { LogoutButton } from "~/components/account/logout-button";
import { OrderStatusBadge } from "~/components/orders/order-status-badge";
import { WithdrawalAction } from "~/components/orders/withdrawal-status";
import { ORDER_STATUS_LABELS } from "~/domain/catalog-values";
import { formatEuros } from "~/domain/money";
import { PRIVATE_PAGE_CACHE_CONTROL } from "~/lib/http";
import { pageMeta, seoRoot } from "~/lib/seo";
import { listCustomerOrders } from "~/services/orders.server";
import { isSameOriginPost, requireViewer } from "~/services/session.server";
import { withdrawalDates } from "~/services/withdrawal.server";
import type { Route } from "./+types/account";
import { formatParisDate } from "~/domain/paris-time";
import { Link, data } from "react-router";
import { BUSINESS_PROFILE_DELETE_INTENT, BUSINESS_PROFILE_INTENT, type BusinessProfileAnswer, BusinessProfileForm } from "~/components/account/business-profile-form";
import { type BusinessPurchaseInput, businessPurchaseSchema } from "~/domain/business-purchase";
import { fieldErrors } from "~/domain/field-errors";
import { readForm } from "~/lib/request-input.server";
import { deleteBusinessProfile, getBusinessProfile, saveBusinessProfile } from "~/services/business-buyers.server";
import { getBusinessSalesSettings } from "~/services/business-sales-settings.server";
import { StoreCreditHistoryView } from "~/components/account/store-credit-history";
import { storeCreditHistoryOf } from "~/services/store-credit-orders.server";

/** « Commandes récentes » shows a few; « Toutes mes commandes » has them all. */
const RECENT_ORDERS = 3;

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireViewer(request, context);
  const list = await listCustomerOrders(context.db, viewer.id, RECENT_ORDERS);
  const withdrawals = await withdrawalDates(context.db, list.map((order) => order.id));
  const orders = list.map((order) => ({ ...order, withdrawalRequestedAt: withdrawals.get(order.id) ?? null }));
  const [businessProfile, { sellToBusinesses }] = await Promise.all([getBusinessProfile(context.db, viewer.id), getBusinessSalesSettings(context.db)]);
  // « Mon avoir » (issue 54): only when the verified mailbox has or had credit.
  const storeCredit = await storeCreditHistoryOf(context.db, viewer.id);
  return { viewer, orders, businessProfile, sellToBusinesses, storeCredit };
}

/** The account's forms: the company of « Achat professionnel » (issue 53). */
export async function action({ request, context }: Route.ActionArgs) {
  if (!isSameOriginPost(request, context.publicUrl)) throw data("Requête refusée : elle doit venir du site de la boutique.", { status: 403 });
  const viewer = await requireViewer(request, context);
  const form = await readForm(request);
  const intent = form.get("intent");
  if (intent === BUSINESS_PROFILE_DELETE_INTENT) {
    await deleteBusinessProfile(context.db, viewer.id);
    return { form: "business", saved: "deleted" } satisfies BusinessProfileAnswer;
  }
  if (intent !== BUSINESS_PROFILE_INTENT) throw data("Action inconnue.", { status: 400 });
  const values = Object.fromEntries(["companyName", "siren", "vatNumber", "country"].map((key) => [key, String(form.get(key) ?? "")])) as BusinessPurchaseInput;
  const parsed = businessPurchaseSchema.safeParse(values);
  if (!parsed.success) return data({ form: "business", errors: fieldErrors(parsed.error), values } satisfies BusinessProfileAnswer, { status: 400 });
  await saveBusinessProfile(context.db, viewer.id, parsed.data);
  return { form: "business", saved: "saved" } satisfies BusinessProfileAnswer;
}

export function headers() {
  return { "Cache-Control": PRIVATE_PAGE_CACHE_CONTROL };
}

export const meta: Route.MetaFunction = ({ matches }) => {
  const root = seoRoot(matches);
  return pageMeta(root, { title: `Mon compte | ${root.shop.name}`, description: "Votre compte client.", path: "/account", noindex: true });
};


export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const { viewer, orders, businessProfile, sellToBusinesses, storeCredit } = loaderData;
  return (
    <div className="mx-auto max-w-4xl px-4 py-10 sm:px-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-3xl font-extrabold tracking-tight">Mon compte</h1>
          <p className="mt-1 text-muted-foreground">Bonjour {viewer.name} !</p>
        </div>
        <LogoutButton />
      </div>

      <div className="mt-8 grid gap-6 md:grid-cols-2">
        <section aria-labelledby="info-title" className="rounded-2xl border border-border bg-card p-6">
          <h2 id="info-title" className="text-lg font-bold">
            Informations personnelles
          </h2>
          <dl className="mt-4 flex flex-col gap-3 text-sm">
            <div className="flex items-center gap-3">
              <Mail className="size-4 text-muted-foreground" aria-hidden="true" />
              <dt className="sr-only">Email</dt>
              <dd>{viewer.email}</dd>
            </div>
            <div className="flex items-center gap-3">
              <User className="size-4 text-muted-foreground" aria-hidden="true" />
              <dt className="sr-only">Nom</dt>
              <dd>{viewer.name}</dd>
            </div>
            <div className="flex items-center gap-3">
              <CalendarDays className="size-4 text-muted-foreground" aria-hidden="true" />
              <dt className="sr-only">Membre depuis</dt>
              <dd>Membre depuis le {formatParisDate(viewer.createdAt)}</dd>
            </div>
          </dl>
        </section>

        <section aria-labelledby="orders-title" className="rounded-2xl border border-border bg-card p-6">
          <h2 id="orders-title" className="text-lg font-bold">
            Commandes récentes
          </h2>
          {orders.length === 0 ? (
            <div className="mt-4 flex flex-col items-center gap-2 rounded-xl border border-dashed border-border p-6 text-center">
              <Package className="size-8 text-muted-foreground" aria-hidden="true" />
              <p className="text-sm text-muted-foreground">Aucune commande récente</p>
            </div>
          ) : (
            <ul className="mt-4 flex flex-col divide-y divide-border text-sm">
              {orders.map((order) => (
                <li key={order.id}>
                  <Link
                    to={`/account/orders/${encodeURIComponent(order.number)}`}
                    className="-mx-2 grid grid-cols-[1fr_auto] items-center gap-x-3 gap-y-1 rounded-lg px-2 py-3 hover:bg-muted"
                    aria-label={`Commande ${order.number} du ${formatParisDate(order.createdAt)}, ${ORDER_STATUS_LABELS[order.status]}, ${formatEuros(order.totalCents)}`}
                  >
                    <span className="tabular font-semibold">{order.number}</span>
                    <span className="tabular text-right font-semibold">{formatEuros(order.totalCents)}</span>
                    <span className="text-muted-foreground">{formatParisDate(order.createdAt)}</span>
                    <span className="justify-self-end">
                      <OrderStatusBadge status={order.status} />
                    </span>
                  </Link>
                  <WithdrawalAction number={order.number} status={order.status} requestedAt={order.withdrawalRequestedAt} className="mb-3" />
                </li>
              ))}
            </ul>
          )}
          {orders.length > 0 ? (
            <Link to="/account/orders" className={buttonVariants({ variant: "outline", className: "mt-2 w-full" })}>
              Toutes mes commandes
            </Link>
          ) : null}
        </section>
      </div>

      {sellToBusinesses || businessProfile ? <BusinessProfileForm profile={businessProfile} answer={actionData} /> : null}
      {storeCredit ? (
        <div className="mt-6">
          <StoreCreditHistoryView history={storeCredit} titleId="store-credit-title" />
        </div>
      ) : null}

      <AccountLinkCard
        id="addresses-title"
        icon={MapPin}
        title="Mes adresses"
        text="Vos adresses de livraison et de facturation, vos points relais : proposés au paiement."
        to="/account/adresses"
        action="Gérer mes adresses"
      />
      <AccountLinkCard
        id="wishlist-title"
        icon={Heart}
        title="Ma liste d'envies"
        text="Les produits que vous guettez, et leurs alertes : retour en stock, drop, baisse de prix."
        to="/account/liste"
        action="Voir ma liste"
      />
      <AccountLinkCard
        id="notifications-title"
        icon={Bell}
        title="Notifications par e-mail"
        text="Les e-mails de vos commandes, et les alertes que vous choisissez de recevoir."
        to="/account/notifications"
        action="Gérer mes e-mails"
      />
    </div>
  );
}
