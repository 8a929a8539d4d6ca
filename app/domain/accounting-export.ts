import { periodBounds, periodLabel } from "./accounting-period";
import { serializeCsv, toSpreadsheetText } from "./catalog-csv";
import { centsToFrenchDecimal } from "./money";
import { formatParisShortDate } from "./paris-time";
import { vatRateText } from "./product-form";

/**
 * The receipts book (livre des recettes) of a period, as a micro-entrepreneur must keep it and an
 * accountant imports it: one line per payment received, one negative line per refund, in the
 * order they happened. Amounts are signed integer cents.
 */
export type LedgerEntry = {
  kind: "receipt" | "refund";
  /** When the money came in (paid_at) or went back (refunded_at). */
  at: Date;
  /** The invoice or credit note, or the order's number when it has none (orders from before invoices). */
  document: string;
  orderNumber: string;
  customer: string;
  totalCents: number;
  /** VAT by rate, in basis points; empty under the franchise en base. */
  vat: { rateBp: number; vatCents: number }[];
  /** Goods sold under the margin scheme (TTC): no VAT shown for them (CGI art. 297 A). */
  marginSchemeCents: number;
  paymentMethod: string;
  /** Of the amount, what the customer's store credit paid (issue 54): a means of payment, the amount stays the sale's. */
  storeCreditCents?: number;
  /** The provider's payment id, or its refund id on a refund line. */
  reference: string;
  /**
   * Per sale (decision 057): the VAT due on the document's margin-scheme margin, and the price of
   * its units whose purchase price is unknown (no margin VAT computed for them). Absent per period.
   */
  marginVat?: { vatCents: number; unknownSaleCents: number };
};

/** Per period (globalisation, art. 297 A II): a month's margin VAT, written on a line of its own. */
export type MarginVatMonthLine = { year: number; month: number; vatCents: number };

export type LedgerSummary = {
  receipts: number;
  refunds: number;
  totalCents: number;
  exclVatCents: number;
  /** Every rate present in the period, highest first. */
  vat: { rateBp: number; vatCents: number }[];
  marginSchemeCents: number;
};

const vatOf = (entry: LedgerEntry) => entry.vat.reduce((sum, row) => sum + row.vatCents, 0);

/** Chronological, then by document number for payments at the same instant. */
export function sortLedger(entries: readonly LedgerEntry[]): LedgerEntry[] {
  return [...entries].sort((a, b) => a.at.getTime() - b.at.getTime() || a.document.localeCompare(b.document));
}

export function summarizeLedger(entries: readonly LedgerEntry[]): LedgerSummary {
  const byRate = new Map<number, number>();
  for (const entry of entries) for (const row of entry.vat) byRate.set(row.rateBp, (byRate.get(row.rateBp) ?? 0) + row.vatCents);
  const totalCents = entries.reduce((sum, entry) => sum + entry.totalCents, 0);
  const vat = [...byRate].sort((a, b) => b[0] - a[0]).map(([rateBp, vatCents]) => ({ rateBp, vatCents }));
  return {
    receipts: entries.filter((entry) => entry.kind === "receipt").length,
    refunds: entries.filter((entry) => entry.kind === "refund").length,
    totalCents,
    exclVatCents: totalCents - vat.reduce((sum, row) => sum + row.vatCents, 0),
    vat,
    marginSchemeCents: entries.reduce((sum, entry) => sum + entry.marginSchemeCents, 0),
  };
}

/**
 * "1234,50", "-12,34": a decimal comma, no thousands separator, as French spreadsheets read a
 * number. Never neutralised: it is made here from an integer, and a leading minus must stay a
 * sign, not become text.
 */
export function csvAmount(cents: number): string {
  return centsToFrenchDecimal(cents);
}

/**
 * The CSV (UTF-8 with BOM, semicolons, CRLF: what French Excel opens as is). One "TVA x %" column
 * per rate present in the period; the margin-scheme column and its margin VAT only when the period
 * has such sales (or, per period, purchases): per sale each line's own, per period one line a month
 * (`marginVatMonths`). Text cells (customer, numbers, references) go through the catalogue export's formula
 * neutralisation: a customer named "=HYPERLINK(…)" does not run on the accountant's computer.
 */
export function ledgerCsv(entries: readonly LedgerEntry[], marginVatMonths: readonly MarginVatMonthLine[] = []): string {
  const sorted = sortLedger(entries);
  const rates = summarizeLedger(sorted).vat.map((row) => row.rateBp);
  const withMargin = sorted.some((entry) => entry.marginSchemeCents !== 0);
  const withMarginVat = withMargin || marginVatMonths.length > 0;
  const withUnknownCost = sorted.some((entry) => (entry.marginVat?.unknownSaleCents ?? 0) !== 0);
  const withCredit = sorted.some((entry) => (entry.storeCreditCents ?? 0) !== 0);
  const header = [
    "Date",
    "Pièce",
    "Commande",
    "Client",
    "Montant TTC",
    "Montant HT",
    ...rates.map((rate) => `TVA ${vatRateText(rate)} %`),
    ...(withMargin ? ["Biens d'occasion, régime de la marge (TTC)"] : []),
    ...(withMarginVat ? ["TVA sur la marge"] : []),
    ...(withUnknownCost ? ["Dont prix d'achat inconnu, TVA sur la marge à calculer (TTC)"] : []),
    "Moyen de paiement",
    ...(withCredit ? ["Dont payé par avoir"] : []),
    "Référence du paiement",
  ];
  const rows = sorted.map((entry) => [
    formatParisShortDate(entry.at),
    toSpreadsheetText(entry.document),
    toSpreadsheetText(entry.orderNumber),
    toSpreadsheetText(entry.customer),
    csvAmount(entry.totalCents),
    csvAmount(entry.totalCents - vatOf(entry)),
    ...rates.map((rate) => csvAmount(entry.vat.find((row) => row.rateBp === rate)?.vatCents ?? 0)),
    ...(withMargin ? [csvAmount(entry.marginSchemeCents)] : []),
    // Per period a sale has no margin VAT of its own: its month's line carries it.
    ...(withMarginVat ? [entry.marginVat ? csvAmount(entry.marginVat.vatCents) : ""] : []),
    ...(withUnknownCost ? [csvAmount(entry.marginVat?.unknownSaleCents ?? 0)] : []),
    toSpreadsheetText(entry.paymentMethod),
    ...(withCredit ? [csvAmount(entry.storeCreditCents ?? 0)] : []),
    toSpreadsheetText(entry.reference),
  ]);
  // Each month's line, dated its last day, after that month's sales (as the FEC's OD entry).
  const monthRows = marginVatMonths.map((m) => {
    const at = new Date(periodBounds({ year: m.year, month: m.month }).to.getTime() - 1);
    const cells = header.map(() => "");
    cells[0] = formatParisShortDate(at);
    cells[3] = `TVA sur la marge de ${periodLabel({ year: m.year, month: m.month })} (par période)`;
    cells[header.indexOf("TVA sur la marge")] = csvAmount(m.vatCents);
    return { at, cells };
  });
  const dated = [...sorted.map((entry, i) => ({ at: entry.at, cells: rows[i]! })), ...monthRows].sort((a, b) => a.at.getTime() - b.at.getTime());
  return serializeCsv([header, ...dated.map((row) => row.cells)]);
}
