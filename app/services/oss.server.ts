import { and, eq, gt, gte, isNotNull, lt, ne, sql } from "drizzle-orm";
import { orderRefunds, orders } from "~/db/schema";
import type { Db } from "~/db/types";
import { destinationRates } from "~/domain/eu-vat-rates";
import { type OssTotals, destinationRateBp, isOtherMemberState, taxedAtDestination } from "~/domain/oss";
import type { VatRateBp, VatScheme } from "~/domain/vat";
import { allocateVat, type VatAllocation } from "~/domain/vat-allocation";
import { type OssQuarter, type OssReturnRow, ossReturn, quarterBounds } from "~/domain/oss-return";
import { parisWallClock, parisWallTimeToUtc } from "~/domain/paris-time";
import { getBillingSettings } from "./billing-settings.server";

/**
 * The EU distance-sales counter (domain/oss.ts): the sales excluding VAT sent to another member
 * state, by Paris calendar year, net of their refunds. A sale counts in its payment's year, a
 * refund in its own. Excluding VAT is the bases the order stored by rate (goods after discount,
 * delivery and the parcel option; margin-scheme goods are outside the rules); under the franchise
 * an order has no VAT, so its total. An exempt intra-EU supply to a business (docs/decisions/054)
 * is no distance sale and does not count.
 */

/** A 32-bit key for the transaction lock that serialises the checkouts to other member states. */
const OSS_LOCK_KEY = 0x055_2026;

const orderExclVat = sql<number>`case when ${orders.vatRegime} = 'franchise' then ${orders.totalCents}
  else coalesce((select sum((row->>'baseCents')::int) from jsonb_array_elements(${orders.vatBreakdown}) as row), 0) end`;
const refundExclVat = sql<number>`case when ${orders.vatRegime} = 'franchise' then ${orderRefunds.amountCents}
  else coalesce((select sum((row->>'baseCents')::int) from jsonb_array_elements(${orderRefunds.vatBreakdown}) as row), 0) end`;

/** The orders that are distance sales: delivered to another member state, and not an exempt supply to a business there. */
const distanceSale = and(ne(orders.shippingCountry, "FR"), ne(orders.vatRegime, "intra_eu_exempt"));

function yearBounds(year: number): { from: Date; to: Date } {
  return { from: parisWallTimeToUtc(year, 1, 1, 0, 0)!, to: parisWallTimeToUtc(year + 1, 1, 1, 0, 0)! };
}

/** The distance sales of one Paris calendar year, excluding VAT, net of the refunds made that year. */
export async function distanceSalesOfYear(db: Db, year: number): Promise<number> {
  const { from, to } = yearBounds(year);
  const [sales] = await db
    .select({ cents: sql<number>`coalesce(sum(${orderExclVat}), 0)`.mapWith(Number) })
    .from(orders)
    .where(and(distanceSale, gte(orders.paidAt, from), lt(orders.paidAt, to)));
  const [refunds] = await db
    .select({ cents: sql<number>`coalesce(sum(${refundExclVat}), 0)`.mapWith(Number) })
    .from(orderRefunds)
    .innerJoin(orders, eq(orders.id, orderRefunds.orderId))
    .where(and(distanceSale, isNotNull(orders.paidAt), eq(orderRefunds.status, "refunded"), gte(orderRefunds.refundedAt, from), lt(orderRefunds.refundedAt, to)));
  return sales!.cents - refunds!.cents;
}

/** The dashboard's counter: this year's and last year's distance sales, and whether the buyer's country's VAT now applies. */
export type OssCounter = OssTotals & { year: number; optedIn: boolean; destinationVat: boolean };

export async function ossCounter(db: Db, now: Date): Promise<OssCounter> {
  const { year } = parisWallClock(now);
  const [currentYearCents, previousYearCents, { ossOptIn }] = await Promise.all([distanceSalesOfYear(db, year), distanceSalesOfYear(db, year - 1), getBillingSettings(db)]);
  const totals = { currentYearCents, previousYearCents };
  return { ...totals, year, optedIn: ossOptIn, destinationVat: taxedAtDestination(totals, 0, ossOptIn) };
}

/**
 * Whether a new order to another member state, of `saleExclVatCents` excluding VAT at French
 * rates, is taxed in the buyer's country. Called inside the checkout's transaction: it first takes
 * a transaction lock, so two checkouts to other member states decide one after the other, and the
 * second counts the first. Orders awaiting payment (still held) count with the paid ones: two
 * orders crossing the threshold at once cannot both be taxed in France. One that ends unpaid
 * stops counting. docs/decisions/046.
 */
export async function decideDestinationVat(tx: Db, saleExclVatCents: number, now: Date): Promise<boolean> {
  await tx.execute(sql`select pg_advisory_xact_lock(${OSS_LOCK_KEY})`);
  const { ossOptIn } = await getBillingSettings(tx);
  if (ossOptIn) return true;
  const { year } = parisWallClock(now);
  const [currentPaid, previousYearCents] = await Promise.all([distanceSalesOfYear(tx, year), distanceSalesOfYear(tx, year - 1)]);
  const [held] = await tx
    .select({ cents: sql<number>`coalesce(sum(${orderExclVat}), 0)`.mapWith(Number) })
    .from(orders)
    .where(and(distanceSale, eq(orders.status, "pending_payment"), gt(orders.reservedUntil, now)));
  return taxedAtDestination({ currentYearCents: currentPaid + held!.cents, previousYearCents }, saleExclVatCents, false);
}

type PricedLine = { unitPriceCents: number; quantity: number; vatRateBp: VatRateBp; vatScheme: VatScheme };

/**
 * An order's VAT at checkout (docs/decisions/032 and 046): at French rates; for a sale to another
 * member state taxed there (`decideDestinationVat`), at that country's rates on the same TTC
 * prices (the buyer pays what France's prices show; the split between price and VAT changes).
 * The lines come back with the rates they carry, the delivery and the parcel option follow them.
 */
export async function orderVat<Line extends PricedLine>(
  tx: Db,
  lines: readonly Line[],
  amounts: { discountCents: number; chargesCents: number },
  country: string,
  now: Date,
): Promise<{ vatCountry: string; lines: Line[]; vat: VatAllocation; franchise: boolean }> {
  const { vatFranchise } = await getBillingSettings(tx);
  const allocate = (rated: readonly Line[]) =>
    allocateVat(
      rated.map((line) => ({ totalCents: line.unitPriceCents * line.quantity, vatRateBp: line.vatRateBp, vatScheme: line.vatScheme })),
      amounts.discountCents,
      amounts.chargesCents,
      vatFranchise,
    );
  const french = allocate(lines);
  const rates = isOtherMemberState(country) && !vatFranchise ? destinationRates(country, now) : null;
  const frenchExclVat = french.breakdown.reduce((sum, row) => sum + row.baseCents, 0);
  if (!rates || !(await decideDestinationVat(tx, frenchExclVat, now))) return { vatCountry: "FR", lines: [...lines], vat: french, franchise: vatFranchise };
  const rated = lines.map((line) => ({ ...line, vatRateBp: destinationRateBp(line.vatRateBp, line.vatScheme, rates) }));
  return { vatCountry: country, lines: rated, vat: allocate(rated), franchise: vatFranchise };
}

/**
 * The OSS return of a quarter (domain/oss-return.ts): the orders taxed in another member state
 * paid in the quarter, less the refunds of such orders made in it (their credit notes' VAT by rate).
 */
export async function ossReturnOf(db: Db, quarter: OssQuarter): Promise<OssReturnRow[]> {
  const { from, to } = quarterBounds(quarter);
  const [sales, refunds] = await Promise.all([
    db
      .select({ country: orders.vatCountry, rows: orders.vatBreakdown })
      .from(orders)
      .where(and(ne(orders.vatCountry, "FR"), gte(orders.paidAt, from), lt(orders.paidAt, to))),
    db
      .select({ country: orders.vatCountry, rows: orderRefunds.vatBreakdown })
      .from(orderRefunds)
      .innerJoin(orders, eq(orders.id, orderRefunds.orderId))
      .where(and(ne(orders.vatCountry, "FR"), isNotNull(orders.paidAt), eq(orderRefunds.status, "refunded"), gte(orderRefunds.refundedAt, from), lt(orderRefunds.refundedAt, to))),
  ]);
  return ossReturn([...sales.map((sale) => ({ ...sale, sign: 1 as const })), ...refunds.map((refund) => ({ ...refund, sign: -1 as const }))]);
}
