import { and, eq, gte, lt, sql } from "drizzle-orm";
import { invoices, orderRefunds, orders, siteSettings } from "~/db/schema";
import type { Db } from "~/db/types";
import { type AccountingPeriod, periodBounds } from "~/domain/accounting-period";
import { type FecAccounts, fecAccountsForm, resolveFecAccounts } from "~/domain/fec-accounts";
import type { FecExportView } from "~/components/admin/fec-export-form";
import { type FecEntry, type FecPayment, STORE_CREDIT_PROVIDER, buildFecEntries, fecSiren } from "~/domain/fec";
import type { LegalIdentity } from "~/domain/shop-identity";
import { receiptsIn, refundsIn } from "./accounting-export.server";
import { fecMarginFigures } from "./margin-vat.server";
import { getShopIdentity } from "./shop-identity.server";

/** The site_settings row of the seller's accounts for the FEC (/admin/exports). */
export const FEC_ACCOUNTS_SETTING = "fec_accounts";

export async function getFecAccounts(db: Db): Promise<FecAccounts> {
  const [row] = await db.select({ value: siteSettings.value }).from(siteSettings).where(eq(siteSettings.key, FEC_ACCOUNTS_SETTING));
  return resolveFecAccounts(row?.value);
}

/** Kept as the form's fields: a field added later falls back to its default (resolveFecAccounts). */
export async function saveFecAccounts(db: Db, accounts: FecAccounts, now = new Date()): Promise<void> {
  const value = fecAccountsForm(accounts);
  await db
    .insert(siteSettings)
    .values({ key: FEC_ACCOUNTS_SETTING, value, updatedAt: now })
    .onConflictDoUpdate({ target: siteSettings.key, set: { value, updatedAt: now } });
}

/**
 * The FEC's entries of a period: the invoices and credit notes issued in it (their snapshots, as
 * issued), and the money that moved in it, selected as the receipts book selects it
 * (accounting-export.server.ts): the payments of sales by paid_at, each refund by its refunded_at.
 */
export async function fecEntriesFor(db: Db, period: AccountingPeriod, accounts: FecAccounts): Promise<FecEntry[]> {
  const { from, to } = periodBounds(period);
  const movement = { orderNumber: orders.number, provider: orders.paymentProvider, business: orders.businessBuyer };
  const [documents, receipts, refunds] = await Promise.all([
    db
      .select({ snapshot: invoices.snapshot, business: orders.businessBuyer, orderId: invoices.orderId })
      .from(invoices)
      .innerJoin(orders, eq(orders.id, invoices.orderId))
      .where(and(gte(invoices.issuedAt, from), lt(invoices.issuedAt, to))),
    db
      .select({ ...movement, at: orders.paidAt, document: invoices.number, amountCents: sql<number>`${orders.totalCents} - ${orders.storeCreditCents}`.mapWith(Number), storeCreditCents: orders.storeCreditCents, reference: orders.paymentReference })
      .from(orders)
      .leftJoin(invoices, and(eq(invoices.orderId, orders.id), eq(invoices.kind, "invoice")))
      .where(receiptsIn(from, to)),
    db
      .select({
        ...movement,
        at: orderRefunds.refundedAt,
        document: orderRefunds.creditNoteNumber,
        amountCents: sql<number>`${orderRefunds.amountCents} - ${orderRefunds.storeCreditCents}`.mapWith(Number),
        storeCreditCents: orderRefunds.storeCreditCents,
        reference: orderRefunds.providerRefundId,
      })
      .from(orderRefunds)
      .innerJoin(orders, eq(orders.id, orderRefunds.orderId))
      .where(refundsIn(from, to)),
  ]);
  // Never null: each row was selected by its date.
  const payments: FecPayment[] = [
    // The card's part (none when store credit paid it all), then the credit's: 4191 debited, 411 credited.
    ...receipts.filter((row) => row.amountCents > 0 || row.storeCreditCents === 0).map(({ storeCreditCents: _, ...row }) => ({ ...row, kind: "payment" as const, at: row.at! })),
    ...receipts
      .filter((row) => row.storeCreditCents > 0)
      .map(({ storeCreditCents, ...row }) => ({ ...row, amountCents: storeCreditCents, provider: STORE_CREDIT_PROVIDER, reference: null, kind: "payment" as const, at: row.at! })),
    // A refund the same way: the card's part, then the part given back as credit (4191 credited).
    ...refunds.filter((row) => row.amountCents > 0 || row.storeCreditCents === 0).map(({ storeCreditCents: _, ...row }) => ({ ...row, kind: "refund" as const, at: row.at! })),
    ...refunds
      .filter((row) => row.storeCreditCents > 0)
      .map(({ storeCreditCents, ...row }) => ({ ...row, amountCents: storeCreditCents, provider: STORE_CREDIT_PROVIDER, reference: null, kind: "refund" as const, at: row.at! })),
  ];
  const margins = await fecMarginFigures(db, period, documents, accounts);
  return buildFecEntries(margins.documents, payments, accounts, margins.entries);
}

/** The FEC section of /admin/exports: the accounts as the form's fields, and whether the file can be named. */
export async function fecExportView(db: Db, legalDefaults: LegalIdentity): Promise<FecExportView> {
  const [{ identity }, accounts] = await Promise.all([getShopIdentity(db, legalDefaults), getFecAccounts(db)]);
  return { accounts: fecAccountsForm(accounts), sirenMissing: fecSiren(identity.siren) === null };
}
