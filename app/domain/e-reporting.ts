import { z } from "zod";
import type { AccountingPeriod } from "./accounting-period";
import { csvAmount } from "./accounting-export";
import { serializeCsv } from "./catalog-csv";
import type { InvoiceSnapshot } from "./invoice";
import { parisWallTime, parisWallTimeToUtc } from "./paris-time";
import { vatRateText } from "./product-form";

/**
 * E-reporting of consumer sales (CGI art. 290 and ann. II art. 242 nonies M; docs/decisions/053):
 * per Paris calendar day, what the invoices and credit notes to consumers add up to, split as the
 * law's categories of transactions: goods with French VAT (base and VAT by rate), goods under the
 * margin scheme (art. 297 A: their TTC, no VAT shown), sales under the franchise en base (no VAT),
 * and distance sales taxed in another member state (art. 258 A: not located in France, their VAT
 * is declared on the OSS). A sale counts on the day of its invoice (issued when it is paid), a
 * refund on the day of its credit note (issued when the money goes back). Amounts are the
 * documents' own, signed: a credit note's are negative.
 */

/** The JSON's version: a platform reading it checks this before anything else. */
export const E_REPORTING_FORMAT = 1;

/** An invoice or credit note as e-reporting reads it. */
export type EReportingDocument = {
  kind: "invoice" | "credit_note";
  issuedAt: Date;
  /** The order was an "Achat professionnel" (orders.business_buyer): e-invoiced, not e-reported as a consumer sale. */
  businessOrder: boolean;
  snapshot: Pick<InvoiceSnapshot, "buyer" | "vatBreakdown" | "totals" | "vatRegime" | "vatCountry">;
};

export type RateFigures = { rateBp: number; exclVatCents: number; vatCents: number };

/** One day's invoices (sales) or credit notes (refunds), by category. `documents`: how many carry an amount in it. */
export type DayFigures = {
  documents: number;
  inclVatCents: number;
  /** Goods and charges taxed in France: by rate, highest first. */
  frenchVat: { documents: number; exclVatCents: number; vatCents: number; rates: RateFigures[] };
  /** Second-hand goods under the margin scheme, TTC (the VAT on the margin is not shown to a buyer). */
  marginScheme: { documents: number; inclVatCents: number };
  /** Sales under the franchise en base: TTC, no VAT. */
  franchise: { documents: number; inclVatCents: number };
  /** Distance sales taxed in the buyer's member state: their base and that state's VAT (declared on the OSS, not in France). */
  otherMemberState: { documents: number; exclVatCents: number; vatCents: number };
};

export type EReportingDay = { date: string; sales: DayFigures; refunds: DayFigures };

/** A consumer's document: neither the order nor the frozen buyer names a company. */
export function isConsumerDocument(document: EReportingDocument): boolean {
  return !document.businessOrder && !document.snapshot.buyer.business;
}

export function emptyFigures(): DayFigures {
  return {
    documents: 0,
    inclVatCents: 0,
    frenchVat: { documents: 0, exclVatCents: 0, vatCents: 0, rates: [] },
    marginScheme: { documents: 0, inclVatCents: 0 },
    franchise: { documents: 0, inclVatCents: 0 },
    otherMemberState: { documents: 0, exclVatCents: 0, vatCents: 0 },
  };
}

function addRate(rates: RateFigures[], rateBp: number, exclVatCents: number, vatCents: number): void {
  const rate = rates.find((candidate) => candidate.rateBp === rateBp);
  if (rate) {
    rate.exclVatCents += exclVatCents;
    rate.vatCents += vatCents;
  } else {
    rates.push({ rateBp, exclVatCents, vatCents });
    rates.sort((a, b) => b.rateBp - a.rateBp);
  }
}

/** Adds one document to a day's figures. */
function addDocument(figures: DayFigures, snapshot: EReportingDocument["snapshot"]): void {
  const { totals, vatBreakdown } = snapshot;
  figures.documents += 1;
  figures.inclVatCents += totals.inclVatCents;
  if (snapshot.vatRegime === "franchise") {
    // No VAT at all: its TTC is the category's amount (the breakdown, if any, is not VAT charged).
    figures.franchise.documents += 1;
    figures.franchise.inclVatCents += totals.inclVatCents;
    return;
  }
  const rows = vatBreakdown.filter((row) => row.baseCents !== 0 || row.vatCents !== 0);
  const exclVatCents = rows.reduce((sum, row) => sum + row.baseCents, 0);
  const vatCents = rows.reduce((sum, row) => sum + row.vatCents, 0);
  if (rows.length > 0 && snapshot.vatCountry && snapshot.vatCountry !== "FR") {
    figures.otherMemberState.documents += 1;
    figures.otherMemberState.exclVatCents += exclVatCents;
    figures.otherMemberState.vatCents += vatCents;
  } else if (rows.length > 0) {
    figures.frenchVat.documents += 1;
    figures.frenchVat.exclVatCents += exclVatCents;
    figures.frenchVat.vatCents += vatCents;
    for (const row of rows) addRate(figures.frenchVat.rates, row.rateBp, row.baseCents, row.vatCents);
  }
  // Margin-scheme goods keep the French scheme wherever they go (Directive 2006/112 art. 35).
  if (totals.marginSchemeCents !== 0) {
    figures.marginScheme.documents += 1;
    figures.marginScheme.inclVatCents += totals.marginSchemeCents;
  }
}

/** "2026-11-03": the Paris calendar day of an instant. */
export function parisDay(at: Date): string {
  return parisWallTime(at).date;
}

/** The consumer documents' figures per Paris day, days without any left out, oldest first. */
export function dailyAggregates(documents: readonly EReportingDocument[]): EReportingDay[] {
  const days = new Map<string, EReportingDay>();
  for (const document of documents) {
    if (!isConsumerDocument(document)) continue;
    const date = parisDay(document.issuedAt);
    const day = days.get(date) ?? { date, sales: emptyFigures(), refunds: emptyFigures() };
    addDocument(document.kind === "invoice" ? day.sales : day.refunds, document.snapshot);
    days.set(date, day);
  }
  return [...days.values()].sort((a, b) => a.date.localeCompare(b.date));
}

/** The sum of several days' figures (the period's total). */
export function sumFigures(list: readonly DayFigures[]): DayFigures {
  const total = emptyFigures();
  for (const figures of list) {
    total.documents += figures.documents;
    total.inclVatCents += figures.inclVatCents;
    total.frenchVat.documents += figures.frenchVat.documents;
    total.frenchVat.exclVatCents += figures.frenchVat.exclVatCents;
    total.frenchVat.vatCents += figures.frenchVat.vatCents;
    for (const rate of figures.frenchVat.rates) addRate(total.frenchVat.rates, rate.rateBp, rate.exclVatCents, rate.vatCents);
    total.marginScheme.documents += figures.marginScheme.documents;
    total.marginScheme.inclVatCents += figures.marginScheme.inclVatCents;
    total.franchise.documents += figures.franchise.documents;
    total.franchise.inclVatCents += figures.franchise.inclVatCents;
    total.otherMemberState.documents += figures.otherMemberState.documents;
    total.otherMemberState.exclVatCents += figures.otherMemberState.exclVatCents;
    total.otherMemberState.vatCents += figures.otherMemberState.vatCents;
  }
  return total;
}

/** Inclusive Paris days, as the JSON endpoint takes them: `?from=2027-09-01&to=2027-09-10`. */
export type EReportingRange = { from: string; to: string };

/** A platform asks per ten days, a month or two months (docs/decisions/053): a leap year is plenty. */
export const MAX_RANGE_DAYS = 366;

const DAY_MS = 24 * 60 * 60 * 1000;

/** Days since 1970-01-01 of a "YYYY-MM-DD" that exists in the calendar; null otherwise. */
function dayNumber(text: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const at = new Date(Date.UTC(year, month - 1, day));
  return at.getUTCFullYear() === year && at.getUTCMonth() === month - 1 && at.getUTCDate() === day ? at.getTime() / DAY_MS : null;
}

const isoDay = (message: string) => z.string({ error: message }).trim().refine((text) => dayNumber(text) !== null && text >= "2000-01-01" && text <= "2100-12-31", message);

export const eReportingRangeSchema = z
  .object({
    from: isoDay("Date de début invalide : écrivez-la AAAA-MM-JJ, par exemple 2027-09-01."),
    to: isoDay("Date de fin invalide : écrivez-la AAAA-MM-JJ, par exemple 2027-09-10."),
  })
  .refine(({ from, to }) => from <= to, { message: "La date de fin précède la date de début.", path: ["to"] })
  .refine(({ from, to }) => dayNumber(to)! - dayNumber(from)! < MAX_RANGE_DAYS, { message: `Période trop longue : ${MAX_RANGE_DAYS} jours au plus par demande.`, path: ["to"] });

export function parseEReportingRange(params: URLSearchParams): { ok: true; range: EReportingRange } | { ok: false; error: string } {
  const parsed = eReportingRangeSchema.safeParse({ from: params.get("from") ?? undefined, to: params.get("to") ?? undefined });
  return parsed.success ? { ok: true, range: parsed.data } : { ok: false, error: parsed.error.issues[0]!.message };
}

/** [the first day 00:00 in Paris, the day after the last 00:00 in Paris): midnight exists every day in Paris. */
export function rangeBounds({ from, to }: EReportingRange): { from: Date; to: Date } {
  const at = (days: number) => {
    const date = new Date(days * DAY_MS);
    return parisWallTimeToUtc(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), 0, 0)!;
  };
  return { from: at(dayNumber(from)!), to: at(dayNumber(to)! + 1) };
}

/** The JSON a platform reads: versioned, explicit names, integer cents, credit notes negative. */
export function eReportingJson(range: EReportingRange, days: readonly EReportingDay[]) {
  return {
    format: E_REPORTING_FORMAT,
    scope: "b2c-daily",
    currency: "EUR",
    timeZone: "Europe/Paris",
    from: range.from,
    to: range.to,
    days,
    totals: { sales: sumFigures(days.map((day) => day.sales)), refunds: sumFigures(days.map((day) => day.refunds)) },
  };
}

/**
 * The CSV (UTF-8 with BOM, semicolons, decimal commas: as the receipts book): per day a line of
 * sales and, when there were, a line of refunds; a base and a VAT column per French rate present
 * in the period, highest first.
 */
export function eReportingCsv(days: readonly EReportingDay[]): string {
  const rates = sumFigures(days.flatMap((day) => [day.sales, day.refunds])).frenchVat.rates.map((rate) => rate.rateBp);
  const header = [
    "Date",
    "Nature",
    "Pièces",
    "Total TTC",
    ...rates.flatMap((rate) => [`Base HT ${vatRateText(rate)} %`, `TVA ${vatRateText(rate)} %`]),
    "Total HT (TVA française)",
    "TVA française",
    "Biens d'occasion, régime de la marge (TTC)",
    "Franchise en base (TTC)",
    "Ventes taxées dans un autre État membre (HT)",
    "TVA d'un autre État membre (OSS)",
  ];
  const line = (date: string, nature: string, figures: DayFigures) => {
    const at = (rateBp: number) => figures.frenchVat.rates.find((rate) => rate.rateBp === rateBp);
    return [
      date,
      nature,
      String(figures.documents),
      csvAmount(figures.inclVatCents),
      ...rates.flatMap((rate) => [csvAmount(at(rate)?.exclVatCents ?? 0), csvAmount(at(rate)?.vatCents ?? 0)]),
      csvAmount(figures.frenchVat.exclVatCents),
      csvAmount(figures.frenchVat.vatCents),
      csvAmount(figures.marginScheme.inclVatCents),
      csvAmount(figures.franchise.inclVatCents),
      csvAmount(figures.otherMemberState.exclVatCents),
      csvAmount(figures.otherMemberState.vatCents),
    ];
  };
  const rows = days.flatMap((day) => [
    ...(day.sales.documents > 0 ? [line(day.date, "Ventes", day.sales)] : []),
    ...(day.refunds.documents > 0 ? [line(day.date, "Remboursements", day.refunds)] : []),
  ]);
  return serializeCsv([header, ...rows]);
}

/** "e-reporting-comptoir-2026-11.csv", "e-reporting-comptoir-2026.csv". */
export function eReportingFileName({ year, month }: AccountingPeriod): string {
  return `e-reporting-comptoir-${year}${month === null ? "" : `-${String(month).padStart(2, "0")}`}.csv`;
}
