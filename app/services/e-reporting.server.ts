import { and, eq, gte, lt, sql } from "drizzle-orm";
import { invoices, orders } from "~/db/schema";
import type { Db } from "~/db/types";
import { type AccountingPeriod, periodBounds } from "~/domain/accounting-period";
import { type EReportingDay, type EReportingRange, dailyAggregates, eReportingCsv, eReportingJson, rangeBounds } from "~/domain/e-reporting";

/**
 * The e-reporting of consumer sales (domain/e-reporting.ts) read from the invoices and credit
 * notes issued in [from, to): their frozen snapshots, never the orders as they are now, so the
 * figures are the documents' to the cent. The order's `business_buyer` is read beside the
 * snapshot: an "Achat professionnel" is e-invoiced, never a consumer sale.
 */
export async function eReportingDays(db: Db, { from, to }: { from: Date; to: Date }): Promise<EReportingDay[]> {
  const documents = await db
    .select({ kind: invoices.kind, issuedAt: invoices.issuedAt, snapshot: invoices.snapshot, businessOrder: sql<boolean>`coalesce(jsonb_typeof(${orders.businessBuyer}) = 'object', false)` })
    .from(invoices)
    .innerJoin(orders, eq(orders.id, invoices.orderId))
    .where(and(gte(invoices.issuedAt, from), lt(invoices.issuedAt, to)));
  return dailyAggregates(documents);
}

export async function eReportingCsvFor(db: Db, period: AccountingPeriod): Promise<string> {
  return eReportingCsv(await eReportingDays(db, periodBounds(period)));
}

export async function eReportingJsonFor(db: Db, range: EReportingRange): Promise<ReturnType<typeof eReportingJson>> {
  return eReportingJson(range, await eReportingDays(db, rangeBounds(range)));
}
