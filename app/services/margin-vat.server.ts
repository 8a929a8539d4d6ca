import { and, asc, eq, gt, gte, inArray, isNotNull, lt, sql } from "drizzle-orm";
import { invoices, orderItemCosts, orderItems, orderRefunds, orders, purchaseLots, siteSettings } from "~/db/schema";
import type { Db } from "~/db/types";
import { type AccountingPeriod, periodBounds } from "~/domain/accounting-period";
import {
  DEFAULT_MARGIN_VAT_MODE,
  type MarginFigures,
  type MarginRefund,
  type MarginVatMode,
  marginByDocument,
  marginVatModeSchema,
  periodMargins,
} from "~/domain/margin-vat";
import { type FecDocument, type FecEntry, periodMarginEntry } from "~/domain/fec";
import type { FecAccounts } from "~/domain/fec-accounts";
import { parisWallClock } from "~/domain/paris-time";
import { STANDARD_VAT_BP } from "~/domain/vat";
import { splitProRata } from "~/domain/vat-allocation";
import { netSegments } from "./margin-costs.server";

/** The site_settings row of the seller's choice (/admin/settings): per sale or per period. */
export const MARGIN_VAT_SETTING = "margin_vat_mode";

export async function getMarginVatMode(db: Db): Promise<MarginVatMode> {
  const [row] = await db.select({ value: siteSettings.value }).from(siteSettings).where(eq(siteSettings.key, MARGIN_VAT_SETTING));
  const parsed = marginVatModeSchema.safeParse(row?.value);
  return parsed.success ? parsed.data.mode : DEFAULT_MARGIN_VAT_MODE;
}

export async function saveMarginVatMode(db: Db, mode: MarginVatMode, now = new Date()): Promise<void> {
  const value = { mode };
  await db
    .insert(siteSettings)
    .values({ key: MARGIN_VAT_SETTING, value, updatedAt: now })
    .onConflictDoUpdate({ target: siteSettings.key, set: { value, updatedAt: now } });
}

/** A document's margin figures (per sale): its margin VAT, and the price of units whose purchase price is unknown. */
export type DocumentMargin = Pick<MarginFigures, "vatCents" | "unknownSaleCents" | "unknownUnits">;

const add = (a: DocumentMargin | undefined, b: MarginFigures): DocumentMargin => ({
  vatCents: (a?.vatCents ?? 0) + b.vatCents,
  unknownSaleCents: (a?.unknownSaleCents ?? 0) + b.unknownSaleCents,
  unknownUnits: (a?.unknownUnits ?? 0) + b.unknownUnits,
});

/**
 * Per sale, the margin figures of every invoice and credit note of these orders, by document
 * number: each margin-scheme line's invoice, then its refunds in the order they were made (what a
 * refund gives back on the margin-scheme goods beyond its lines, a goodwill, is spread over the
 * lines in proportion to what is left of them). Orders under the franchise have no VAT at all.
 */
export async function documentMargins(db: Db, orderIds: readonly string[]): Promise<Map<string, DocumentMargin>> {
  const result = new Map<string, DocumentMargin>();
  if (orderIds.length === 0) return result;
  const [items, costs, refunds, documents] = await Promise.all([
    db
      .select({ id: orderItems.id, orderId: orderItems.orderId, quantity: orderItems.quantity, rateBp: orderItems.vatRateBp, netCents: sql<number>`${orderItems.unitPriceCents} * ${orderItems.quantity} - ${orderItems.discountShareCents}`.mapWith(Number) })
      .from(orderItems)
      .innerJoin(orders, eq(orders.id, orderItems.orderId))
      .where(and(inArray(orderItems.orderId, [...orderIds]), eq(orderItems.vatScheme, "margin"), eq(orders.vatRegime, "normal")))
      .orderBy(asc(orderItems.id)),
    db
      .select({ orderItemId: orderItemCosts.orderItemId, lotId: orderItemCosts.lotId, quantity: orderItemCosts.quantity, unitCostCents: orderItemCosts.unitCostCents })
      .from(orderItemCosts)
      .innerJoin(orderItems, eq(orderItems.id, orderItemCosts.orderItemId))
      // The units as sold: what was taken; a return is the refund's business (marginByDocument).
      .where(and(inArray(orderItems.orderId, [...orderIds]), gt(orderItemCosts.quantity, 0)))
      .orderBy(asc(orderItemCosts.id)),
    db
      .select({ orderId: orderRefunds.orderId, lines: orderRefunds.lines, marginSchemeCents: orderRefunds.marginSchemeCents, creditNote: orderRefunds.creditNoteNumber })
      .from(orderRefunds)
      .where(and(inArray(orderRefunds.orderId, [...orderIds]), eq(orderRefunds.status, "refunded"), isNotNull(orderRefunds.creditNoteNumber)))
      .orderBy(asc(orderRefunds.refundedAt), asc(orderRefunds.seq)),
    db
      .select({ orderId: invoices.orderId, number: invoices.number })
      .from(invoices)
      .where(and(inArray(invoices.orderId, [...orderIds]), eq(invoices.kind, "invoice"))),
  ]);
  for (const orderId of orderIds) {
    const lines = items.filter((item) => item.orderId === orderId);
    const invoice = documents.find((document) => document.orderId === orderId)?.number;
    if (lines.length === 0 || !invoice) continue;
    const orderRefundsList = refunds.filter((refund) => refund.orderId === orderId);
    // Each line's refunds: its own refunded lines, plus its share of the rest of the refund's margin-scheme amount.
    const perLine = new Map<string, MarginRefund[]>(lines.map((line) => [line.id, []]));
    const left = new Map(lines.map((line) => [line.id, line.netCents]));
    for (const refund of orderRefundsList) {
      const own = lines.map((line) => refund.lines.filter((l) => l.orderItemId === line.id).reduce((acc, l) => ({ quantity: acc.quantity + l.quantity, totalCents: acc.totalCents + l.totalCents }), { quantity: 0, totalCents: 0 }));
      const rest = refund.marginSchemeCents - own.reduce((sum, o) => sum + o.totalCents, 0);
      const shares = rest > 0 ? splitProRata(rest, lines.map((line, i) => Math.max(left.get(line.id)! - own[i]!.totalCents, 0))) : lines.map(() => 0);
      lines.forEach((line, i) => {
        const totalCents = own[i]!.totalCents + shares[i]!;
        left.set(line.id, left.get(line.id)! - totalCents);
        perLine.get(line.id)!.push({ quantity: own[i]!.quantity, totalCents });
      });
    }
    for (const line of lines) {
      const segments = netSegments(costs.filter((cost) => cost.orderItemId === line.id));
      const figures = marginByDocument({ netCents: line.netCents, quantity: line.quantity, rateBp: line.rateBp, segments }, perLine.get(line.id)!);
      result.set(invoice, add(result.get(invoice), figures[0]!));
      orderRefundsList.forEach((refund, i) => result.set(refund.creditNote!, add(result.get(refund.creditNote!), figures[i + 1]!)));
    }
  }
  return result;
}

/** The orders with an invoice or a credit note issued in [from, to). */
export async function ordersWithDocumentsIn(db: Db, from: Date, to: Date): Promise<string[]> {
  const rows = await db
    .selectDistinct({ orderId: invoices.orderId })
    .from(invoices)
    .where(and(gte(invoices.issuedAt, from), lt(invoices.issuedAt, to)));
  return rows.map((row) => row.orderId);
}

/** A month of globalisation: its margin-scheme sales (TTC less credit notes), its purchases, and what follows. */
export type MonthMargin = { year: number; month: number; salesCents: number; purchasesCents: number; baseCents: number; vatCents: number; carriedOutCents: number };

const monthKey = (at: Date) => {
  const { year, month } = parisWallClock(at);
  return year * 12 + (month - 1);
};

/**
 * Per period (globalisation, art. 297 A II): each Paris month's margin-scheme sales as invoiced
 * (credit notes deducted) less the purchases received that month (the lots), an excess of
 * purchases carried to the next month, from the shop's first such month to the period's end; the
 * months of the period are returned. At 20 %, the rate of the shop's second-hand cards.
 */
export async function periodMarginMonths(db: Db, period: AccountingPeriod): Promise<MonthMargin[]> {
  const { from, to } = periodBounds(period);
  const [sales, purchases] = await Promise.all([
    db
      .select({ at: invoices.issuedAt, cents: sql<number>`(${invoices.snapshot}->'totals'->>'marginSchemeCents')::int`.mapWith(Number) })
      .from(invoices)
      .where(and(lt(invoices.issuedAt, to), sql`${invoices.snapshot}->>'vatRegime' = 'normal'`, sql`(${invoices.snapshot}->'totals'->>'marginSchemeCents')::int <> 0`)),
    db
      .select({ at: purchaseLots.receivedAt, cents: sql<number>`${purchaseLots.quantity} * ${purchaseLots.unitCostCents}`.mapWith(Number) })
      .from(purchaseLots)
      .where(lt(purchaseLots.receivedAt, to)),
  ]);
  const first = Math.min(monthKey(from), ...sales.map((s) => monthKey(s.at)), ...purchases.map((p) => monthKey(p.at)));
  const last = monthKey(new Date(to.getTime() - 1));
  const months = Array.from({ length: last - first + 1 }, (_, i) => ({ key: first + i, salesCents: 0, purchasesCents: 0 }));
  for (const s of sales) months[monthKey(s.at) - first]!.salesCents += s.cents;
  for (const p of purchases) months[monthKey(p.at) - first]!.purchasesCents += p.cents;
  const margins = periodMargins(months, STANDARD_VAT_BP);
  const fromKey = monthKey(from);
  return months
    .map((m, i) => ({ year: Math.floor(m.key / 12), month: (m.key % 12) + 1, salesCents: m.salesCents, purchasesCents: m.purchasesCents, ...margins[i]! }))
    .filter((m) => m.year * 12 + m.month - 1 >= fromKey);
}

/**
 * The FEC's margin VAT (fec.server.ts): per sale, each document with its own figures; per period,
 * the documents whole and one OD entry per month of the period.
 */
export async function fecMarginFigures<T extends FecDocument & { orderId: string }>(
  db: Db,
  period: AccountingPeriod,
  documents: readonly T[],
  accounts: FecAccounts,
): Promise<{ documents: FecDocument[]; entries: Omit<FecEntry, "number">[] }> {
  if ((await getMarginVatMode(db)) === "per_period") {
    const months = await periodMarginMonths(db, period);
    return {
      documents: documents.map((document) => ({ ...document, margin: "period" as const })),
      entries: months.flatMap((m) => periodMarginEntry({ ...m, at: new Date(periodBounds({ year: m.year, month: m.month }).to.getTime() - 1) }, accounts) ?? []),
    };
  }
  const margins = await documentMargins(db, [...new Set(documents.map((document) => document.orderId))]);
  return { documents: documents.map((document) => ({ ...document, margin: margins.get(document.snapshot.number) })), entries: [] };
}

export type MarginVatSummary = { mode: MarginVatMode; vatCents: number; unknownUnits: number };

/**
 * The margin VAT due for a period, as the seller computes it, and the units sold in it (orders
 * paid in it, less those put back) whose purchase price is unknown.
 */
export async function marginVatSummary(db: Db, period: AccountingPeriod): Promise<MarginVatSummary> {
  const { from, to } = periodBounds(period);
  const mode = await getMarginVatMode(db);
  let vatCents = 0;
  if (mode === "per_sale") {
    const margins = await documentMargins(db, await ordersWithDocumentsIn(db, from, to));
    const inPeriod = await db
      .select({ number: invoices.number })
      .from(invoices)
      .where(and(gte(invoices.issuedAt, from), lt(invoices.issuedAt, to)));
    vatCents = inPeriod.reduce((sum, { number }) => sum + (margins.get(number)?.vatCents ?? 0), 0);
  } else {
    vatCents = (await periodMarginMonths(db, period)).reduce((sum, m) => sum + m.vatCents, 0);
  }
  const [unknown] = await db
    .select({ units: sql<number>`coalesce(sum(${orderItemCosts.quantity}), 0)`.mapWith(Number) })
    .from(orderItemCosts)
    .innerJoin(orderItems, eq(orderItems.id, orderItemCosts.orderItemId))
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(and(sql`${orderItemCosts.unitCostCents} is null`, gte(orders.paidAt, from), lt(orders.paidAt, to)));
  return { mode, vatCents, unknownUnits: unknown?.units ?? 0 };
}
