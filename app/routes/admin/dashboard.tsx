import { AlertTriangle, CalendarClock, CheckCircle2, Circle, Clock, Heart, Inbox, PackageCheck, Rocket, Undo2 } from "lucide-react";
import { lazy, type ReactNode, Suspense, useSyncExternalStore } from "react";
import { Link, redirect, useFetcher } from "react-router";
import { actionAnswer, actionRefusal } from "~/components/admin/action-answers";
import { shortDay } from "~/components/admin/dashboard/day-label";
import { type ActionToast, useActionToast } from "~/components/admin/use-action-toast";
import { Button } from "~/components/ui/button";
import { FormField } from "~/components/ui/form-field";
import { ADMIN_PRODUCTS_PATH } from "~/domain/admin-product-list";
import { type FieldErrors, fieldErrors } from "~/domain/field-errors";
import { DASHBOARD_PERIODS, changePercent, changeText, dashboardSettingsSchema, durationText } from "~/domain/dashboard";
import { formatEuros } from "~/domain/money";
import { outstandingStoreCredit } from "~/services/store-credit-grants.server";
import { formatParisDate, formatParisShortDateTime, parisWallClock } from "~/domain/paris-time";
import { readForm } from "~/lib/request-input.server";
import { cn } from "~/lib/utils";
import { dashboardDemand, dashboardDrops, dashboardSales, dashboardStock, dashboardWaiting, getDashboardSettings, saveDashboardSettings } from "~/services/dashboard.server";
import { launchChecklist } from "~/services/launch-checklist.server";
import { type OssCounter, ossCounter } from "~/services/oss.server";
import { OSS_THRESHOLD_CENTS } from "~/domain/oss";
import { requireAdmin } from "~/services/session.server";
import { MarginVatCard } from "~/components/admin/dashboard/margin-vat-card";
import { marginVatSummary } from "~/services/margin-vat.server";
import { BuybackSection } from "~/components/admin/dashboard/buyback-figures";
import { dashboardBuyback } from "~/services/buyback-dashboard.server";
import { preordersToAllocate } from "~/services/preorder-allocations.server";
import type { Route } from "./+types/dashboard";

/** The product list's own query parameters: its old address (/admin?q=…) now leads to /admin/products. */
const PRODUCT_LIST_PARAMS = ["q", "category", "status", "featured", "sort", "order", "page"];

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const url = new URL(request.url);
  if (PRODUCT_LIST_PARAMS.some((name) => url.searchParams.has(name))) throw redirect(`${ADMIN_PRODUCTS_PATH}${url.search}`, 301);
  const now = new Date();
  const settings = await getDashboardSettings(context.db);
  const month = { year: parisWallClock(now).year, month: parisWallClock(now).month };
  const [sales, oss, waiting, stock, drops, checklist, storeCreditCents, marginVat, buyback, preorders, demand] = await Promise.all([
    dashboardSales(context.db, now),
    ossCounter(context.db, now),
    dashboardWaiting(context.db, now),
    dashboardStock(context.db, now, settings.lowStockThreshold),
    dashboardDrops(context.db, now),
    launchChecklist(context.db, { legalDefaults: context.shop.legal, payments: context.payments.name, smtp: context.sendMailNow !== null, publicUrl: context.publicUrl }),
    outstandingStoreCredit(context.db),
    marginVatSummary(context.db, month),
    dashboardBuyback(context.db, now),
    preordersToAllocate(context.db, now),
    dashboardDemand(context.db, now),
  ]);
  return { now: now.toISOString(), sales, oss, waiting, stock, drops, checklist, storeCreditCents, marginVat: { summary: marginVat, month }, buyback, preordersToAllocate: preorders, demand };
}

export const meta: Route.MetaFunction = () => [{ title: "Tableau de bord" }];

type SettingsAnswer = ActionToast & { fieldErrors?: FieldErrors };

/** The low-stock threshold, checked by the same schema as the form. */
export async function action({ request, context }: Route.ActionArgs) {
  await requireAdmin(request, context, "api");
  const form = await readForm(request);
  const parsed = dashboardSettingsSchema.safeParse({ lowStockThreshold: form.get("lowStockThreshold") });
  if (!parsed.success) return actionAnswer<SettingsAnswer>(400, { ok: false, toast: { title: "Erreur", description: "Le seuil n'est pas valide." }, fieldErrors: fieldErrors(parsed.error) });
  try {
    await saveDashboardSettings(context.db, parsed.data);
  } catch (error) {
    context.logger.error({ err: error }, "admin: dashboard settings save failed");
    return actionRefusal(500, "Le seuil n'a pas pu être enregistré. Réessayez.");
  }
  return actionAnswer<SettingsAnswer>(200, { ok: true, toast: { title: "Seuil enregistré", description: `Stock bas : ${parsed.data.lowStockThreshold} unité${parsed.data.lowStockThreshold > 1 ? "s" : ""} ou moins.` } });
}

// recharts comes with the dashboard only, in a chunk of its own, once the page is in the browser.
const RevenueChart = lazy(() => import("~/components/admin/dashboard/revenue-chart"));

const card = "rounded-2xl border border-border bg-card p-4 sm:p-5";
const sectionTitle = "text-lg font-bold tracking-tight";

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { sales, oss, waiting, stock, drops, checklist, storeCreditCents, marginVat, buyback, demand } = loaderData;
  const pending = checklist.filter((line) => !line.done).length;
  return (
    <div className="flex flex-col gap-8">
      <header>
        <h1 className="text-3xl font-extrabold tracking-tight">Tableau de bord</h1>
        <p className="mt-1 text-sm text-muted-foreground">Chiffres au {formatParisDate(loaderData.now)}, par jour de Paris ; ils se mettent à jour à chaque commande payée ou expédiée.</p>
      </header>

      {pending > 0 ? <LaunchChecklist lines={checklist} pending={pending} /> : null}

      <section aria-labelledby="sales-title">
        <h2 id="sales-title" className={sectionTitle}>
          Ventes
        </h2>
        <div className="mt-3 grid gap-4 md:grid-cols-3">
          {sales.periods.map((period) => {
            const info = DASHBOARD_PERIODS.find((candidate) => candidate.key === period.key)!;
            return <PeriodCard key={period.key} title={info.label} comparedWith={info.comparedWith} period={period} />;
          })}
        </div>
      </section>

      <OssCounterCard counter={oss} />

      {/* Store credit is a debt of the shop, not revenue: shown apart from the sales (decision 055). */}
      <section aria-labelledby="store-credit-title" className={card}>
        <h2 id="store-credit-title" className={sectionTitle}>
          Avoirs en cours
        </h2>
        <p className="mt-2 text-sm text-muted-foreground">
          Somme des soldes d'avoir des clients, dette de la boutique : <strong className="tabular text-base text-foreground">{formatEuros(storeCreditCents)}</strong>
        </p>
      </section>

      <MarginVatCard summary={marginVat.summary} month={marginVat.month} />

      <section aria-labelledby="chart-title" className={card}>
        <h2 id="chart-title" className={sectionTitle}>
          Chiffre d'affaires TTC par jour (30 jours)
        </h2>
        <div className="mt-3 h-60" aria-hidden="true">
          <ClientOnly fallback={<div className="h-60 animate-pulse rounded-xl bg-muted" />}>
            <Suspense fallback={<div className="h-60 animate-pulse rounded-xl bg-muted" />}>
              <RevenueChart days={sales.chart} />
            </Suspense>
          </ClientOnly>
        </div>
        <details className="mt-3 text-sm">
          <summary className="cursor-pointer font-medium">Voir les chiffres jour par jour</summary>
          <div className="mt-2 max-h-72 overflow-auto">
            <table className="w-full text-left">
              <caption className="sr-only">Chiffre d'affaires TTC et commandes payées par jour, les 30 derniers jours</caption>
              <thead className="text-muted-foreground">
                <tr>
                  <th scope="col" className="py-1 pr-3 font-medium">Jour</th>
                  <th scope="col" className="py-1 pr-3 text-right font-medium">Commandes</th>
                  <th scope="col" className="py-1 text-right font-medium">Chiffre d'affaires TTC</th>
                </tr>
              </thead>
              <tbody className="tabular">
                {sales.chart.map((day) => (
                  <tr key={day.day} className="border-t border-border">
                    <th scope="row" className="py-1 pr-3 font-normal">{shortDay(day.day)}</th>
                    <td className="py-1 pr-3 text-right">{day.orders}</td>
                    <td className="py-1 text-right">{formatEuros(day.revenueCents)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      </section>

      <section aria-labelledby="todo-title">
        <h2 id="todo-title" className={sectionTitle}>
          À faire
        </h2>
        <div className="mt-3 grid gap-4 lg:grid-cols-3">
          <div className={card}>
            <h3 className="flex items-center gap-2 font-semibold">
              <PackageCheck className="size-4" aria-hidden="true" /> À expédier <span className="tabular ml-auto text-2xl font-extrabold">{waiting.toShip.count}</span>
            </h3>
            {waiting.toShip.oldest.length > 0 ? (
              <ul className="mt-3 flex flex-col gap-2 text-sm">
                {waiting.toShip.oldest.map((order) => (
                  <li key={order.number} className="flex items-baseline justify-between gap-3">
                    <Link to={`/admin/orders/${order.number}`} className="font-medium underline-offset-4 hover:underline">
                      {order.number}
                    </Link>
                    <span className="tabular text-muted-foreground">payée il y a {durationText(Date.parse(loaderData.now) - Date.parse(order.paidAt))}</span>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="mt-3 text-sm text-muted-foreground">Rien à expédier.</p>
            )}
            <Link to="/admin/orders?status=paid" className="mt-3 inline-block text-sm font-medium text-accent underline-offset-4 hover:underline">
              Toutes les commandes à expédier
            </Link>
          </div>
          <div className={card}>
            <h3 className="flex items-center gap-2 font-semibold">
              <Undo2 className="size-4" aria-hidden="true" /> Rétractations en cours <span className="tabular ml-auto text-2xl font-extrabold">{waiting.withdrawals.count}</span>
            </h3>
            {waiting.withdrawals.oldest.length > 0 ? (
              <ul className="mt-3 flex flex-col gap-2 text-sm">
                {waiting.withdrawals.oldest.map((request) => {
                  // To refund within 14 days of the request (L221-24); the oldest, overdue first, lead the list.
                  const deadline = Date.parse(request.requestedAt) + 14 * 24 * 60 * 60 * 1000;
                  const overdue = deadline < Date.parse(loaderData.now);
                  return (
                    <li key={request.number} className="flex flex-col gap-0.5">
                      <span className="flex items-baseline justify-between gap-3">
                        <Link to={`/admin/orders/${request.number}`} className="font-medium underline-offset-4 hover:underline">
                          {request.number}
                        </Link>
                        <span className="tabular text-muted-foreground">le {formatParisShortDateTime(request.requestedAt)}</span>
                      </span>
                      <span className={overdue ? "font-semibold text-destructive" : "text-muted-foreground"}>
                        {overdue ? "En retard : à rembourser depuis le " : "À rembourser avant le "}
                        {formatParisDate(new Date(deadline))}
                      </span>
                    </li>
                  );
                })}
              </ul>
            ) : (
              <p className="mt-3 text-sm text-muted-foreground">Aucune rétractation à rembourser.</p>
            )}
          </div>
          <div className={card}>
            <h3 className="flex items-center gap-2 font-semibold">
              <Inbox className="size-4" aria-hidden="true" /> Messages sans réponse <span className="tabular ml-auto text-2xl font-extrabold">{waiting.messages.contact + waiting.messages.rachat}</span>
            </h3>
            <ul className="mt-3 flex flex-col gap-2 text-sm">
              <li className="flex justify-between gap-3">
                <Link to="/admin/inbox?kind=contact" className="font-medium underline-offset-4 hover:underline">
                  Contact
                </Link>
                <span className="tabular">{waiting.messages.contact}</span>
              </li>
              <li className="flex justify-between gap-3">
                <Link to="/admin/inbox?kind=rachat" className="font-medium underline-offset-4 hover:underline">
                  Rachat
                </Link>
                <span className="tabular">{waiting.messages.rachat}</span>
              </li>
            </ul>
          </div>
          <div className={card}>
            <h3 className="flex items-center gap-2 font-semibold">
              <CalendarClock className="size-4" aria-hidden="true" /> Précommandes à répartir <span className="tabular ml-auto text-2xl font-extrabold">{loaderData.preordersToAllocate}</span>
            </h3>
            <p className="mt-3 text-sm text-muted-foreground">
              {loaderData.preordersToAllocate > 0 ? "Produits sortis dont les précommandes payées attendent la répartition de la livraison." : "Aucune précommande à répartir."}
            </p>
            <Link to="/admin/precommandes" className="mt-3 inline-block text-sm font-medium text-accent underline-offset-4 hover:underline">
              Toutes les précommandes
            </Link>
          </div>
        </div>
      </section>

      <section aria-labelledby="stock-title">
        <h2 id="stock-title" className={sectionTitle}>
          Stock
        </h2>
        <div className="mt-3 grid gap-4 lg:grid-cols-2">
          <div className={card}>
            <h3 className="flex items-center gap-2 font-semibold">
              <AlertTriangle className="size-4" aria-hidden="true" /> Stock bas (≤ {stock.threshold}) <span className="tabular ml-auto text-2xl font-extrabold">{stock.low.count}</span>
            </h3>
            <ProductLines lines={stock.low.products.map((line) => ({ id: line.id, title: line.title, figure: `${line.stock} en stock` }))} empty="Aucun produit sous le seuil." />
            <ThresholdForm threshold={stock.threshold} />
          </div>
          <div className={card}>
            <h3 className="font-semibold">Meilleures ventes (30 jours)</h3>
            <ProductLines
              lines={stock.bestSellers.map((line) => ({ id: line.id, title: line.title, figure: `${line.units} vendu${line.units > 1 ? "s" : ""} · ${formatEuros(line.revenueCents)}` }))}
              empty="Aucune vente sur 30 jours."
            />
          </div>
          <div className={card}>
            <h3 className="flex items-center gap-2 font-semibold">
              <Clock className="size-4" aria-hidden="true" /> Jamais vendus en 90 jours <span className="tabular ml-auto text-2xl font-extrabold">{stock.unsold.count}</span>
            </h3>
            <ProductLines lines={stock.unsold.products.map((line) => ({ id: line.id, title: line.title, figure: `${line.stock} × ${formatEuros(line.priceCents)}` }))} empty="Tout s'est vendu au moins une fois." />
          </div>
          <div className={card}>
            <h3 className="flex items-center gap-2 font-semibold">
              <Heart className="size-4" aria-hidden="true" /> Clients en attente{" "}
              <span className="tabular ml-auto text-sm font-normal text-muted-foreground">
                {demand.count} produit{demand.count > 1 ? "s" : ""} attendu{demand.count > 1 ? "s" : ""}
              </span>
            </h3>
            <p className="mt-1 text-sm text-muted-foreground">
              Produits que des clients attendent : dans leur liste ou avec une alerte « Prévenez-moi » confirmée, chaque adresse comptée une fois. La demande avant de réassortir.
            </p>
            <ProductLines lines={demand.products.map((line) => ({ id: line.id, title: line.title, figure: `${line.waiting} client${line.waiting > 1 ? "s" : ""}` }))} empty="Aucun client n'attend de produit." />
          </div>
          <div className={card}>
            <h3 className="font-semibold">Valeur du stock au prix de vente</h3>
            <p className="tabular mt-2 text-3xl font-extrabold">{formatEuros(stock.valueCents)}</p>
            <p className="tabular text-sm text-muted-foreground">
              {stock.units} unité{stock.units > 1 ? "s" : ""} en stock
            </p>
          </div>
        </div>
      </section>

      <BuybackSection figures={buyback} />

      <section aria-labelledby="drops-title" className={card}>
        <h2 id="drops-title" className={cn(sectionTitle, "flex items-center gap-2")}>
          <Rocket className="size-4" aria-hidden="true" /> Dernières sorties
        </h2>
        {drops.length === 0 ? (
          <p className="mt-3 text-sm text-muted-foreground">Aucune sortie ouverte pour l'instant.</p>
        ) : (
          <div className="mt-3 overflow-x-auto">
            <table className="w-full min-w-[36rem] text-left text-sm">
              <caption className="sr-only">Les dernières sorties : unités, vendues, temps pour tout vendre, clients servis</caption>
              <thead className="text-muted-foreground">
                <tr>
                  <th scope="col" className="py-2 pr-3 font-medium">Produit</th>
                  <th scope="col" className="py-2 pr-3 font-medium">Ouverture</th>
                  <th scope="col" className="py-2 pr-3 text-right font-medium">Vendues</th>
                  <th scope="col" className="py-2 pr-3 text-right font-medium">Épuisée en</th>
                  <th scope="col" className="py-2 text-right font-medium">Clients servis</th>
                </tr>
              </thead>
              <tbody className="tabular">
                {drops.map((drop) => (
                  <tr key={drop.productId} className="border-t border-border">
                    <th scope="row" className="py-2 pr-3 font-medium">{drop.title}</th>
                    <td className="py-2 pr-3">{formatParisShortDateTime(drop.dropTime)}</td>
                    <td className="py-2 pr-3 text-right">
                      {drop.sold} / {drop.units}
                    </td>
                    <td className="py-2 pr-3 text-right">{drop.soldOutAfterMs === null ? "—" : durationText(drop.soldOutAfterMs)}</td>
                    <td className="py-2 text-right">{drop.customers}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}

function PeriodCard({ title, comparedWith, period }: { title: string; comparedWith: string; period: Route.ComponentProps["loaderData"]["sales"]["periods"][number] }) {
  const { current, previous } = period;
  const rows: { label: string; value: string; change: number | null }[] = [
    { label: "Chiffre d'affaires HT", value: formatEuros(current.revenueExVatCents), change: changePercent(current.revenueExVatCents, previous.revenueExVatCents) },
    { label: "Commandes", value: String(current.orders), change: changePercent(current.orders, previous.orders) },
    { label: "Panier moyen", value: formatEuros(current.averageBasketCents), change: changePercent(current.averageBasketCents, previous.averageBasketCents) },
    { label: "Unités vendues", value: String(current.units), change: changePercent(current.units, previous.units) },
    { label: "Remboursements", value: `${current.refunds} · ${formatEuros(current.refundedCents)}`, change: null },
  ];
  const revenueChange = changePercent(current.revenueCents, previous.revenueCents);
  return (
    <article className={card} aria-label={title} data-testid={`period-${period.key}`}>
      <h3 className="text-sm font-semibold text-muted-foreground">{title}</h3>
      <p className="tabular mt-1 text-3xl font-extrabold" data-testid="revenue">
        {formatEuros(current.revenueCents)}
      </p>
      <p className="text-xs text-muted-foreground">
        TTC · <ChangeText percent={revenueChange} /> {comparedWith} ({formatEuros(previous.revenueCents)})
      </p>
      <dl className="mt-3 flex flex-col gap-1 text-sm">
        {rows.map((row) => (
          <div key={row.label} className="flex items-baseline justify-between gap-3">
            <dt className="text-muted-foreground">{row.label}</dt>
            <dd className="tabular text-right font-semibold">
              {row.value}
              {row.label !== "Remboursements" ? (
                <span className="ml-2 text-xs font-normal text-muted-foreground">
                  <ChangeText percent={row.change} />
                </span>
              ) : null}
            </dd>
          </div>
        ))}
      </dl>
    </article>
  );
}

function ChangeText({ percent }: { percent: number | null }) {
  return <span className={cn(percent !== null && percent > 0 && "text-success", percent !== null && percent < 0 && "text-destructive")}>{changeText(percent)}</span>;
}

function ProductLines({ lines, empty }: { lines: { id: number | null; title: string; figure: string }[]; empty: string }) {
  if (lines.length === 0) return <p className="mt-3 text-sm text-muted-foreground">{empty}</p>;
  return (
    <ul className="mt-3 flex flex-col gap-2 text-sm">
      {lines.map((line) => (
        <li key={`${line.id}-${line.title}`} className="flex items-baseline justify-between gap-3">
          {line.id === null ? (
            <span>{line.title}</span>
          ) : (
            <Link to={`/admin/products/edit/${line.id}`} className="min-w-0 truncate font-medium underline-offset-4 hover:underline">
              {line.title}
            </Link>
          )}
          <span className="tabular shrink-0 text-muted-foreground">{line.figure}</span>
        </li>
      ))}
    </ul>
  );
}

function ThresholdForm({ threshold }: { threshold: number }) {
  const fetcher = useFetcher<SettingsAnswer>();
  useActionToast(fetcher.data);
  return (
    <fetcher.Form method="post" className="mt-4 flex flex-wrap items-end gap-3">
      <div className="w-40">
        <FormField label="Seuil de stock bas" name="lowStockThreshold" inputMode="numeric" defaultValue={String(threshold)} key={threshold} error={fetcher.data?.fieldErrors?.lowStockThreshold} autoComplete="off" maxLength={3} />
      </div>
      <Button type="submit" variant="outline" disabled={fetcher.state !== "idle"}>
        Enregistrer
      </Button>
    </fetcher.Form>
  );
}

function LaunchChecklist({ lines, pending }: { lines: Route.ComponentProps["loaderData"]["checklist"]; pending: number }) {
  return (
    <section aria-labelledby="checklist-title" className="rounded-2xl border-2 border-warning bg-card p-4 sm:p-5">
      <h2 id="checklist-title" className={sectionTitle}>
        Avant d'ouvrir la boutique
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        {pending} point{pending > 1 ? "s" : ""} sur {lines.length} à régler. Cette liste lit l'état réel de la boutique ; elle disparaît quand tout est prêt.
      </p>
      <ul className="mt-3 flex flex-col gap-3">
        {lines.map((line) => (
          <li key={line.key} className="flex items-start gap-3" data-testid={`checklist-${line.key}`}>
            {line.done ? <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-success" aria-hidden="true" /> : <Circle className="mt-0.5 size-5 shrink-0 text-warning" aria-hidden="true" />}
            <div className="min-w-0">
              <p className="font-semibold">
                <span className="sr-only">{line.done ? "Fait : " : "À faire : "}</span>
                {line.href ? (
                  <Link to={line.href} className="underline-offset-4 hover:underline">
                    {line.label}
                  </Link>
                ) : (
                  line.label
                )}
              </p>
              <p className="text-sm">{line.state}</p>
              <p className="text-sm text-muted-foreground">{line.why}</p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Renders its children once in the browser (the chart measures its box; the server has none). */
function ClientOnly({ children, fallback }: { children: ReactNode; fallback: ReactNode }) {
  const inBrowser = useSyncExternalStore(
    () => () => {},
    () => true,
    () => false,
  );
  return inBrowser ? children : fallback;
}

/**
 * The EU distance-sales counter (docs/decisions/046): this year's and last year's sales to other
 * member states excluding VAT, against the 10,000 € threshold, and which VAT new orders carry.
 */
function OssCounterCard({ counter }: { counter: OssCounter }) {
  const years = [
    { year: counter.year, cents: counter.currentYearCents },
    { year: counter.year - 1, cents: counter.previousYearCents },
  ];
  return (
    <section aria-labelledby="oss-title" className={card}>
      <h2 id="oss-title" className={sectionTitle}>
        Ventes à distance dans l'UE (seuil OSS)
      </h2>
      <p className="mt-1 max-w-prose text-sm text-muted-foreground">
        Ventes HT livrées dans un autre pays de l'UE, nettes des remboursements. Au-delà de {formatEuros(OSS_THRESHOLD_CENTS)} HT sur l'année en cours ou la précédente, la TVA du
        pays de l'acheteur s'applique.
      </p>
      <dl className="mt-4 grid gap-4 sm:grid-cols-2">
        {years.map(({ year, cents }) => {
          const share = Math.min(100, Math.round((Math.max(0, cents) * 100) / OSS_THRESHOLD_CENTS));
          return (
            <div key={year}>
              <dt className="text-sm text-muted-foreground">{year}</dt>
              <dd>
                <span className="tabular text-2xl font-extrabold">{formatEuros(cents)}</span>
                <span className="text-sm text-muted-foreground"> HT sur {formatEuros(OSS_THRESHOLD_CENTS)}</span>
                <span className="mt-2 block h-2 overflow-hidden rounded-full bg-muted" aria-hidden="true">
                  <span className={cn("block h-full rounded-full", cents > OSS_THRESHOLD_CENTS ? "bg-destructive" : "bg-accent")} style={{ width: `${share}%` }} />
                </span>
              </dd>
            </div>
          );
        })}
      </dl>
      <p className="mt-4 text-sm font-medium">
        {counter.destinationVat
          ? counter.optedIn && counter.currentYearCents <= OSS_THRESHOLD_CENTS && counter.previousYearCents <= OSS_THRESHOLD_CENTS
            ? "Option choisie : les commandes livrées dans un autre pays de l'UE portent la TVA de ce pays (déclaration OSS chaque trimestre)."
            : "Seuil dépassé : les commandes livrées dans un autre pays de l'UE portent la TVA de ce pays (déclaration OSS chaque trimestre)."
          : `TVA française sur toutes les commandes : ${formatEuros(OSS_THRESHOLD_CENTS - counter.currentYearCents)} HT avant le seuil cette année.`}{" "}
        <Link to="/admin/exports" className="text-accent underline underline-offset-4">
          Export OSS
        </Link>
      </p>
    </section>
  );
}
