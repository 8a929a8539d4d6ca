import { and, asc, count, eq, isNull, ne, sql } from "drizzle-orm";
import { documentSequences, invoices, orderItems, orderRefunds, orders, type SequenceKind } from "~/db/schema";
import type { Db, Tx } from "~/db/types";
import { documentNumber } from "~/domain/invoice";
import { buildRefundCreditNote } from "~/domain/credit-note-snapshot";
import { buildInvoiceSnapshot } from "~/domain/invoice-snapshot";
import { isBusinessDocument } from "~/domain/facturx-invoice";
import { parisWallClock } from "~/domain/paris-time";
import { EMPTY_IDENTITY, type LegalIdentity } from "~/domain/shop-identity";
import { facturXml } from "./facturx.server";
import { renderInvoicePdf } from "./invoice-pdf.server";
import { getShopIdentity } from "./shop-identity.server";

/**
 * The seller's identity as invoices and confirmations print them: what was saved at
 * /admin/settings over the configured first values; while the seller has not given a name yet,
 * the shop's (a document never names nobody). No configured e-mail stands in for one the
 * seller has not given (issue 52): /legal says it is missing, documents leave it out.
 */
export async function sellerIdentity(db: Db | Tx, configured: { legal?: LegalIdentity; shop: { name: string } }): Promise<LegalIdentity> {
  const { identity } = await getShopIdentity(db, configured.legal ?? EMPTY_IDENTITY);
  return { ...identity, companyName: identity.companyName || configured.shop.name };
}

/**
 * The next number of a kind of document and its date, in one statement inside the caller's
 * transaction: the row lock orders concurrent issuers (two instances on one PostgreSQL included)
 * and a rollback gives the number back, so the sequence has no gap and no duplicate; the date is
 * never before the previous document's, so numbers and dates run in the same order even when a
 * transaction that began first got its number second (docs/decisions/032).
 */
export async function nextNumber(tx: Db | Tx, kind: SequenceKind, now: Date): Promise<{ sequence: number; issuedAt: Date }> {
  const [row] = await tx
    .update(documentSequences)
    .set({
      lastValue: sql`${documentSequences.lastValue} + 1`,
      lastIssuedAt: sql`greatest(${documentSequences.lastIssuedAt}, ${now.toISOString()}::timestamptz)`,
    })
    .where(eq(documentSequences.kind, kind))
    .returning({ sequence: documentSequences.lastValue, issuedAt: documentSequences.lastIssuedAt });
  if (!row?.issuedAt) throw new Error(`no document sequence for ${kind}`);
  return { sequence: row.sequence, issuedAt: row.issuedAt };
}

async function sourceOf(tx: Db | Tx, orderId: string, seller: LegalIdentity) {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId));
  if (!order) throw new Error(`order ${orderId} not found`);
  const lines = await tx
    .select({ name: orderItems.name, quantity: orderItems.quantity, unitPriceCents: orderItems.unitPriceCents, discountShareCents: orderItems.discountShareCents, vatCents: orderItems.vatCents, vatRateBp: orderItems.vatRateBp, vatScheme: orderItems.vatScheme, preorderReleaseOn: orderItems.preorderReleaseOn, preorderDeliveryOn: orderItems.preorderDeliveryOn })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .orderBy(asc(orderItems.name));
  return { order, lines, seller };
}

/**
 * Issues the invoice of an order that has just been paid, in the transaction that marks it paid:
 * its number, then its frozen content. Once per order (a unique key on order and kind).
 */
export async function issueInvoice(tx: Db | Tx, orderId: string, seller: LegalIdentity, now: Date): Promise<{ id: string; number: string }> {
  const source = await sourceOf(tx, orderId, seller);
  const { sequence, issuedAt } = await nextNumber(tx, "invoice", now);
  const number = documentNumber("invoice", parisWallClock(issuedAt).year, sequence);
  const snapshot = buildInvoiceSnapshot(source, { kind: "invoice", number, issuedAt });
  const [row] = await tx
    .insert(invoices)
    .values({ kind: "invoice", sequence, number, orderId, issuedAt, totalCents: snapshot.totals.inclVatCents, snapshot })
    .returning({ id: invoices.id, number: invoices.number });
  return row!;
}

/**
 * The credit note of a refund, in the transaction that records it: none when the order has no
 * invoice (a late payment refunded before it was paid for good). A refund of the whole order with
 * none before it cancels the invoice (the whole credit note, as before partial refunds); any other
 * lists what it gave back (a partial credit note). Numbers come from the credit notes' own
 * gap-free sequence either way.
 */
export async function issueRefundCreditNote(tx: Db | Tx, refund: typeof orderRefunds.$inferSelect, seller: LegalIdentity, now: Date): Promise<{ id: string; number: string } | null> {
  const [invoice] = await tx.select({ number: invoices.number }).from(invoices).where(and(eq(invoices.orderId, refund.orderId), eq(invoices.kind, "invoice")));
  if (!invoice) return null;
  const [{ others } = { others: 0 }] = await tx
    .select({ others: count() })
    .from(orderRefunds)
    .where(and(eq(orderRefunds.orderId, refund.orderId), ne(orderRefunds.id, refund.id)));
  const source = await sourceOf(tx, refund.orderId, seller);
  const { sequence, issuedAt } = await nextNumber(tx, "credit_note", now);
  const number = documentNumber("credit_note", parisWallClock(issuedAt).year, sequence);
  const snapshot =
    refund.closesOrder && others === 0
      ? buildInvoiceSnapshot(source, { kind: "credit_note", number, issuedAt, cancelsInvoice: invoice.number })
      : buildRefundCreditNote(
          source,
          {
            amountCents: refund.amountCents,
            lines: refund.lines,
            shippingParts: refund.parts.shipping,
            insuranceParts: refund.parts.insurance,
            adjustment: refund.adjustmentKind ? { kind: refund.adjustmentKind, cents: refund.adjustmentCents, reason: refund.reason ?? "", parts: refund.parts.adjustment } : null,
            vatBreakdown: refund.vatBreakdown,
            marginSchemeCents: refund.marginSchemeCents,
          },
          { number, issuedAt, invoiceNumber: invoice.number },
        );
  const [row] = await tx
    .insert(invoices)
    .values({ kind: "credit_note", sequence, number, orderId: refund.orderId, issuedAt, totalCents: snapshot.totals.inclVatCents, snapshot })
    .returning({ id: invoices.id, number: invoices.number });
  return row!;
}

/**
 * The PDF of a document, by number, for the order it belongs to: made once from the frozen
 * snapshot and stored (the first reader writes it; a second one at the same time keeps the first).
 * A business buyer's is a Factur-X, its EN 16931 XML embedded (docs/decisions/051).
 */
export async function documentPdf(db: Db, orderId: string, number: string): Promise<{ number: string; pdf: Uint8Array } | null> {
  const [row] = await db.select({ id: invoices.id, pdf: invoices.pdf, snapshot: invoices.snapshot }).from(invoices).where(and(eq(invoices.orderId, orderId), eq(invoices.number, number)));
  if (!row) return null;
  if (row.pdf) return { number, pdf: row.pdf };
  const pdf = await renderInvoicePdf(row.snapshot, isBusinessDocument(row.snapshot) ? { xml: await facturXml(row.snapshot) } : undefined);
  const [stored] = await db.update(invoices).set({ pdf }).where(and(eq(invoices.id, row.id), isNull(invoices.pdf))).returning({ pdf: invoices.pdf });
  if (stored?.pdf) return { number, pdf: stored.pdf };
  const [kept] = await db.select({ pdf: invoices.pdf }).from(invoices).where(eq(invoices.id, row.id));
  return { number, pdf: kept?.pdf ?? pdf };
}
