import { describe, expect, it } from "vitest";
import { type LedgerEntry, csvAmount, ledgerCsv, sortLedger, summarizeLedger } from "./accounting-export";

const entry = (values: Partial<LedgerEntry>): LedgerEntry => ({
  kind: "receipt",
  at: new Date("2026-11-10T10:00:00Z"),
  document: "F-2026-000001",
  orderNumber: "CPT-000001-0001",
  customer: "Marie Curie",
  totalCents: 1_200,
  vat: [{ rateBp: 2000, vatCents: 200 }],
  marginSchemeCents: 0,
  paymentMethod: "Carte bancaire (Stripe)",
  reference: "pi_1",
  ...values,
});

const BOM = "\uFEFF";
const linesOf = (csv: string) => csv.slice(BOM.length).split("\r\n").slice(0, -1);

describe("receipts book", () => {
  it("writes amounts with a decimal comma and no thousands separator, negative ones as numbers", () => {
    expect(csvAmount(123_456)).toBe("1234,56");
    expect(csvAmount(5)).toBe("0,05");
    expect(csvAmount(-1_234)).toBe("-12,34");
    expect(csvAmount(0)).toBe("0,00");
  });

  it("orders the lines by date, then by document number", () => {
    const a = entry({ document: "F-2026-000002", at: new Date("2026-11-02T08:00:00Z") });
    const b = entry({ document: "A-2026-000001", at: new Date("2026-11-02T08:00:00Z") });
    const c = entry({ document: "F-2026-000001", at: new Date("2026-11-01T08:00:00Z") });
    expect(sortLedger([a, b, c]).map((e) => e.document)).toEqual(["F-2026-000001", "A-2026-000001", "F-2026-000002"]);
  });

  it("sums the period: lines by kind, TTC, HT and VAT by rate, refunds taken off", () => {
    const summary = summarizeLedger([
      entry({ totalCents: 2_690, vat: [{ rateBp: 2000, vatCents: 300 }, { rateBp: 550, vatCents: 36 }] }),
      entry({ totalCents: 5_000, vat: [], marginSchemeCents: 5_000 }),
      entry({ kind: "refund", totalCents: -1_200, vat: [{ rateBp: 2000, vatCents: -200 }] }),
    ]);
    expect(summary).toEqual({
      receipts: 2,
      refunds: 1,
      totalCents: 6_490,
      exclVatCents: 6_490 - 136,
      vat: [
        { rateBp: 2000, vatCents: 100 },
        { rateBp: 550, vatCents: 36 },
      ],
      marginSchemeCents: 5_000,
    });
  });

  it("writes a CSV with a BOM, CRLF, one VAT column per rate present, a Paris date, refunds negative", () => {
    const csv = ledgerCsv([
      entry({ kind: "refund", document: "A-2026-000001", at: new Date("2026-11-30T23:30:00Z"), totalCents: -2_690, vat: [{ rateBp: 2000, vatCents: -300 }, { rateBp: 550, vatCents: -36 }], reference: "re_1" }),
      entry({ at: new Date("2026-11-01T09:00:00Z"), totalCents: 2_690, vat: [{ rateBp: 2000, vatCents: 300 }, { rateBp: 550, vatCents: 36 }] }),
    ]);
    expect(csv.startsWith(BOM)).toBe(true);
    expect(linesOf(csv)).toEqual([
      "Date;Pièce;Commande;Client;Montant TTC;Montant HT;TVA 20 %;TVA 5,5 %;Moyen de paiement;Référence du paiement",
      "01/11/2026;F-2026-000001;CPT-000001-0001;Marie Curie;26,90;23,54;3,00;0,36;Carte bancaire (Stripe);pi_1",
      // 23:30 UTC on 30 November is 1 December in Paris.
      "01/12/2026;A-2026-000001;CPT-000001-0001;Marie Curie;-26,90;-23,54;-3,00;-0,36;Carte bancaire (Stripe);re_1",
    ]);
  });

  it("adds the margin-scheme column and its margin VAT only when the period has such sales (per sale: each line's own)", () => {
    const [header, line] = linesOf(ledgerCsv([entry({ totalCents: 5_000, vat: [], marginSchemeCents: 5_000, marginVat: { vatCents: 333, unknownSaleCents: 0 } })]));
    expect(header).toBe("Date;Pièce;Commande;Client;Montant TTC;Montant HT;Biens d'occasion, régime de la marge (TTC);TVA sur la marge;Moyen de paiement;Référence du paiement");
    expect(line).toBe("10/11/2026;F-2026-000001;CPT-000001-0001;Marie Curie;50,00;50,00;50,00;3,33;Carte bancaire (Stripe);pi_1");
  });

  it("puts the price of units with an unknown purchase price in its own column", () => {
    const [header, line] = linesOf(ledgerCsv([entry({ totalCents: 5_000, vat: [], marginSchemeCents: 5_000, marginVat: { vatCents: 0, unknownSaleCents: 2_000 } })]));
    expect(header!.split(";").slice(6, 9)).toEqual(["Biens d'occasion, régime de la marge (TTC)", "TVA sur la marge", "Dont prix d'achat inconnu, TVA sur la marge à calculer (TTC)"]);
    expect(line!.split(";").slice(6, 9)).toEqual(["50,00", "0,00", "20,00"]);
  });

  it("per period: no margin VAT on the sales, one line a month dated its last day, after the month's sales", () => {
    const csv = ledgerCsv(
      [entry({ at: new Date("2026-10-31T23:30:00Z"), totalCents: 5_000, vat: [], marginSchemeCents: 5_000 }), entry({ at: new Date("2026-10-31T10:00:00Z"), document: "F-2026-000002" })],
      [{ year: 2026, month: 10, vatCents: 1_300 }],
    );
    expect(linesOf(csv).slice(1)).toEqual([
      "31/10/2026;F-2026-000002;CPT-000001-0001;Marie Curie;12,00;10,00;2,00;0,00;;Carte bancaire (Stripe);pi_1",
      "31/10/2026;;;TVA sur la marge de octobre 2026 (par période);;;;;13,00;;",
      "01/11/2026;F-2026-000001;CPT-000001-0001;Marie Curie;50,00;50,00;0,00;50,00;;Carte bancaire (Stripe);pi_1",
    ]);
  });

  it("neutralises formulas in text cells and leaves negative amounts as numbers", () => {
    const [, line] = linesOf(ledgerCsv([entry({ kind: "refund", customer: '=HYPERLINK("http://evil.example","x")', reference: "+33 1 23", totalCents: -1_200, vat: [{ rateBp: 2000, vatCents: -200 }] })]));
    expect(line).toBe(`10/11/2026;F-2026-000001;CPT-000001-0001;"'=HYPERLINK(""http://evil.example"",""x"")";-12,00;-10,00;-2,00;Carte bancaire (Stripe);'+33 1 23`);
  });

  it("writes only the header for a period without receipts", () => {
    expect(linesOf(ledgerCsv([]))).toEqual(["Date;Pièce;Commande;Client;Montant TTC;Montant HT;Moyen de paiement;Référence du paiement"]);
  });
});
