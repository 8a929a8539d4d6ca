import { csvAmount } from "./accounting-export";
import { type AccountingPeriod, periodBounds } from "./accounting-period";
import { type BusinessBuyer, compactIdentifier } from "./business-buyer";
import { type FecAccounts, accountLabels } from "./fec-accounts";
import type { InvoiceSnapshot } from "./invoice";
import { parisWallClock } from "./paris-time";
import { SIGNATURE_DELIVERY_LABEL } from "./signature-delivery";
import { IDENTITY_PLACEHOLDERS } from "./shop-identity";
import { type FrenchVatRateBp, isVatRateBp } from "./vat";
import { formatVatRate } from "./vat-allocation";

/**
 * The sales journal as a FEC (Fichier des écritures comptables, LPF art. A47 A-1;
 * docs/decisions/052): the entries of the journal "VE" made from the invoices and credit notes as
 * issued (their frozen snapshots), and those of the journal "BQ" made from the payments and
 * refunds. Pure: the service reads the documents and the money movements of a period.
 */

/** The 18 fields, in the order A47 A-1 gives them; the file's first line names them. */
export const FEC_COLUMNS = [
  "JournalCode",
  "JournalLib",
  "EcritureNum",
  "EcritureDate",
  "CompteNum",
  "CompteLib",
  "CompAuxNum",
  "CompAuxLib",
  "PieceRef",
  "PieceDate",
  "EcritureLib",
  "Debit",
  "Credit",
  "EcritureLet",
  "DateLet",
  "ValidDate",
  "Montantdevise",
  "Idevise",
] as const;

export const FEC_JOURNALS = { VE: "Ventes", BQ: "Encaissements et remboursements", OD: "Opérations diverses" } as const;
export type FecJournal = keyof typeof FEC_JOURNALS;

/**
 * An invoice or a credit note, with the company it was sold to (orders.business_buyer) and, for
 * its margin-scheme goods, their margin VAT (docs/decisions/057): per sale its own figures, "period"
 * when the seller computes it per month (an OD entry of its own, `periodMarginEntry`); none: unknown.
 */
export type FecDocument = { snapshot: InvoiceSnapshot; business: BusinessBuyer | null; margin?: DocumentMarginVat | "period" };

/** A document's margin VAT per sale and the price of its units whose purchase price is unknown (signed as the document). */
export type DocumentMarginVat = { vatCents: number; unknownSaleCents: number };

/** The FecPayment `provider` of the part an order's store credit paid (or a refund given as credit). */
export const STORE_CREDIT_PROVIDER = "store_credit";

/** Money in (an order's payment) or back (a refund), with the document it settles. */
export type FecPayment = {
  kind: "payment" | "refund";
  at: Date;
  orderNumber: string;
  /** The invoice a payment settles, the credit note of a refund; null for an order from before invoices. */
  document: string | null;
  /** Positive. */
  amountCents: number;
  provider: string;
  /** The provider's payment or refund id. */
  reference: string | null;
  business: BusinessBuyer | null;
};

/** A line of an entry: signed cents, positive on the debit side, negative on the credit side. */
export type FecLine = {
  account: string;
  aux: { number: string; label: string } | null;
  label: string;
  cents: number;
  letter: string | null;
  letteredAt: Date | null;
};

export type FecEntry = {
  journal: FecJournal;
  /** EcritureNum: 1, 2, 3… in the file, per journal. */
  number: number;
  at: Date;
  pieceRef: string;
  lines: FecLine[];
};

/** The flag an accountant searches for: the VAT on the margin of these units is theirs to compute, the shop has no purchase price for them. */
export const MARGIN_VAT_FLAG = "TVA sur la marge à calculer (prix d'achat inconnu)";

/**
 * The margin-scheme goods of a document (TTC on their own account): per sale, less their margin
 * VAT, credited to the VAT account, and less the price of units with no purchase price, on a
 * line of their own flagged for the accountant; per period, whole (the month's OD entry takes the
 * VAT out); with no figures, all flagged.
 */
function marginCredits(name: string, marginSchemeCents: number, margin: FecDocument["margin"], accounts: FecAccounts): FecLine[] {
  if (margin === "period") return [line(accounts.marginSales, `${name} - biens d'occasion (TVA sur la marge par période)`, -marginSchemeCents)];
  if (!margin) return [line(accounts.marginSales, `${name} - biens d'occasion, ${MARGIN_VAT_FLAG}`, -marginSchemeCents)];
  return [
    line(accounts.marginSales, `${name} - biens d'occasion (régime de la marge)`, -(marginSchemeCents - margin.unknownSaleCents - margin.vatCents)),
    line(accounts.marginSales, `${name} - biens d'occasion, ${MARGIN_VAT_FLAG}`, -margin.unknownSaleCents),
    line(accounts.vat[2000], `${name} - TVA sur la marge`, -margin.vatCents),
  ];
}

/**
 * Per period (globalisation, art. 297 A II), a month's margin VAT: taken out of the margin-scheme
 * sales account, credited to the VAT account, dated the month's last day. None when it is 0.
 */
export function periodMarginEntry(month: { year: number; month: number; vatCents: number; baseCents: number; at: Date }, accounts: FecAccounts): Omit<FecEntry, "number"> | null {
  if (month.vatCents === 0) return null;
  const name = `TVA sur la marge globale ${String(month.month).padStart(2, "0")}/${month.year} (marge ${csvAmount(month.baseCents)})`;
  return {
    journal: "OD",
    at: month.at,
    pieceRef: `MARGE-${month.year}-${String(month.month).padStart(2, "0")}`,
    lines: [line(accounts.marginSales, name, month.vatCents), line(accounts.vat[2000], name, -month.vatCents)],
  };
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/** A company buyer's own account under 411: its SIREN, or its VAT number when established elsewhere in the EU. */
function auxiliaryOf(business: BusinessBuyer | null): FecLine["aux"] {
  const number = business?.siren ?? business?.vatNumber;
  return business && number ? { number, label: business.companyName } : null;
}

const isDeliveryCharge = (label: string) => label.startsWith("Livraison") || label === SIGNATURE_DELIVERY_LABEL;

const line = (account: string, label: string, cents: number, aux: FecLine["aux"] = null): FecLine => ({ account, aux, label, cents, letter: null, letteredAt: null });

/**
 * A document's entry: the customer debited for the TTC, the sales (goods at each rate, delivery
 * at each rate, margin-scheme goods, franchise, OSS or exempt intra-EU sales) and the VAT by rate credited. The
 * snapshot's amounts are signed (negative on a credit note), so a credit note's entry is the
 * reverse with no code of its own. Each rate's base is the snapshot's (what its VAT was computed
 * on); the delivery's part of it is its charges' parts at that rate, the goods take the rest.
 */
export function documentEntry(document: FecDocument, accounts: FecAccounts): Omit<FecEntry, "number"> {
  const s = document.snapshot;
  const aux = auxiliaryOf(document.business);
  const name = `${s.kind === "invoice" ? "Facture" : "Avoir"} ${s.number}${s.cancelsInvoice ? ` sur ${s.cancelsInvoice}` : ""} - ${aux?.label ?? s.buyer.name}`;
  const ttc = s.totals.inclVatCents;
  const deliveryCharges = s.charges.filter((charge) => isDeliveryCharge(charge.label));
  const credits: FecLine[] = [];
  const goods: FecLine[] = [];
  if (s.vatRegime === "franchise") {
    const delivery = sum(deliveryCharges.map((charge) => charge.totalCents));
    goods.push(line(accounts.franchiseSales, `${name} - ventes en franchise de TVA`, -(ttc - delivery)));
    credits.push(goods[0]!, line(accounts.delivery, `${name} - livraison`, -delivery));
  } else {
    const country = s.vatCountry;
    for (const row of s.vatBreakdown) {
      const rate = formatVatRate(row.rateBp);
      // An exempt intra-EU supply: goods and delivery at 0 % on their own account, no VAT (docs/decisions/054).
      if (s.vatRegime === "intra_eu_exempt") {
        goods.push(line(accounts.intraEuSales, `${name} - livraisons intracommunautaires exonérées (art. 262 ter I du CGI)`, -row.baseCents));
        credits.push(goods.at(-1)!);
        continue;
      }
      if (country) {
        goods.push(line(accounts.ossSales, `${name} - ventes OSS ${country} TVA ${rate}`, -row.baseCents));
        credits.push(goods.at(-1)!, line(accounts.ossVat, `${name} - TVA ${country} ${rate}`, -row.vatCents));
        continue;
      }
      const french: FrenchVatRateBp = isVatRateBp(row.rateBp) ? row.rateBp : 2000;
      const delivery = sum(deliveryCharges.flatMap((charge) => (charge.parts ?? []).filter((part) => part.rateBp === row.rateBp).map((part) => part.exclVatCents)));
      goods.push(line(accounts.sales[french], `${name} - ventes TVA ${rate}`, -(row.baseCents - delivery)));
      credits.push(goods.at(-1)!, line(accounts.delivery, `${name} - livraison TVA ${rate}`, -delivery), line(accounts.vat[french], `${name} - TVA ${rate}`, -row.vatCents));
    }
    credits.push(...marginCredits(name, s.totals.marginSchemeCents, document.margin, accounts));
    // A document whose bases, VAT and margin-scheme goods miss its TTC by a few cents (the first
    // layout's HT was TTC less VAT, docs/decisions/032; none issued since): the goods take them, so the entry balances.
    const rest = ttc + sum(credits.map((credit) => credit.cents));
    if (rest !== 0) {
      if (goods[0]) goods[0].cents -= rest;
      else credits.push(line(country ? accounts.ossSales : accounts.sales[2000], `${name} - ventes`, -rest));
    }
  }
  return {
    journal: "VE",
    at: new Date(s.issuedAt),
    pieceRef: s.number,
    // The customer's line stays even at 0 (a document of nothing still has its entry); the others only when they carry an amount.
    lines: [line(accounts.customers, name, ttc, aux), ...credits.filter((credit) => credit.cents !== 0)],
  };
}

/** A payment: Stripe's (or the bank's) account debited, the customer credited; a refund the reverse. */
export function paymentEntry(payment: FecPayment, accounts: FecAccounts): Omit<FecEntry, "number"> {
  const aux = auxiliaryOf(payment.business);
  // Paid from store credit: the shop's debt to the customer (4191) is what settles the invoice.
  const clearing = payment.provider === STORE_CREDIT_PROVIDER ? accounts.storeCredit : payment.provider === "stripe" ? accounts.stripe : accounts.bank;
  const sign = payment.kind === "payment" ? 1 : -1;
  const what = payment.kind === "payment" ? "Paiement" : "Remboursement";
  const name = `${what} commande ${payment.orderNumber}${payment.document ? ` - ${payment.document}` : ""}${aux ? ` - ${aux.label}` : ""}`;
  return {
    journal: "BQ",
    at: payment.at,
    pieceRef: payment.reference || payment.orderNumber,
    lines: [line(clearing, name, sign * payment.amountCents), line(accounts.customers, name, -sign * payment.amountCents, aux)],
  };
}

/** AAA, AAB… ZZZ, then BAAA: a code per lettered pair, unique in the file. */
export function letterCode(index: number): string {
  let code = "";
  let n = index;
  do {
    code = String.fromCharCode(65 + (n % 26)) + code;
    n = Math.floor(n / 26);
  } while (n > 0);
  return code.padStart(3, "A");
}

/**
 * Every entry of the documents and payments, in chronological order (a document before its
 * payment at the same instant), numbered 1, 2, 3… per journal without a gap. A document's and its
 * payment's (or its refund's) customer lines are lettered together when both are in the file and
 * cancel out, dated by the later one: the invoice is paid, the credit note refunded.
 */
export function buildFecEntries(documents: readonly FecDocument[], payments: readonly FecPayment[], accounts: FecAccounts, others: readonly Omit<FecEntry, "number">[] = []): FecEntry[] {
  const journalOrder: FecJournal[] = ["VE", "BQ", "OD"];
  const items = [
    ...documents.map((document) => ({ entry: documentEntry(document, accounts), settles: null })),
    ...others.map((entry) => ({ entry, settles: null })),
    ...payments.map((payment) => ({ entry: paymentEntry(payment, accounts), settles: payment.document })),
  ].sort(
    (a, b) =>
      a.entry.at.getTime() - b.entry.at.getTime() ||
      journalOrder.indexOf(a.entry.journal) - journalOrder.indexOf(b.entry.journal) ||
      a.entry.pieceRef.localeCompare(b.entry.pieceRef),
  );
  const counters: Record<FecJournal, number> = { VE: 0, BQ: 0, OD: 0 };
  const numbered = items.map(({ entry, settles }) => ({ entry: { ...entry, number: ++counters[entry.journal] } as FecEntry, settles }));

  const customerLine = (entry: FecEntry) => entry.lines.find((l) => l.account === accounts.customers)!;
  const byDocument = new Map(numbered.filter(({ entry }) => entry.journal === "VE").map(({ entry }) => [entry.pieceRef, entry]));
  let letters = 0;
  for (const { entry, settles } of numbered) {
    const document = settles ? byDocument.get(settles) : undefined;
    if (!document) continue;
    const [a, b] = [customerLine(document), customerLine(entry)];
    if (a.cents === 0 || a.cents + b.cents !== 0 || a.letter || b.letter) continue;
    const letter = letterCode(letters++);
    const at = new Date(Math.max(document.at.getTime(), entry.at.getTime()));
    for (const l of [a, b]) Object.assign(l, { letter, letteredAt: at });
  }
  return numbered.map(({ entry }) => entry);
}

const pad = (n: number) => String(n).padStart(2, "0");

/** AAAAMMJJ, the day in Paris. */
export function fecDate(at: Date): string {
  const { year, month, day } = parisWallClock(at);
  return `${year}${pad(month)}${pad(day)}`;
}

/** A text field: one line, no tab (the separator), single spaces. */
function fecText(value: string): string {
  return value.replace(/[\t\r\n\u00a0\u202f]+/g, " ").replace(/ {2,}/g, " ").trim();
}

/**
 * The file: the header, then one line per entry line, fields separated by a tab, lines by CR LF,
 * amounts with a decimal comma and no thousands separator, both Debit and Credit always given
 * (0,00 on the other side), no foreign currency (Montantdevise and Idevise empty: all in euros).
 */
export function fecFile(entries: readonly FecEntry[], accounts: FecAccounts): string {
  const labels = accountLabels(accounts);
  const rows = entries.flatMap((entry) =>
    entry.lines.map((l) => [
      entry.journal,
      FEC_JOURNALS[entry.journal],
      String(entry.number),
      fecDate(entry.at),
      l.account,
      labels.get(l.account) ?? l.account,
      l.aux?.number ?? "",
      l.aux?.label ?? "",
      entry.pieceRef,
      fecDate(entry.at),
      l.label,
      csvAmount(Math.max(l.cents, 0)),
      csvAmount(Math.max(-l.cents, 0)),
      l.letter ?? "",
      l.letteredAt ? fecDate(l.letteredAt) : "",
      fecDate(entry.at),
      "",
      "",
    ]),
  );
  return [[...FEC_COLUMNS], ...rows].map((row) => row.map(fecText).join("\t")).join("\r\n") + "\r\n";
}

/** ISO 8859-15 (Latin-9) differs from Latin-1 at these eight places: the euro sign, Œ, œ… */
const LATIN9: Record<string, number> = { "€": 0xa4, Š: 0xa6, š: 0xa8, Ž: 0xb4, ž: 0xb8, Œ: 0xbc, œ: 0xbd, Ÿ: 0xbe };
const LATIN1_ONLY = new Set([0xa4, 0xa6, 0xa8, 0xb4, 0xb8, 0xbc, 0xbd, 0xbe]);
const PUNCTUATION: Record<string, string> = { "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-", "\u2026": "..." };

/**
 * The text in ISO 8859-15, one of the character sets A47 A-1 allows: French letters, œ and € as
 * they are; curly quotes and dashes as their plain forms; a letter outside it without its accent
 * (ł, ő keep their base letter when they have one), anything else "?".
 */
export function toLatin9(text: string): Uint8Array {
  const bytes: number[] = [];
  for (const char of text) {
    const plain = PUNCTUATION[char] ?? char;
    for (const c of plain) {
      const code = c.codePointAt(0)!;
      if (LATIN9[c] !== undefined) bytes.push(LATIN9[c]);
      else if (code < 0x100 && !LATIN1_ONLY.has(code)) bytes.push(code);
      else {
        const base = c.normalize("NFD").replace(/\p{M}/gu, "");
        bytes.push(base.length === 1 && base.codePointAt(0)! < 0x80 ? base.codePointAt(0)! : 0x3f);
      }
    }
  }
  return Uint8Array.from(bytes);
}

/** SIRENFECAAAAMMJJ.txt: the seller's SIREN and the period's last day (A47 A-1: the closing date). */
export function fecFileName(siren: string, period: AccountingPeriod): string {
  const { to } = periodBounds(period);
  return `${siren}FEC${fecDate(new Date(to.getTime() - 1))}.txt`;
}

/** The SIREN the file is named after: the shop identity's, 9 digits, not the example it ships with; else null. */
export function fecSiren(siren: string): string | null {
  const digits = compactIdentifier(siren);
  return /^\d{9}$/.test(digits) && !IDENTITY_PLACEHOLDERS.siren?.some((example) => compactIdentifier(example) === digits) ? digits : null;
}

export const FEC_SIREN_MISSING = "Renseignez le numéro SIREN de la boutique dans Paramètres (/admin/settings) : le fichier des écritures comptables porte son nom.";
