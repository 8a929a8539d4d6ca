import { and, eq, gte, isNotNull, lt, type SQL, sql } from "drizzle-orm";
import { invoices, orderItems, orderRefunds, orders } from "~/db/schema";
import type { Db } from "~/db/types";
import { type AccountingPeriod, periodBounds } from "~/domain/accounting-period";
import { type LedgerEntry, type LedgerSummary, ledgerCsv, summarizeLedger } from "~/domain/accounting-export";
import { paymentMethodWithCredit } from "~/domain/invoice-snapshot";
import type { VatRegime } from "~/domain/vat";
import { documentMargins, getMarginVatMode, periodMarginMonths } from "./margin-vat.server";

/**
 * The receipts book of a period (domain/accounting-export.ts), read from the orders and their
 * refunds: a payment is dated by paid_at, a refund (whole or partial: order_refunds) by its own refunded_at, each selected by Paris bounds computed from the
 * time-zone database (domain/accounting-period.ts). Only sales count: a late payment refunded
 * before the order was ever paid for good (no paid_at, no invoice) came in and went back
 * without a sale, and shows on neither side.
 */

/**
 * The receipts book's two selections, for the orders table itself (not an alias): the payments
 * received in [from, to), and the refunds of sales made in [from, to). The dashboard counts by the
 * same conditions (services/dashboard.server.ts), so its "Remboursements" are this book's refund
 * lines: a late payment refunded without ever being a sale (no paid_at) is in neither.
 */
export function receiptsIn(from: Date, to: Date): SQL {
  return and(gte(orders.paidAt, from), lt(orders.paidAt, to))!;
}

/** Each refund (order_refunds joined to its order), whole or partial, made in [from, to) on a sale. */
export function refundsIn(from: Date, to: Date): SQL {
  return and(eq(orderRefunds.status, "refunded"), gte(orderRefunds.refundedAt, from), lt(orderRefunds.refundedAt, to), isNotNull(orders.paidAt))!;
}

/** Goods sold under the margin scheme, TTC after their share of the discount; none under the franchise. */
const marginSchemeCents = sql<number>`case when ${orders.vatRegime} = 'franchise' then 0 else coalesce((
  select sum(${orderItems.unitPriceCents} * ${orderItems.quantity} - ${orderItems.discountShareCents})
  from ${orderItems} where ${orderItems.orderId} = ${orders.id} and ${orderItems.vatScheme} = 'margin'), 0) end`.mapWith(Number);

const columns = {
  orderId: orders.id,
  orderNumber: orders.number,
  customer: sql<string>`coalesce(${orders.customerName}, ${orders.shippingAddress}->>'fullName', ${orders.customerEmail}, '')`,
  totalCents: orders.totalCents,
  vatRegime: orders.vatRegime,
  vatBreakdown: orders.vatBreakdown,
  marginSchemeCents,
  provider: orders.paymentProvider,
  document: invoices.number,
  storeCreditCents: orders.storeCreditCents,
};

/** A selected row: `columns`, with the moment and the provider's reference of the receipt or the refund. */
type Row = {
  orderId: string;
  orderNumber: string;
  customer: string;
  totalCents: number;
  vatRegime: VatRegime;
  vatBreakdown: { rateBp: number; vatCents: number }[];
  marginSchemeCents: number;
  provider: string;
  document: string | null;
  storeCreditCents: number;
  at: Date | null;
  reference: string | null;
};

/** A line of the book, with its order (to find its margin VAT). */
type OrderEntry = LedgerEntry & { orderId: string };

function entryOf(row: Row, kind: LedgerEntry["kind"]): OrderEntry {
  const sign = kind === "refund" ? -1 : 1;
  return {
    kind,
    orderId: row.orderId,
    // Never null: the query selected the row by it.
    at: row.at!,
    document: row.document ?? row.orderNumber,
    orderNumber: row.orderNumber,
    customer: row.customer,
    totalCents: sign * row.totalCents,
    vat: row.vatRegime === "franchise" ? [] : row.vatBreakdown.map((vat) => ({ rateBp: vat.rateBp, vatCents: sign * vat.vatCents })),
    marginSchemeCents: sign * row.marginSchemeCents,
    // A refund goes back to each means the order was paid by (decision 055): its credit part as credit.
    paymentMethod: paymentMethodWithCredit(row.provider, row),
    storeCreditCents: sign * row.storeCreditCents,
    reference: row.reference ?? "",
  };
}

export async function ledgerEntries(db: Db, period: AccountingPeriod): Promise<OrderEntry[]> {
  const { from, to } = periodBounds(period);
  const [receipts, refunds] = await Promise.all([
    db
      .select({ ...columns, at: orders.paidAt, reference: orders.paymentReference })
      .from(orders)
      .leftJoin(invoices, and(eq(invoices.orderId, orders.id), eq(invoices.kind, "invoice")))
      .where(receiptsIn(from, to)),
    // Each refund with its own amount, VAT by rate and credit note (a partial refund is one line).
    db
      .select({
        ...columns,
        totalCents: orderRefunds.amountCents,
        vatBreakdown: orderRefunds.vatBreakdown,
        marginSchemeCents: sql<number>`case when ${orders.vatRegime} = 'franchise' then 0 else ${orderRefunds.marginSchemeCents} end`.mapWith(Number),
        document: orderRefunds.creditNoteNumber,
        storeCreditCents: orderRefunds.storeCreditCents,
        at: orderRefunds.refundedAt,
        reference: orderRefunds.providerRefundId,
      })
      .from(orderRefunds)
      .innerJoin(orders, eq(orders.id, orderRefunds.orderId))
      .where(refundsIn(from, to)),
  ]);
  return [...receipts.map((row) => entryOf(row, "receipt")), ...refunds.map((row) => entryOf(row, "refund"))];
}

export async function ledgerSummary(db: Db, period: AccountingPeriod): Promise<LedgerSummary> {
  return summarizeLedger(await ledgerEntries(db, period));
}

/**
 * The CSV, with the VAT due on the margin as the seller computes it (decision 057): per sale each
 * invoice's and credit note's own; per period one line for each month with margin-scheme sales or
 * purchases, as the FEC's OD entries.
 */
export async function ledgerCsvFor(db: Db, period: AccountingPeriod): Promise<string> {
  const entries = await ledgerEntries(db, period);
  if ((await getMarginVatMode(db)) === "per_period") {
    const months = await periodMarginMonths(db, period);
    return ledgerCsv(entries, months.filter((m) => m.salesCents !== 0 || m.purchasesCents !== 0));
  }
  const margins = await documentMargins(db, [...new Set(entries.map((entry) => entry.orderId))]);
  return ledgerCsv(entries.map((entry) => ({ ...entry, marginVat: margins.get(entry.document) ?? { vatCents: 0, unknownSaleCents: 0 } })));
}
