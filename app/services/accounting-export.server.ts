import { and, eq, gte, isNotNull, lt, type SQL, sql } from "drizzle-orm";
import { invoices, orderItems, orderRefunds, orders } from "~/db/schema";
import type { Db } from "~/db/types";
import { type AccountingPeriod, periodBounds } from "~/domain/accounting-period";
import { type LedgerEntry, type LedgerSummary, ledgerCsv, summarizeLedger } from "~/domain/accounting-export";
import { paymentMethodOf, paymentMethodWithCredit } from "~/domain/invoice-snapshot";
import type { VatRegime } from "~/domain/vat";

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

function entryOf(row: Row, kind: LedgerEntry["kind"]): LedgerEntry {
  const sign = kind === "refund" ? -1 : 1;
  return {
    kind,
    // Never null: the query selected the row by it.
    at: row.at!,
    document: row.document ?? row.orderNumber,
    orderNumber: row.orderNumber,
    customer: row.customer,
    totalCents: sign * row.totalCents,
    vat: row.vatRegime === "franchise" ? [] : row.vatBreakdown.map((vat) => ({ rateBp: vat.rateBp, vatCents: sign * vat.vatCents })),
    marginSchemeCents: sign * row.marginSchemeCents,
    paymentMethod: kind === "receipt" ? paymentMethodWithCredit(row.provider, row) : paymentMethodOf(row.provider),
    storeCreditCents: sign * row.storeCreditCents,
    reference: row.reference ?? "",
  };
}

export async function ledgerEntries(db: Db, period: AccountingPeriod): Promise<LedgerEntry[]> {
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
        // Refunds go back to the card (refunds as credit: not yet, decision 055).
        storeCreditCents: sql<number>`0`.mapWith(Number),
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

export async function ledgerCsvFor(db: Db, period: AccountingPeriod): Promise<string> {
  return ledgerCsv(await ledgerEntries(db, period));
}
