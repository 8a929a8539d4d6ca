import { csvAmount } from "./accounting-export";
import { serializeCsv } from "./catalog-csv";
import type { VatBreakdownRow } from "./invoice";
import { parisWallClock, parisWallTimeToUtc } from "./paris-time";
import { vatRateText } from "./product-form";
import { countryName } from "./shipping-countries";

/** A calendar quarter, the OSS return's period (CGI art. 298 sexdecies G). */
export type OssQuarter = { year: number; quarter: 1 | 2 | 3 | 4 };

/** One line of the return: a member state and a rate, the base excluding VAT and the VAT, net of credit notes. */
export type OssReturnRow = { country: string; rateBp: number; baseCents: number; vatCents: number };

/** An order's breakdown (sign 1) or a refund's (sign −1), with the country whose VAT it carries. */
export type OssDocument = { country: string; sign: 1 | -1; rows: readonly VatBreakdownRow[] };

/** `?year=2026&quarter=4`; without them, the current quarter (Paris). */
export function parseOssQuarter(params: URLSearchParams, now: Date): { ok: true; quarter: OssQuarter } | { ok: false; error: string } {
  const current = parisWallClock(now);
  const currentYear = current.year;
  const year = Number(params.get("year") || currentYear);
  const quarter = Number(params.get("quarter") || Math.floor((current.month - 1) / 3) + 1);
  if (!Number.isInteger(year) || year < 2021 || year > currentYear) return { ok: false, error: "Année invalide (le guichet unique existe depuis juillet 2021)." };
  if (![1, 2, 3, 4].includes(quarter)) return { ok: false, error: "Trimestre invalide : choisissez de 1 à 4." };
  return { ok: true, quarter: { year, quarter: quarter as OssQuarter["quarter"] } };
}

/** The quarter's Paris bounds, [from, to). */
export function quarterBounds({ year, quarter }: OssQuarter): { from: Date; to: Date } {
  const month = (quarter - 1) * 3 + 1;
  return { from: parisWallTimeToUtc(year, month, 1, 0, 0)!, to: quarter === 4 ? parisWallTimeToUtc(year + 1, 1, 1, 0, 0)! : parisWallTimeToUtc(year, month + 3, 1, 0, 0)! };
}

/**
 * The return's lines: the sales taxed in another member state, by country and rate, less the
 * credit notes issued in the quarter (their own base and VAT by rate). By country name, then
 * highest rate first; a line that nets to nothing is left out.
 */
export function ossReturn(documents: readonly OssDocument[]): OssReturnRow[] {
  const lines = new Map<string, OssReturnRow>();
  for (const document of documents) {
    for (const row of document.rows) {
      const key = `${document.country}:${row.rateBp}`;
      const line = lines.get(key) ?? { country: document.country, rateBp: row.rateBp, baseCents: 0, vatCents: 0 };
      line.baseCents += document.sign * row.baseCents;
      line.vatCents += document.sign * row.vatCents;
      lines.set(key, line);
    }
  }
  return [...lines.values()]
    .filter((line) => line.baseCents !== 0 || line.vatCents !== 0)
    .sort((a, b) => countryName(a.country).localeCompare(countryName(b.country), "fr") || b.rateBp - a.rateBp);
}

/** The CSV for the return (UTF-8 with BOM, semicolons, decimal commas: as the receipts book). */
export function ossReturnCsv(rows: readonly OssReturnRow[]): string {
  const header = ["Pays de consommation", "Code pays", "Taux de TVA (%)", "Base imposable HT", "TVA due"];
  return serializeCsv([header, ...rows.map((row) => [countryName(row.country), row.country, vatRateText(row.rateBp), csvAmount(row.baseCents), csvAmount(row.vatCents)])]);
}

export function ossFileName({ year, quarter }: OssQuarter): string {
  return `oss-${year}-T${quarter}.csv`;
}
