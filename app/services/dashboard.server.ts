import { sql } from "drizzle-orm";
import { siteSettings } from "~/db/schema";
import { rowsOf } from "~/db/query-rows";
import type { Db } from "~/db/types";
import {
  addCalendarDays,
  averageBasket,
  BEST_SELLERS_DAYS,
  CHART_DAYS,
  DASHBOARD_PERIODS,
  type DashboardPeriodKey,
  dailySeries,
  type DayRevenue,
  DEFAULT_LOW_STOCK_THRESHOLD,
  parisDate,
  periodRanges,
  UNSOLD_DAYS,
} from "~/domain/dashboard";
import type { InboxKind } from "~/domain/inbox-values";
import { receiptsIn, refundsIn } from "./accounting-export.server";
import { keptRead } from "./kept-reads.server";
import { waitingAddresses } from "./wishlist-alerts.server";

/**
 * The seller's dashboard (/admin, issue 41): SQL aggregates over orders, order lines and
 * refunds, by Paris day. A sale counts on the day its payment was received (`paid_at`), whatever
 * became of the order since; a refund on the day it was made (its own `refunded_at`), for its own
 * amount (a partial refund is one refund), when it refunds a sale: a late payment refunded without ever
 * being paid for good (no `paid_at`) is no refund, as in the receipts book. The order list shows
 * the same orders: those paid in a day are the ones whose payment date is that day.
 */

export type SalesFigures = { revenueCents: number; revenueExVatCents: number; orders: number; averageBasketCents: number; refunds: number; refundedCents: number; units: number };
export type PeriodFigures = { key: DashboardPeriodKey; current: SalesFigures; previous: SalesFigures };

type DayRow = { day: string; orders: number; revenueCents: number; vatCents: number; units: number; refunds: number; refundedCents: number };


/**
 * Sales and refunds by Paris day from `firstDay` (a Paris date) to the end of today, selected by
 * the receipts book's own conditions (receiptsIn, refundsIn): the dashboard's payments and refunds
 * are that book's lines.
 */
async function dailyFigures(db: Db, firstDay: string, endDay: string, [from, to]: [Date, Date]): Promise<DayRow[]> {
  const result = await db.execute(sql`
    with paid as (
      select orders.id, (orders.paid_at at time zone 'Europe/Paris')::date as day, orders.total_cents,
             (select coalesce(sum((r->>'vatCents')::int), 0) from jsonb_array_elements(orders.vat_breakdown) r) as vat
      from orders
      where ${receiptsIn(from, to)}
    ), units as (
      select i.order_id, sum(i.quantity) as units from order_items i join paid p on p.id = i.order_id group by i.order_id
    ), sales as (
      select p.day, count(*)::int as orders, sum(p.total_cents)::bigint as revenue, sum(p.vat)::bigint as vat, sum(coalesce(u.units, 0))::bigint as units
      from paid p left join units u on u.order_id = p.id
      group by p.day
    ), refunds as (
      select (order_refunds.refunded_at at time zone 'Europe/Paris')::date as day, count(*)::int as refunds, sum(order_refunds.amount_cents)::bigint as refunded
      from order_refunds join orders on orders.id = order_refunds.order_id
      where ${refundsIn(from, to)}
      group by 1
    )
    select to_char(coalesce(s.day, r.day), 'YYYY-MM-DD') as day,
           coalesce(s.orders, 0) as orders, coalesce(s.revenue, 0)::float8 as revenue, coalesce(s.vat, 0)::float8 as vat,
           coalesce(s.units, 0)::float8 as units, coalesce(r.refunds, 0) as refunds, coalesce(r.refunded, 0)::float8 as refunded
    from sales s full join refunds r on r.day = s.day
  `);
  return rowsOf<{ day: string; orders: number; revenue: number; vat: number; units: number; refunds: number; refunded: number }>(result)
    .filter((row) => row.day >= firstDay && row.day < endDay)
    .map((row) => ({ day: row.day, orders: Number(row.orders), revenueCents: Number(row.revenue), vatCents: Number(row.vat), units: Number(row.units), refunds: Number(row.refunds), refundedCents: Number(row.refunded) }));
}

/** The figures of the days in [firstDay, endDay) (Paris dates). */
export function sumDays(rows: DayRow[], firstDay: string, endDay: string): SalesFigures {
  let revenueCents = 0;
  let vatCents = 0;
  let orders = 0;
  let units = 0;
  let refunds = 0;
  let refundedCents = 0;
  for (const row of rows) {
    if (row.day < firstDay || row.day >= endDay) continue;
    revenueCents += row.revenueCents;
    vatCents += row.vatCents;
    orders += row.orders;
    units += row.units;
    refunds += row.refunds;
    refundedCents += row.refundedCents;
  }
  return { revenueCents, revenueExVatCents: revenueCents - vatCents, orders, averageBasketCents: averageBasket(revenueCents, orders), refunds, refundedCents, units };
}

export type DashboardSales = { periods: PeriodFigures[]; chart: DayRevenue[] };

/**
 * The sales, stock and drops figures are kept between changes (services/kept-reads.server.ts):
 * they read thousands of orders (about 50–90 ms on PGlite with 20,000 of them) and change only
 * when an order or a product does. A read also ends after a minute (the Paris day turns, a
 * product passes its 90 days unsold).
 */
const KEEP_MS = 60_000;

/**
 * What waits (orders to ship, withdrawals, messages) is kept 2 s only: messages and withdrawals
 * come without a change event, and tabs reloading on the same order event share one read.
 */
export const WAITING_KEEP_MS = 2_000;
/** The kept read of what waits (a request opened or answered forgets it: services/admin-badges.server.ts). */
export const WAITING_READ = "waiting";

/** Today, 7 and 30 days against the days just before, and the chart's last 30 days, from one read by day. */
export function dashboardSales(db: Db, now: Date): Promise<DashboardSales> {
  return keptRead(db, `sales:${parisDate(now)}`, now.getTime(), () => readSales(db, now), KEEP_MS);
}

async function readSales(db: Db, now: Date): Promise<DashboardSales> {
  const today = parisDate(now);
  const tomorrow = addCalendarDays(today, 1);
  const longest = Math.max(...DASHBOARD_PERIODS.map((period) => period.days), CHART_DAYS);
  const firstDay = addCalendarDays(tomorrow, -2 * longest);
  // A day before and after the Paris bounds: the days themselves are cut in SQL by their Paris date.
  const rows = await dailyFigures(db, firstDay, tomorrow, [new Date(Date.parse(`${firstDay}T00:00:00Z`) - 86_400_000), new Date(Date.parse(`${tomorrow}T00:00:00Z`) + 86_400_000)]);
  const periods = DASHBOARD_PERIODS.map(({ key, days }) => {
    const first = addCalendarDays(tomorrow, -days);
    return { key, current: sumDays(rows, first, tomorrow), previous: sumDays(rows, addCalendarDays(first, -days), first) };
  });
  const chartFirst = addCalendarDays(tomorrow, -CHART_DAYS);
  const chart = dailySeries(
    rows.filter((row) => row.day >= chartFirst).map((row) => ({ day: row.day, revenueCents: row.revenueCents, orders: row.orders })),
    chartFirst,
    CHART_DAYS,
  );
  return { periods, chart };
}

export type OrderToShip = { number: string; customerName: string | null; totalCents: number; paidAt: string };
export type WithdrawalOpen = { number: string; requestedAt: string };
export type Waiting = { toShip: { count: number; oldest: OrderToShip[] }; withdrawals: { count: number; oldest: WithdrawalOpen[] }; messages: Record<InboxKind, number> };

/**
 * What must be done: paid orders to ship (oldest first; the sidebar's rule: not held by a withdrawal
 * not yet refunded), withdrawals not refunded yet (the oldest request first: its 14-day deadline,
 * L221-24, comes first, overdue ones before), messages not answered.
 */
export function dashboardWaiting(db: Db, now = new Date()): Promise<Waiting> {
  return keptRead(db, WAITING_READ, now.getTime(), () => readWaiting(db), WAITING_KEEP_MS);
}

async function readWaiting(db: Db): Promise<Waiting> {
  const [toShip, withdrawals, messages] = await Promise.all([
    db.execute(sql`
      select o.number, o.customer_name as "customerName", o.total_cents as "totalCents", o.paid_at as "paidAt", count(*) over ()::int as total
      from orders o
      where o.status = 'paid' and not exists (select 1 from withdrawal_requests w where w.order_id = o.id and w.refund_id is null)
      order by o.paid_at asc nulls last, o.number limit 8`),
    db.execute(sql`
      select o.number, w.requested_at as "requestedAt", count(*) over ()::int as total
      from withdrawal_requests w join orders o on o.id = w.order_id
      where o.status in ('paid', 'shipped') and w.refund_id is null
      order by w.requested_at asc limit 5`),
    db.execute(sql`select kind, count(*)::int as n from inbox_messages where status in ('nouveau', 'lu') group by kind`),
  ]);
  const withdrawalRows = rowsOf<{ number: string; requestedAt: Date | string; total: number }>(withdrawals);
  const byKind = new Map(rowsOf<{ kind: InboxKind; n: number }>(messages).map((row) => [row.kind, Number(row.n)]));
  const toShipRows = rowsOf<{ number: string; customerName: string | null; totalCents: number; paidAt: Date | string; total: number }>(toShip);
  return {
    toShip: {
      // The same rule as the sidebar's count (paid, not withdrawn), in the same read as the oldest.
      count: Number(toShipRows[0]?.total ?? 0),
      oldest: toShipRows.map(({ total: _total, ...row }) => ({ ...row, totalCents: Number(row.totalCents), paidAt: new Date(row.paidAt).toISOString() })),
    },
    withdrawals: { count: Number(withdrawalRows[0]?.total ?? 0), oldest: withdrawalRows.map((row) => ({ number: row.number, requestedAt: new Date(row.requestedAt).toISOString() })) },
    messages: { contact: byKind.get("contact") ?? 0, rachat: byKind.get("rachat") ?? 0 },
  };
}

export type StockLine = { id: number; title: string; stock: number; priceCents: number };
export type BestSeller = { id: number | null; title: string; units: number; revenueCents: number };
export type Stock = { threshold: number; low: { count: number; products: StockLine[] }; bestSellers: BestSeller[]; unsold: { count: number; products: StockLine[] }; valueCents: number; units: number };

/**
 * Stock: what runs low, what sells, what never sells, and what the shelves are worth at selling
 * price. What sells: the lines of orders paid in the last 30 Paris days (whole days, today
 * included, bounded by Paris midnights) and still sold, paid or shipped: an order refunded, or
 * being refunded, sold nothing, and a late payment refunded never was a sale.
 */
export function dashboardStock(db: Db, now: Date, threshold: number): Promise<Stock> {
  return keptRead(db, `stock:${threshold}:${parisDate(now)}`, now.getTime(), () => readStock(db, now, threshold), KEEP_MS);
}

async function readStock(db: Db, now: Date, threshold: number): Promise<Stock> {
  const bestSellers = periodRanges(now, BEST_SELLERS_DAYS).current;
  const since90 = new Date(now.getTime() - UNSOLD_DAYS * 86_400_000);
  const [low, best, unsold, value] = await Promise.all([
    db.execute(sql`
      select id, title, stock, price_cents as "priceCents", count(*) over ()::int as total
      from products where status <> 'hors_ligne' and stock <= ${threshold}
      order by stock asc, title limit 8`),
    db.execute(sql`
      select i.product_id as id, min(i.name) as title, sum(i.quantity)::int as units, sum(i.unit_price_cents * i.quantity)::float8 as revenue
      from order_items i join orders o on o.id = i.order_id
      where o.paid_at >= ${bestSellers.from} and o.paid_at < ${bestSellers.to} and o.status in ('paid', 'shipped')
      group by i.product_id order by units desc, title limit 5`),
    db.execute(sql`
      select p.id, p.title, p.stock, p.price_cents as "priceCents", count(*) over ()::int as total
      from products p
      where p.stock > 0 and p.archived_at is null and p.created_at < ${since90}
        and not exists (select 1 from order_items i join orders o on o.id = i.order_id where i.product_id = p.id and o.paid_at >= ${since90})
      order by p.stock * p.price_cents desc, p.title limit 5`),
    db.execute(sql`select coalesce(sum(price_cents::bigint * stock), 0)::float8 as value, coalesce(sum(stock), 0)::int as units from products where stock > 0 and archived_at is null`),
  ]);
  const lines = (result: unknown) => rowsOf<StockLine & { total: number }>(result);
  const [worth] = rowsOf<{ value: number; units: number }>(value);
  return {
    threshold,
    low: { count: Number(lines(low)[0]?.total ?? 0), products: lines(low).map(({ total: _total, ...line }) => line) },
    bestSellers: rowsOf<{ id: number | null; title: string; units: number; revenue: number }>(best).map((row) => ({ id: row.id, title: row.title, units: Number(row.units), revenueCents: Number(row.revenue) })),
    unsold: { count: Number(lines(unsold)[0]?.total ?? 0), products: lines(unsold).map(({ total: _total, ...line }) => line) },
    valueCents: Number(worth?.value ?? 0),
    units: Number(worth?.units ?? 0),
  };
}

export type DropSummary = { productId: number; title: string; dropTime: string; units: number; sold: number; soldOutAfterMs: number | null; customers: number };

/** The last drops that opened: units put on sale, sold, how long the last unit took, customers served. */
export function dashboardDrops(db: Db, now: Date): Promise<DropSummary[]> {
  return keptRead(db, "drops", now.getTime(), () => readDrops(db, now), KEEP_MS);
}

async function readDrops(db: Db, now: Date): Promise<DropSummary[]> {
  const result = await db.execute(sql`
    select p.id as "productId", p.title, p.drop_time as "dropTime", p.stock,
           coalesce(sum(i.quantity) filter (where o.status in ('paid', 'shipped')), 0)::int as sold,
           coalesce(sum(i.quantity) filter (where o.status = 'pending_payment'), 0)::int as held,
           count(distinct coalesce(o.user_id, o.buyer_email_key, o.id::text)) filter (where o.status in ('paid', 'shipped'))::int as customers,
           max(o.paid_at) filter (where o.status in ('paid', 'shipped')) as "lastSale"
    from (
      select p.id, p.title, p.drop_time, p.stock from product_drops d join products p on p.id = d.product_id
      where p.drop_time is not null and p.drop_time <= ${now}
      order by p.drop_time desc limit 5
    ) p
    left join order_items i on i.product_id = p.id
    left join orders o on o.id = i.order_id and o.created_at >= p.drop_time
    group by p.id, p.title, p.drop_time, p.stock
    order by p.drop_time desc`);
  return rowsOf<{ productId: number; title: string; dropTime: Date | string; stock: number; sold: number; held: number; customers: number; lastSale: Date | string | null }>(result).map((row) => {
    const dropTime = new Date(row.dropTime);
    const soldOut = Number(row.stock) <= 0 && Number(row.held) === 0 && row.lastSale !== null;
    return {
      productId: row.productId,
      title: row.title,
      dropTime: dropTime.toISOString(),
      units: Number(row.stock) + Number(row.sold) + Number(row.held),
      sold: Number(row.sold),
      soldOutAfterMs: soldOut ? new Date(row.lastSale!).getTime() - dropTime.getTime() : null,
      customers: Number(row.customers),
    };
  });
}

export type Demand = { count: number; products: { id: number; title: string; waiting: number }[] };

/**
 * « Clients en attente » (issue 56): the products most waited for, by customers who have them on
 * their wish list or a confirmed « Prévenez-moi » alert (each address once), and how many
 * products have someone waiting: the demand before restocking. It groups every waiting address
 * (about 150 ms on PostgreSQL for 70,000 of them), so it is kept like the stock figures; a wish
 * list changes without a catalogue event: the figure may be a minute old.
 */
export function dashboardDemand(db: Db, now: Date): Promise<Demand> {
  return keptRead(db, "demand", now.getTime(), () => readDemand(db), KEEP_MS);
}

async function readDemand(db: Db): Promise<Demand> {
  const result = await db.execute(sql`
    select p.id, p.title, w.waiting, count(*) over ()::int as total
    from (select product_id, count(distinct email)::int as waiting from (${waitingAddresses()}) addresses group by product_id) w
    join products p on p.id = w.product_id
    where p.archived_at is null
    order by w.waiting desc, p.title limit 5`);
  const rows = rowsOf<{ id: number; title: string; waiting: number; total: number }>(result);
  return { count: Number(rows[0]?.total ?? 0), products: rows.map((row) => ({ id: Number(row.id), title: row.title, waiting: Number(row.waiting) })) };
}

/** The site_settings row of the dashboard's own settings. */
export const DASHBOARD_SETTING = "dashboard";
export type DashboardSettings = { lowStockThreshold: number };

export async function getDashboardSettings(db: Db): Promise<DashboardSettings> {
  const [row] = await db.select({ value: siteSettings.value }).from(siteSettings).where(sql`${siteSettings.key} = ${DASHBOARD_SETTING}`);
  const threshold = (row?.value as Partial<DashboardSettings> | undefined)?.lowStockThreshold;
  return { lowStockThreshold: Number.isSafeInteger(threshold) ? threshold! : DEFAULT_LOW_STOCK_THRESHOLD };
}

export async function saveDashboardSettings(db: Db, settings: DashboardSettings, now = new Date()): Promise<void> {
  await db
    .insert(siteSettings)
    .values({ key: DASHBOARD_SETTING, value: settings, updatedAt: now })
    .onConflictDoUpdate({ target: siteSettings.key, set: { value: settings, updatedAt: now } });
}
