import { describe, expect, it } from "vitest";
import { type EReportingDocument, dailyAggregates, eReportingCsv, eReportingJson, emptyFigures, parseEReportingRange, rangeBounds } from "./e-reporting";
import type { VatBreakdownRow } from "./invoice";

type Snapshot = EReportingDocument["snapshot"];
const consumer: Snapshot["buyer"] = { name: "Marie Curie", email: "marie@example.com", addressLines: [] };
const company: Snapshot["buyer"] = { ...consumer, business: { companyName: "Le Repaire du Joueur", siren: "732829320", vatNumber: "FR44732829320", country: "FR" } };

/** A row of the breakdown: `totalCents` TTC at `rateBp`, its base and VAT given as the documents store them. */
const row = (rateBp: number, baseCents: number, vatCents: number): VatBreakdownRow => ({ rateBp: rateBp as VatBreakdownRow["rateBp"], baseCents, vatCents, totalCents: baseCents + vatCents });

/** A document whose totals add up from its rows and its margin-scheme goods (negated on a credit note by the caller's rows). */
function document(kind: EReportingDocument["kind"], issuedAt: string, rows: VatBreakdownRow[], options: Partial<Snapshot> & { marginSchemeCents?: number; businessOrder?: boolean } = {}): EReportingDocument {
  const marginSchemeCents = options.marginSchemeCents ?? 0;
  const exclVatCents = rows.reduce((sum, r) => sum + r.baseCents, 0);
  const vatCents = rows.reduce((sum, r) => sum + r.vatCents, 0);
  return {
    kind,
    issuedAt: new Date(issuedAt),
    businessOrder: options.businessOrder ?? false,
    snapshot: {
      buyer: options.buyer ?? consumer,
      vatBreakdown: rows,
      totals: options.totals ?? { exclVatCents, vatCents, inclVatCents: exclVatCents + vatCents + marginSchemeCents, marginSchemeCents },
      vatRegime: options.vatRegime ?? "normal",
      ...(options.vatCountry ? { vatCountry: options.vatCountry } : {}),
    },
  };
}

describe("daily aggregates of consumer sales", () => {
  it("adds a day's consumer invoices by rate, counts them, and keeps margin-scheme goods apart (TTC, no VAT)", () => {
    const days = dailyAggregates([
      document("invoice", "2026-11-03T09:00:00Z", [row(2000, 1_000, 200), row(550, 1_000, 55)]),
      document("invoice", "2026-11-03T15:00:00Z", [row(2000, 500, 100)], { marginSchemeCents: 3_000 }),
    ]);
    expect(days).toHaveLength(1);
    expect(days[0]!.date).toBe("2026-11-03");
    expect(days[0]!.sales).toEqual({
      documents: 2,
      inclVatCents: 1_200 + 1_055 + 600 + 3_000,
      frenchVat: { documents: 2, exclVatCents: 2_500, vatCents: 355, rates: [{ rateBp: 2000, exclVatCents: 1_500, vatCents: 300 }, { rateBp: 550, exclVatCents: 1_000, vatCents: 55 }] },
      marginScheme: { documents: 1, inclVatCents: 3_000 },
      franchise: { documents: 0, inclVatCents: 0 },
      otherMemberState: { documents: 0, exclVatCents: 0, vatCents: 0 },
    });
    expect(days[0]!.refunds).toEqual(emptyFigures());
  });

  it("leaves out a professional buyer's documents, whether the order or the frozen buyer names the company", () => {
    const days = dailyAggregates([
      document("invoice", "2026-11-03T09:00:00Z", [row(2000, 1_000, 200)], { businessOrder: true }),
      document("invoice", "2026-11-03T10:00:00Z", [row(2000, 2_000, 400)], { buyer: company }),
      document("invoice", "2026-11-03T11:00:00Z", [row(2000, 4_000, 800)]),
    ]);
    expect(days[0]!.sales.documents).toBe(1);
    expect(days[0]!.sales.frenchVat.rates).toEqual([{ rateBp: 2000, exclVatCents: 4_000, vatCents: 800 }]);
  });

  it("dates by the Paris calendar day, winter and summer, and puts a credit note on its own day with its negative amounts", () => {
    const days = dailyAggregates([
      // 23:30 UTC in November is 00:30 the next day in Paris (UTC+1); 22:30 UTC in July is 00:30 too (UTC+2).
      document("invoice", "2026-11-03T23:30:00Z", [row(2000, 1_000, 200)]),
      document("invoice", "2026-07-01T22:30:00Z", [row(2000, 1_000, 200)]),
      document("invoice", "2026-07-01T21:59:00Z", [row(2000, 1_000, 200)]),
      document("credit_note", "2026-11-10T10:00:00Z", [row(2000, -250, -50)], { marginSchemeCents: -700 }),
    ]);
    expect(days.map((day) => [day.date, day.sales.documents, day.refunds.documents])).toEqual([
      ["2026-07-01", 1, 0],
      ["2026-07-02", 1, 0],
      ["2026-11-04", 1, 0],
      ["2026-11-10", 0, 1],
    ]);
    expect(days[3]!.refunds).toMatchObject({
      documents: 1,
      inclVatCents: -1_000,
      frenchVat: { documents: 1, exclVatCents: -250, vatCents: -50, rates: [{ rateBp: 2000, exclVatCents: -250, vatCents: -50 }] },
      marginScheme: { documents: 1, inclVatCents: -700 },
    });
  });

  it("puts a franchise sale's TTC apart, with no VAT, and a sale taxed in another member state apart from French VAT", () => {
    const franchise = document("invoice", "2026-11-05T10:00:00Z", [], { vatRegime: "franchise", totals: { exclVatCents: 2_490, vatCents: 0, inclVatCents: 2_490, marginSchemeCents: 0 } });
    const belgian = document("invoice", "2026-11-05T11:00:00Z", [row(2100, 1_000, 210)], { vatCountry: "BE", marginSchemeCents: 500 });
    const [day] = dailyAggregates([franchise, belgian]);
    expect(day!.sales).toEqual({
      documents: 2,
      inclVatCents: 2_490 + 1_710,
      frenchVat: { documents: 0, exclVatCents: 0, vatCents: 0, rates: [] },
      marginScheme: { documents: 1, inclVatCents: 500 },
      franchise: { documents: 1, inclVatCents: 2_490 },
      otherMemberState: { documents: 1, exclVatCents: 1_000, vatCents: 210 },
    });
  });
});

describe("the CSV and the JSON", () => {
  const days = dailyAggregates([
    document("invoice", "2026-11-03T09:00:00Z", [row(2000, 1_000, 200), row(550, 1_000, 55)]),
    document("credit_note", "2026-11-04T09:00:00Z", [row(550, -100, -6)]),
  ]);

  it("writes a line of sales and a line of refunds per day, a base and a VAT column per rate of the period", () => {
    const lines = eReportingCsv(days).replace(/^\uFEFF/, "").trim().split("\r\n");
    expect(lines).toEqual([
      "Date;Nature;Pièces;Total TTC;Base HT 20 %;TVA 20 %;Base HT 5,5 %;TVA 5,5 %;Total HT (TVA française);TVA française;Biens d'occasion, régime de la marge (TTC);Franchise en base (TTC);Ventes taxées dans un autre État membre (HT);TVA d'un autre État membre (OSS)",
      "2026-11-03;Ventes;1;22,55;10,00;2,00;10,00;0,55;20,00;2,55;0,00;0,00;0,00;0,00",
      "2026-11-04;Remboursements;1;-1,06;0,00;0,00;-1,00;-0,06;-1,00;-0,06;0,00;0,00;0,00;0,00",
    ]);
  });

  it("gives the JSON a format version, the range and the period's totals", () => {
    const json = eReportingJson({ from: "2026-11-01", to: "2026-11-30" }, days);
    expect(json).toMatchObject({ format: 1, currency: "EUR", timeZone: "Europe/Paris", from: "2026-11-01", to: "2026-11-30", days });
    expect(json.totals.sales.frenchVat.vatCents).toBe(255);
    expect(json.totals.refunds).toMatchObject({ documents: 1, inclVatCents: -106 });
  });
});

describe("the JSON endpoint's range", () => {
  const parse = (query: string) => parseEReportingRange(new URLSearchParams(query));

  it("takes two existing days, the second not before the first, 366 days at most", () => {
    expect(parse("from=2027-09-01&to=2027-09-10")).toEqual({ ok: true, range: { from: "2027-09-01", to: "2027-09-10" } });
    expect(parse("from=2028-01-01&to=2028-12-31")).toMatchObject({ ok: true });
    expect(parse("from=2027-01-01&to=2028-01-01")).toMatchObject({ ok: true });
    expect(parse("from=2027-01-01&to=2028-01-02")).toEqual({ ok: false, error: "Période trop longue : 366 jours au plus par demande." });
    expect(parse("from=2027-09-10&to=2027-09-01")).toEqual({ ok: false, error: "La date de fin précède la date de début." });
  });

  it("refuses a missing, malformed or impossible date with a French message", () => {
    expect(parse("to=2027-09-10")).toEqual({ ok: false, error: "Date de début invalide : écrivez-la AAAA-MM-JJ, par exemple 2027-09-01." });
    expect(parse("from=2027-09-01&to=10/09/2027")).toEqual({ ok: false, error: "Date de fin invalide : écrivez-la AAAA-MM-JJ, par exemple 2027-09-10." });
    expect(parse("from=2027-02-29&to=2027-03-01")).toMatchObject({ ok: false, error: expect.stringContaining("Date de début invalide") });
  });

  it("runs from the first day's Paris midnight to the midnight after the last, across a clock change", () => {
    expect(rangeBounds({ from: "2026-03-29", to: "2026-03-29" })).toEqual({ from: new Date("2026-03-28T23:00:00Z"), to: new Date("2026-03-29T22:00:00Z") });
    expect(rangeBounds({ from: "2026-10-01", to: "2026-10-31" })).toEqual({ from: new Date("2026-09-30T22:00:00Z"), to: new Date("2026-10-31T23:00:00Z") });
  });
});
