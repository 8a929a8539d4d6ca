import { describe, expect, it } from "vitest";
import type { BusinessBuyer } from "./business-buyer";
import { FEC_COLUMNS, type FecDocument, type FecEntry, type FecPayment, MARGIN_VAT_FLAG, buildFecEntries, documentEntry, fecFile, fecFileName, fecSiren, letterCode, toLatin9 } from "./fec";
import { DEFAULT_FEC_ACCOUNTS, type FecAccounts, accountLabels, fecAccountsForm, fecAccountsSchema, resolveFecAccounts } from "./fec-accounts";
import type { InvoiceSnapshot } from "./invoice";
import { type InvoiceSource, buildInvoiceSnapshot } from "./invoice-snapshot";
import { EMPTY_IDENTITY } from "./shop-identity";
import type { VatScheme } from "./vat";

const COMPANY: BusinessBuyer = { companyName: "Le Repaire du Dragon SARL", siren: "732829320", vatNumber: "FR44732829320" };
/** The accountant's file: one VAT sub-account per rate, so each rate's VAT is its own line. */
const ACCOUNTS: FecAccounts = { ...DEFAULT_FEC_ACCOUNTS, vat: { 2000: "445711", 1000: "445712", 550: "445713", 210: "445714" } };

type Line = { name: string; quantity: number; unitPriceCents: number; vatRateBp: number; vatScheme?: VatScheme };

/** An order as the checkout leaves it; its stored VAT left out, so the snapshot computes it from the lines (orderVatView). */
function source(lines: Line[], order: Partial<InvoiceSource["order"]> = {}): InvoiceSource {
  const subtotal = lines.reduce((sum, line) => sum + line.unitPriceCents * line.quantity, 0);
  const shippingCents = order.shippingCents ?? 490;
  const insuranceCents = order.insuranceCents ?? 0;
  return {
    order: {
      number: "CMD-2026-0001",
      createdAt: new Date("2026-11-10T09:00:00Z"),
      paidAt: new Date("2026-11-10T09:05:00Z"),
      customerName: "Élodie Lefèvre",
      customerEmail: "elodie@example.fr",
      paymentProvider: "stripe",
      shippingMethodName: "Colissimo",
      shippingCents,
      insuranceCents,
      discountCents: 0,
      discountCode: null,
      totalCents: subtotal + shippingCents + insuranceCents,
      shippingAddress: null,
      vatRegime: "normal",
      vatBreakdown: [],
      ...order,
    },
    lines: lines.map((line) => ({ ...line, discountShareCents: 0, vatCents: 0, vatScheme: line.vatScheme ?? "normal" })),
    seller: EMPTY_IDENTITY,
  };
}

const issued = (src: InvoiceSource, kind: "invoice" | "credit_note" = "invoice", number = kind === "invoice" ? "F-2026-000001" : "A-2026-000001") =>
  buildInvoiceSnapshot(src, { kind, number, issuedAt: new Date("2026-11-10T09:05:00Z"), cancelsInvoice: kind === "credit_note" ? "F-2026-000001" : null });

const doc = (snapshot: InvoiceSnapshot, business: BusinessBuyer | null = null): FecDocument => ({ snapshot, business });
const total = (entry: Pick<FecEntry, "lines">, account?: string) => entry.lines.filter((l) => !account || l.account === account).reduce((sum, l) => sum + l.cents, 0);

/** Every rate the shop sells at, a margin-scheme card, delivery and the signature option. */
const EVERY_RATE: Line[] = [
  { name: "Booster", quantity: 3, unitPriceCents: 650, vatRateBp: 2000 },
  { name: "Jeu de société", quantity: 1, unitPriceCents: 3999, vatRateBp: 1000 },
  { name: "Manga", quantity: 2, unitPriceCents: 720, vatRateBp: 550 },
  { name: "Revue", quantity: 1, unitPriceCents: 695, vatRateBp: 210 },
  { name: "Carte d'occasion", quantity: 1, unitPriceCents: 4500, vatRateBp: 2000, vatScheme: "margin" },
];

describe("a document's entry in the sales journal", () => {
  const snapshot = issued(source(EVERY_RATE, { insuranceCents: 1000 }));
  const entry = documentEntry(doc(snapshot), ACCOUNTS);

  it("balances to the cent, the customer debited for the TTC", () => {
    expect(total(entry)).toBe(0);
    expect(entry.lines[0]).toMatchObject({ account: "411", cents: snapshot.totals.inclVatCents, aux: null });
  });

  it("credits each rate's VAT on its account, and the rate's base over the goods and the delivery", () => {
    expect(snapshot.vatBreakdown.map((row) => row.rateBp).sort()).toEqual([1000, 2000, 210, 550].sort());
    for (const row of snapshot.vatBreakdown) {
      const rate = row.rateBp as 2000 | 1000 | 550 | 210;
      expect(total(entry, ACCOUNTS.vat[rate])).toBe(-row.vatCents);
      const delivery = entry.lines.filter((l) => l.account === "7085" && l.label.endsWith(`TVA ${row.rateBp / 100}`.replace(".", ",") + "\u00a0%"));
      expect(total(entry, ACCOUNTS.sales[rate]) + total({ lines: delivery })).toBe(-row.baseCents);
    }
    expect(-total(entry, "7085")).toBe(snapshot.charges.flatMap((charge) => charge.parts ?? []).reduce((sum, part) => sum + part.exclVatCents, 0));
  });

  it("puts the margin-scheme goods, TTC, on their own account, flagged: their VAT is on a margin the shop does not know yet", () => {
    const margin = entry.lines.filter((l) => l.account === "7073");
    expect(margin).toHaveLength(1);
    expect(margin[0]).toMatchObject({ cents: -4500 });
    expect(margin[0]!.label).toContain(MARGIN_VAT_FLAG);
  });

  it("reverses every line on a credit note", () => {
    const credit = documentEntry(doc(issued(source(EVERY_RATE, { insuranceCents: 1000 }), "credit_note")), ACCOUNTS);
    expect(credit.lines.map((l) => [l.account, -l.cents])).toEqual(entry.lines.map((l) => [l.account, l.cents]));
    expect(credit.lines[0]!.label).toMatch(/^Avoir A-2026-000001 sur F-2026-000001/);
  });

  it("names the company on the customer's line with its SIREN as auxiliary account", () => {
    const b2b = documentEntry(doc(snapshot, COMPANY), ACCOUNTS);
    expect(b2b.lines[0]!.aux).toEqual({ number: "732829320", label: COMPANY.companyName });
    expect(b2b.lines.slice(1).every((l) => l.aux === null)).toBe(true);
    expect(documentEntry(doc(snapshot, { ...COMPANY, siren: null, vatNumber: "BE0403170701" }), ACCOUNTS).lines[0]!.aux?.number).toBe("BE0403170701");
  });

  it("has no VAT under the franchise: the goods on their account, the delivery on its own", () => {
    const franchise = documentEntry(doc(issued(source(EVERY_RATE, { vatRegime: "franchise" }))), ACCOUNTS);
    expect(franchise.lines.map((l) => [l.account, l.cents])).toEqual([
      ["411", 650 * 3 + 3999 + 1440 + 695 + 4500 + 490],
      ["7070", -(650 * 3 + 3999 + 1440 + 695 + 4500)],
      ["7085", -490],
    ]);
  });

  it("puts a sale taxed in the buyer's member state (OSS) on its own sales and VAT accounts, by that country's rate", () => {
    const oss = issued(source([{ name: "Booster", quantity: 4, unitPriceCents: 605, vatRateBp: 2100 }], { vatCountry: "BE", shippingCents: 1210 }));
    const lines = documentEntry(doc(oss), ACCOUNTS).lines;
    expect(new Set(lines.map((l) => l.account))).toEqual(new Set(["411", "7076", "44572"]));
    expect(lines.find((l) => l.account === "44572")).toMatchObject({ cents: -oss.totals.vatCents, label: expect.stringContaining("TVA BE 21") });
    expect(total({ lines })).toBe(0);
  });

  it("balances whatever the amounts: rounding of each rate's VAT never leaves a cent over", () => {
    let seed = 7;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const rates = [2000, 1000, 550, 210];
    for (let round = 0; round < 300; round++) {
      const lines = Array.from({ length: 1 + next(5) }, (_, i) => ({
        name: `Article ${i}`,
        quantity: 1 + next(4),
        unitPriceCents: 1 + next(9000),
        vatRateBp: rates[next(4)]!,
        vatScheme: (next(5) === 0 ? "margin" : "normal") as VatScheme,
      }));
      const src = source(lines, { shippingCents: next(1500), insuranceCents: next(2) * 1000 });
      for (const kind of ["invoice", "credit_note"] as const) {
        const snapshot = issued(src, kind);
        const entry = documentEntry(doc(snapshot), ACCOUNTS);
        expect(total(entry)).toBe(0);
        expect(entry.lines[0]!.cents).toBe(snapshot.totals.inclVatCents);
        for (const row of snapshot.vatBreakdown) {
          expect(total(entry, ACCOUNTS.vat[row.rateBp as 2000])).toBe(-row.vatCents);
          // The rate's base, over its goods and its delivery, with nothing taken by the balancing of older documents.
          const delivery = entry.lines.filter((l) => l.account === "7085" && l.label.endsWith(`TVA ${String(row.rateBp / 100).replace(".", ",")}\u00a0%`));
          expect(total(entry, ACCOUNTS.sales[row.rateBp as 2000]) + total({ lines: delivery }) + row.baseCents).toBe(0);
        }
      }
    }
  });
});

const at = (iso: string) => new Date(iso);
const payment = (overrides: Partial<FecPayment>): FecPayment => ({
  kind: "payment",
  at: at("2026-11-10T09:05:00Z"),
  orderNumber: "CMD-2026-0001",
  document: "F-2026-000001",
  amountCents: 0,
  provider: "stripe",
  reference: "pi_123",
  business: null,
  ...overrides,
});

describe("the file's entries", () => {
  const invoice = issued(source(EVERY_RATE));
  const refunded = issued(source([{ name: "Booster", quantity: 1, unitPriceCents: 650, vatRateBp: 2000 }], { shippingCents: 0 }), "credit_note", "A-2026-000001");
  const refundedAt = at("2026-11-20T10:00:00Z");
  const laterInvoice = { ...invoice, number: "F-2026-000002", issuedAt: "2026-11-15T12:00:00.000Z" };
  const entries = buildFecEntries(
    [doc(laterInvoice, COMPANY), doc({ ...refunded, issuedAt: refundedAt.toISOString() }), doc(invoice)],
    [
      payment({ kind: "refund", at: refundedAt, document: "A-2026-000001", amountCents: 650, reference: "re_1" }),
      payment({ amountCents: invoice.totals.inclVatCents }),
      payment({ at: at("2026-11-15T12:00:00Z"), document: "F-2026-000002", amountCents: invoice.totals.inclVatCents, provider: "test", reference: null, orderNumber: "CMD-2026-0002", business: COMPANY }),
    ],
    ACCOUNTS,
  );

  it("are in chronological order, a document before its payment, numbered without a gap in each journal", () => {
    expect(entries.map((e) => `${e.journal}${e.number} ${e.pieceRef}`)).toEqual([
      "VE1 F-2026-000001",
      "BQ1 pi_123",
      "VE2 F-2026-000002",
      "BQ2 CMD-2026-0002",
      "VE3 A-2026-000001",
      "BQ3 re_1",
    ]);
    for (const entry of entries) expect(total(entry)).toBe(0);
  });

  it("debits Stripe's account for a card payment, the bank for a test one, and credits it back on a refund", () => {
    expect(entries[1]!.lines.map((l) => [l.account, l.cents])).toEqual([["467", invoice.totals.inclVatCents], ["411", -invoice.totals.inclVatCents]]);
    expect(entries[3]!.lines[0]!.account).toBe("512");
    expect(entries[3]!.lines[1]!.aux?.number).toBe(COMPANY.siren);
    expect(entries[5]!.lines.map((l) => [l.account, l.cents])).toEqual([["467", -650], ["411", 650]]);
  });

  it("letters each document with the payment or refund that settles it, dated by the later", () => {
    const customer = (i: number) => entries[i]!.lines.find((l) => l.account === "411")!;
    expect([customer(0).letter, customer(1).letter]).toEqual(["AAA", "AAA"]);
    expect([customer(2).letter, customer(3).letter]).toEqual(["AAB", "AAB"]);
    expect([customer(4).letter, customer(5).letter]).toEqual(["AAC", "AAC"]);
    expect(customer(5).letteredAt).toEqual(refundedAt);
    expect(entries[1]!.lines[0]!.letter).toBeNull();
  });

  it("leaves unlettered a payment whose document is not in the file, or does not match it", () => {
    const alone = buildFecEntries([], [payment({ amountCents: 100 })], ACCOUNTS);
    expect(alone[0]!.lines[1]!.letter).toBeNull();
    const short = buildFecEntries([doc(invoice)], [payment({ amountCents: 100 })], ACCOUNTS);
    expect(short.flatMap((e) => e.lines).every((l) => l.letter === null)).toBe(true);
  });

  it("count letters past ZZZ", () => {
    expect([letterCode(0), letterCode(25), letterCode(26), letterCode(26 ** 3)]).toEqual(["AAA", "AAZ", "ABA", "BAAA"]);
  });
});

describe("the file", () => {
  const tabbed = issued(source([{ name: "Booster", quantity: 1, unitPriceCents: 650, vatRateBp: 2000 }], { shippingCents: 0 }));
  const entries = buildFecEntries(
    [doc({ ...tabbed, buyer: { ...tabbed.buyer, name: "Jean\tDupont\r\nBis" } })],
    [payment({ amountCents: 650, at: at("2026-11-30T23:30:00Z") })],
    DEFAULT_FEC_ACCOUNTS,
  );
  const text = fecFile(entries, DEFAULT_FEC_ACCOUNTS);
  const rows = text.split("\r\n");

  it("has the 18 fields' names in order, then one line per entry line, tab-separated, CR LF", () => {
    expect(rows[0]).toBe(FEC_COLUMNS.join("\t"));
    expect(rows.at(-1)).toBe("");
    const body = rows.slice(1, -1);
    expect(body).toHaveLength(entries.reduce((n, e) => n + e.lines.length, 0));
    for (const row of body) expect(row.split("\t")).toHaveLength(18);
  });

  it("writes dates AAAAMMJJ in Paris, amounts with a decimal comma, both sides given", () => {
    const [first, , , payment] = rows.slice(1).map((row) => row.split("\t"));
    expect(first!.slice(0, 13)).toEqual(["VE", "Ventes", "1", "20261110", "411", "Clients", "", "", "F-2026-000001", "20261110", "Facture F-2026-000001 - Jean Dupont Bis", "6,50", "0,00"]);
    // 23:30 UTC on 30 November is 1 December in Paris.
    expect(payment!.slice(0, 4)).toEqual(["BQ", "Encaissements et remboursements", "1", "20261201"]);
    expect(payment![5]).toBe("Stripe (paiements à recevoir)");
    expect(rows.slice(1, 4).map((row) => row.split("\t")[4])).toEqual(["411", "7071", "44571"]);
    expect(rows[3]!.split("\t").slice(11, 13)).toEqual(["0,00", "1,08"]);
  });

  it("labels an account shared by several rates by its family, one label per number", () => {
    expect(accountLabels(DEFAULT_FEC_ACCOUNTS).get("44571")).toBe("TVA collectée");
    expect(accountLabels(ACCOUNTS).get("445713")).toBe("TVA collectée 5,5\u00a0%");
  });
});

describe("ISO 8859-15", () => {
  it("keeps French letters, œ and € as Latin-9 bytes, plain forms for typographic marks", () => {
    expect([...toLatin9("é€œ’–Ł")]).toEqual([0xe9, 0xa4, 0xbd, 0x27, 0x2d, 0x3f]);
    expect([...toLatin9("ą")]).toEqual([0x61]);
  });
});

describe("the file's name", () => {
  it("is the SIREN, FEC and the period's last day", () => {
    expect(fecFileName("732829320", { year: 2026, month: 11 })).toBe("732829320FEC20261130.txt");
    expect(fecFileName("732829320", { year: 2028, month: 2 })).toBe("732829320FEC20280229.txt");
    expect(fecFileName("732829320", { year: 2026, month: null })).toBe("732829320FEC20261231.txt");
  });

  it("needs the shop's own SIREN, not the example it ships with", () => {
    expect(fecSiren("732 829 320")).toBe("732829320");
    expect(fecSiren("000 000 000")).toBeNull();
    expect(fecSiren("")).toBeNull();
  });
});

describe("the seller's accounts", () => {
  it("are digits starting with their class, refused in French otherwise", () => {
    const form = fecAccountsForm(DEFAULT_FEC_ACCOUNTS);
    expect(fecAccountsSchema.parse(form)).toEqual(DEFAULT_FEC_ACCOUNTS);
    const refused = fecAccountsSchema.safeParse({ ...form, customers: "401", vat2000: "4457a", stripe: "7071" });
    expect(refused.success).toBe(false);
    expect(refused.error!.issues.map((issue) => [issue.path[0], issue.message])).toEqual([
      ["customers", "Numéro de compte invalide : des chiffres seulement (3 à 12), qui commence par 411."],
      ["vat2000", "Numéro de compte invalide : des chiffres seulement (3 à 12), qui commence par 4457."],
      ["stripe", "Numéro de compte invalide : des chiffres seulement (3 à 12), qui commence par 46 ou 5."],
    ]);
  });

  it("read back field by field, a missing or broken one taking its default", () => {
    expect(resolveFecAccounts(null)).toEqual(DEFAULT_FEC_ACCOUNTS);
    expect(resolveFecAccounts({ ...fecAccountsForm(DEFAULT_FEC_ACCOUNTS), vat550: "445713", bank: "x" })).toEqual({ ...DEFAULT_FEC_ACCOUNTS, vat: { ...DEFAULT_FEC_ACCOUNTS.vat, 550: "445713" } });
  });
});
