import { describe, expect, it } from "vitest";
import { BUSINESS_MENTIONS, FRANCHISE_MENTION, INTRA_EU_EXEMPTION_MENTION, INVOICE_LAYOUT, MARGIN_SCHEME_MENTION, type VatBreakdownRow, documentNumber } from "./invoice";
import { type InvoiceSource, addressLines, buildInvoiceSnapshot } from "./invoice-snapshot";
import type { ShippingAddress } from "./order-view";
import { EMPTY_IDENTITY, type LegalIdentity } from "./shop-identity";
import { allocateVat } from "./vat-allocation";
import { computeOrderTotals } from "./checkout";
import { exemptSale } from "./intra-eu-exemption";

const SELLER: LegalIdentity = {
  ...EMPTY_IDENTITY,
  companyName: "Comptoir des Cartes",
  legalForm: "SASU",
  shareCapital: "1 000 €",
  rcsCity: "Paris",
  rcsNumber: "123 456 789",
  siren: "123 456 789",
  vatNumber: "FR32123456789",
  address: "12 rue des Collectionneurs, 75011 Paris",
  email: "contact@comptoir.fr",
  phone: "01 23 45 67 89",
};

const RELAY_ADDRESS: ShippingAddress = {
  method: "relay",
  fullName: "Élodie Lefèvre",
  relayPointName: "Tabac de la Gare",
  relayPointId: "123",
  line1: "2 place de la Gare",
  postalCode: "69003",
  city: "Lyon",
  country: "FR",
};

const HOME_ADDRESS: ShippingAddress = {
  method: "home",
  fullName: "Élodie Lefèvre",
  line1: "8 allée des Châtaigniers",
  line2: "Bâtiment B",
  postalCode: "1000",
  city: "Bruxelles",
  country: "BE",
};

/**
 * Two mangas at 5,5 % (2 × 7,20 €) and three boosters at 20 % (3 × 6,50 €), 10 % off (3,39 €,
 * shared 1,44 / 1,95), delivery to a relay point (4,90 €) and insurance (10 €): 45,41 € paid.
 * The charges, 14,90 €, follow the goods: 8,57 € at 20 % and 6,33 € at 5,5 %. At 20 %, 26,12 €
 * hold 21,77 € of base (21,7667 rounded), 14,63 € of it the boosters' (1 755 / 2 612 of it,
 * 1 462,71 rounded up by the larger remainder): their VAT is 2,92 €; at 5,5 %, 19,29 € hold
 * 18,28 €, 12,28 € of it the mangas': 0,68 € of VAT. As the checkout stored them.
 */
const LINES: InvoiceSource["lines"] = [
  { name: "One Piece – Tome 104", quantity: 2, unitPriceCents: 720, discountShareCents: 144, vatCents: 68, vatRateBp: 550, vatScheme: "normal" },
  { name: "Booster Écarlate et Violet", quantity: 3, unitPriceCents: 650, discountShareCents: 195, vatCents: 292, vatRateBp: 2000, vatScheme: "normal" },
];
const BREAKDOWN: VatBreakdownRow[] = [
  { rateBp: 2000, baseCents: 2177, vatCents: 435, totalCents: 2612 },
  { rateBp: 550, baseCents: 1828, vatCents: 101, totalCents: 1929 },
];
/** The delivery's and the insurance's parts by rate: 4,90 € and 10 € over 8,57 € / 6,33 €, and their parts of each rate's base. */
const DELIVERY_PARTS = [
  { rateBp: 2000, totalCents: 282, exclVatCents: 235 },
  { rateBp: 550, totalCents: 208, exclVatCents: 197 },
];
const INSURANCE_PARTS = [
  { rateBp: 2000, totalCents: 575, exclVatCents: 479 },
  { rateBp: 550, totalCents: 425, exclVatCents: 403 },
];
const PAID_AT = new Date("2026-11-26T23:30:00Z"); // 27 novembre 2026, 00:30 in Paris

function source(overrides: Partial<InvoiceSource["order"]> = {}, lines = LINES, seller = SELLER): InvoiceSource {
  return {
    order: {
      number: "CMD-2026-1187",
      createdAt: new Date("2026-11-26T23:10:00Z"),
      paidAt: PAID_AT,
      customerName: "Élodie Lefèvre",
      customerEmail: "elodie@example.fr",
      paymentProvider: "stripe",
      shippingMethodName: "Mondial Relay",
      shippingCents: 490,
      insuranceCents: 1000,
      discountCents: 339,
      discountCode: "BIENVENUE",
      totalCents: 4541,
      shippingAddress: RELAY_ADDRESS,
      vatRegime: "normal",
      vatBreakdown: BREAKDOWN,
      ...overrides,
    },
    lines,
    seller,
  };
}

const invoiceOf = (src: InvoiceSource) => buildInvoiceSnapshot(src, { kind: "invoice", number: "F-2026-000042", issuedAt: new Date("2026-11-27T08:00:00Z") });

const PAYMENT_AND_GUARANTEES =
  "Montants en euros. Garantie légale de conformité (art. L217-3 et suivants du Code de la consommation) et garantie des vices cachés (art. 1641 et suivants du Code civil).";

describe("the order this file invoices", () => {
  it("has the discount shares and the breakdown allocateVat gives", () => {
    const allocation = allocateVat(
      LINES.map((line) => ({ totalCents: line.unitPriceCents * line.quantity, vatRateBp: line.vatRateBp as 550 | 2000, vatScheme: line.vatScheme })),
      339,
      490 + 1000,
      false,
    );
    expect(allocation.lines.map((line) => line.discountShareCents)).toEqual([144, 195]);
    expect(allocation.lines.map((line) => line.vatCents)).toEqual([68, 292]);
    expect(allocation.breakdown).toEqual(BREAKDOWN);
    expect(2 * 720 + 3 * 650 + 1000 - 339 + 490).toBe(4541);
  });
});

describe("buildInvoiceSnapshot", () => {
  it("gives the document's layout, number, dates and order", () => {
    const snapshot = invoiceOf(source());
    expect(INVOICE_LAYOUT).toBe(2);
    expect(snapshot).toMatchObject({
      layout: 2,
      kind: "invoice",
      number: "F-2026-000042",
      issuedAt: "2026-11-27T08:00:00.000Z",
      cancelsInvoice: null,
      orderNumber: "CMD-2026-1187",
      orderedAt: "2026-11-26T23:10:00.000Z",
      paidAt: "2026-11-26T23:30:00.000Z",
      paymentMethod: "Carte bancaire (Stripe)",
      vatRegime: "normal",
    });
  });

  it("names a test payment as such", () => {
    expect(invoiceOf(source({ paymentProvider: "test" })).paymentMethod).toBe("Carte bancaire (paiement de test)");
  });

  it("gives each line its unit price before VAT, its totals after its share of the discount, TTC and before VAT, and its rate", () => {
    expect(invoiceOf(source()).lines).toEqual([
      // 7,20 € / 1,055 = 6,8246 €; 12,96 € − 0,68 € of VAT.
      { name: "One Piece – Tome 104", quantity: 2, unitPriceCents: 720, totalCents: 1296, vatRateBp: 550, vatScheme: "normal", unitPriceExclVatCents: 682, totalExclVatCents: 1228 },
      // 6,50 € / 1,2 = 5,4167 €; 17,55 € − 2,92 €.
      { name: "Booster Écarlate et Violet", quantity: 3, unitPriceCents: 650, totalCents: 1755, vatRateBp: 2000, vatScheme: "normal", unitPriceExclVatCents: 542, totalExclVatCents: 1463 },
    ]);
  });

  it("lists the delivery and the insurance as charges with their parts by rate, and the discount with its code", () => {
    const snapshot = invoiceOf(source());
    expect(snapshot.charges).toEqual([
      { label: "Livraison – Mondial Relay", totalCents: 490, parts: DELIVERY_PARTS },
      { label: "Remise contre signature", totalCents: 1000, parts: INSURANCE_PARTS },
    ]);
    expect(snapshot.discount).toEqual({ code: "BIENVENUE", cents: 339 });
  });

  it("leaves the insurance out when it was not taken, and the discount when there was none", () => {
    const snapshot = invoiceOf(source({ insuranceCents: 0, discountCents: 0, discountCode: null }));
    // (The rows this file stores were made with the insurance: they no longer add up, the rule computes them again.)
    expect(snapshot.charges.map((charge) => [charge.label, charge.totalCents])).toEqual([["Livraison – Mondial Relay", 490]]);
    expect(snapshot.discount).toBeNull();
  });

  it("keeps a discount without a code", () => {
    expect(invoiceOf(source({ discountCode: null })).discount).toEqual({ code: null, cents: 339 });
  });

  it("totals: TTC the order's total, VAT the breakdown's, HT its bases'", () => {
    const snapshot = invoiceOf(source());
    expect(snapshot.vatBreakdown).toEqual(BREAKDOWN);
    expect(snapshot.totals).toEqual({ inclVatCents: 4541, vatCents: 536, exclVatCents: 4005, marginSchemeCents: 0 });
    // The lines and charges add up to the total paid, TTC; before VAT, to each rate's base.
    expect(snapshot.lines.reduce((sum, line) => sum + line.totalCents, 0) + snapshot.charges.reduce((sum, charge) => sum + charge.totalCents, 0)).toBe(4541);
    expect(1463 + DELIVERY_PARTS[0]!.exclVatCents + INSURANCE_PARTS[0]!.exclVatCents).toBe(2177);
    expect(1228 + DELIVERY_PARTS[1]!.exclVatCents + INSURANCE_PARTS[1]!.exclVatCents).toBe(1828);
  });

  it("prints the figures an order placed before the per-rate rule stored: its rows and its lines' VAT", () => {
    // The same order as stored until issue 51: each line's VAT rounded on its own (0,6756 € →
    // 0,68 €, 2,925 € → 2,93 €), the charges' too, summed by rate: 21,76 € + 4,36 € at 20 %.
    const before: VatBreakdownRow[] = [
      { rateBp: 2000, baseCents: 2176, vatCents: 436, totalCents: 2612 },
      { rateBp: 550, baseCents: 1828, vatCents: 101, totalCents: 1929 },
    ];
    const lines = [{ ...LINES[0]!, vatCents: 68 }, { ...LINES[1]!, vatCents: 293 }];
    const snapshot = invoiceOf(source({ vatBreakdown: before }, lines));
    expect(snapshot.vatBreakdown).toEqual(before);
    expect(snapshot.lines.map((line) => line.totalExclVatCents)).toEqual([1228, 1462]);
    // The charges take the rest of each rate's base: 21,76 € − 14,62 € at 20 %, 18,28 € − 12,28 € at 5,5 %.
    const parts = snapshot.charges.flatMap((charge) => charge.parts ?? []);
    expect([2000, 550].map((rate) => parts.filter((part) => part.rateBp === rate).reduce((sum, part) => sum + part.exclVatCents, 0))).toEqual([714, 600]);
    expect(snapshot.totals).toEqual({ inclVatCents: 4541, vatCents: 537, exclVatCents: 4004, marginSchemeCents: 0 });
  });

  it("computes the VAT again from the lines when the stored figures do not add up", () => {
    const computed = invoiceOf(source());
    // No breakdown stored, or the lines' VAT lost: the rule gives what the checkout would have stored.
    expect(invoiceOf(source({ vatBreakdown: [] }))).toEqual(computed);
    expect(invoiceOf(source({}, LINES.map((line) => ({ ...line, vatCents: 0 }))))).toEqual(computed);
    expect(invoiceOf(source({ vatBreakdown: BREAKDOWN.map((row) => ({ ...row, totalCents: row.totalCents + 1, baseCents: row.baseCents + 1 })) }))).toEqual(computed);
  });

  it("puts the charges at 20 % beside margin-scheme goods only, and gives a free delivery no part", () => {
    const card = { name: "Carte d'occasion", quantity: 1, unitPriceCents: 2500, discountShareCents: 0, vatCents: 0, vatRateBp: 2000, vatScheme: "margin" as const };
    const snapshot = invoiceOf(
      source({ insuranceCents: 0, discountCents: 0, totalCents: 2990, vatBreakdown: [{ rateBp: 2000, baseCents: 408, vatCents: 82, totalCents: 490 }] }, [card]),
    );
    expect(snapshot.charges).toEqual([{ label: "Livraison – Mondial Relay", totalCents: 490, parts: [{ rateBp: 2000, totalCents: 490, exclVatCents: 408 }] }]);
    expect(snapshot.totals).toEqual({ inclVatCents: 2990, vatCents: 82, exclVatCents: 408, marginSchemeCents: 2500 });
    const free = invoiceOf(source({ shippingCents: 0, insuranceCents: 0, discountCents: 0, totalCents: 2500, vatBreakdown: [] }, [card]));
    expect(free.charges).toEqual([{ label: "Livraison – Mondial Relay", totalCents: 0, parts: [] }]);
    expect(free.totals).toEqual({ inclVatCents: 2500, vatCents: 0, exclVatCents: 0, marginSchemeCents: 2500 });
  });

  it("says the invoice was paid by card on the Paris day", () => {
    const snapshot = invoiceOf(source());
    expect(snapshot.mentions).toEqual(["Facture acquittée le 27 novembre 2026 par carte bancaire.", PAYMENT_AND_GUARANTEES]);
    // Summer time: 22:30 UTC is 00:30 the next day in Paris.
    expect(invoiceOf(source({ paidAt: new Date("2026-07-14T22:30:00Z") })).mentions[0]).toBe("Facture acquittée le 15 juillet 2026 par carte bancaire.");
    expect(invoiceOf(source({ paidAt: new Date("2026-11-26T22:59:59Z") })).mentions[0]).toBe("Facture acquittée le 26 novembre 2026 par carte bancaire.");
  });

  it("says an invoice not paid yet is to be paid by card", () => {
    const snapshot = invoiceOf(source({ paidAt: null }));
    expect(snapshot.paidAt).toBeNull();
    expect(snapshot.mentions).toEqual(["Facture à régler par carte bancaire.", PAYMENT_AND_GUARANTEES]);
  });

  it("shows no VAT at all under the franchise", () => {
    const snapshot = invoiceOf(source({ vatRegime: "franchise" }));
    expect(snapshot.vatRegime).toBe("franchise");
    expect(snapshot.vatBreakdown).toEqual([]);
    expect(snapshot.lines.map((line) => [line.vatRateBp, line.unitPriceExclVatCents, line.totalExclVatCents])).toEqual([
      [null, null, null],
      [null, null, null],
    ]);
    expect(snapshot.lines.map((line) => line.totalCents)).toEqual([1296, 1755]);
    expect(snapshot.charges.map((charge) => charge.parts)).toEqual([[], []]);
    // No VAT and nothing apart: "HT" is the total, which the PDF does not print as such.
    expect(snapshot.totals).toEqual({ inclVatCents: 4541, vatCents: 0, exclVatCents: 4541, marginSchemeCents: 0 });
    expect(snapshot.mentions).toEqual([FRANCHISE_MENTION, "Facture acquittée le 27 novembre 2026 par carte bancaire.", PAYMENT_AND_GUARANTEES]);
    expect(FRANCHISE_MENTION).toBe("TVA non applicable, art. 293 B du CGI");
  });

  it("shows no rate on a second-hand line and says it is under the margin scheme", () => {
    const card = { name: "Dracaufeu ex 199/165 (occasion)", quantity: 1, unitPriceCents: 2500, discountShareCents: 250, vatCents: 0, vatRateBp: 2000, vatScheme: "margin" as const };
    const snapshot = invoiceOf(source({ totalCents: 4541 + 2250 }, [...LINES, card]));
    expect(snapshot.lines[2]).toEqual({
      name: "Dracaufeu ex 199/165 (occasion)",
      quantity: 1,
      unitPriceCents: 2500,
      totalCents: 2250,
      vatRateBp: null,
      vatScheme: "margin",
      unitPriceExclVatCents: null,
      totalExclVatCents: null,
    });
    // Apart from "Total HT": HT + VAT + the margin-scheme goods = TTC.
    expect(snapshot.totals).toEqual({ inclVatCents: 6791, vatCents: 536, exclVatCents: 4005, marginSchemeCents: 2250 });
    expect(snapshot.mentions).toEqual([
      "Régime particulier – Biens d'occasion (articles marqués « Occasion »)",
      "Facture acquittée le 27 novembre 2026 par carte bancaire.",
      PAYMENT_AND_GUARANTEES,
    ]);
    expect(MARGIN_SCHEME_MENTION).toBe("Régime particulier – Biens d'occasion");
  });

  it("gives the margin scheme's mention only once under the franchise: the franchise's", () => {
    const card = { name: "Carte d'occasion", quantity: 1, unitPriceCents: 2500, discountShareCents: 0, vatCents: 0, vatRateBp: 2000, vatScheme: "margin" as const };
    const snapshot = invoiceOf(source({ vatRegime: "franchise", totalCents: 4541 + 2500 }, [...LINES, card]));
    expect(snapshot.totals).toEqual({ inclVatCents: 7041, vatCents: 0, exclVatCents: 7041, marginSchemeCents: 0 });
    expect(snapshot.lines[2]!.vatRateBp).toBeNull();
    expect(snapshot.mentions.filter((mention) => mention.startsWith(MARGIN_SCHEME_MENTION))).toEqual([]);
    expect(snapshot.mentions[0]).toBe(FRANCHISE_MENTION);
  });

  it("prints the seller's legal identity", () => {
    expect(invoiceOf(source()).seller).toEqual({
      name: "Comptoir des Cartes",
      legalForm: "société par actions simplifiée unipersonnelle (SASU)",
      shareCapital: "1 000 €",
      address: "12 rue des Collectionneurs, 75011 Paris",
      siren: "123 456 789",
      rcs: "RCS Paris 123 456 789",
      vatNumber: "FR32123456789",
      email: "contact@comptoir.fr",
      phone: "01 23 45 67 89",
    });
  });

  it("leaves out of the seller what was not given", () => {
    const seller = invoiceOf(source({}, LINES, { ...SELLER, legalForm: "", shareCapital: "", rcsCity: "" })).seller;
    expect(seller).toMatchObject({ legalForm: "", shareCapital: "", rcs: "123 456 789" });
    expect(invoiceOf(source({}, LINES, { ...SELLER, rcsNumber: "" })).seller.rcs).toBe("RCS Paris");
    expect(invoiceOf(source({}, LINES, { ...SELLER, rcsCity: "", rcsNumber: "" })).seller.rcs).toBe("");
    expect(invoiceOf(source({}, LINES, { ...SELLER, legalForm: "sarl" })).seller.legalForm).toBe("société à responsabilité limitée (SARL)");
    expect(invoiceOf(source({}, LINES, { ...SELLER, legalForm: "Association" })).seller.legalForm).toBe("Association");
  });

  it("names an entrepreneur individuel with « EI », without capital, at the RNE or the RCS (issue 52)", () => {
    const ei = { ...SELLER, companyName: "Jeanne Martin", legalForm: "EI", shareCapital: "", rcsCity: "", rcsNumber: "", vatNumber: "" };
    expect(invoiceOf(source({}, LINES, ei)).seller).toMatchObject({ name: "Jeanne Martin EI", legalForm: "", shareCapital: "", rcs: "Registre national des entreprises (RNE)", vatNumber: "" });
    expect(invoiceOf(source({}, LINES, { ...ei, rcsCity: "Paris", rcsNumber: "123 456 789" })).seller.rcs).toBe("RCS Paris 123 456 789");
  });

  it("gives the buyer no address for a relay delivery, and the relay point's as the delivery's", () => {
    const snapshot = invoiceOf(source());
    expect(snapshot.buyer).toEqual({ name: "Élodie Lefèvre", email: "elodie@example.fr", addressLines: [] });
    expect(snapshot.delivery).toEqual({ methodName: "Mondial Relay", addressLines: ["Point relais : Tabac de la Gare (n° 123)", "2 place de la Gare", "69003 Lyon", "France"] });
  });

  it("names the buyer at the billing address the order stored, the relay point staying the delivery's (issue 51)", () => {
    const billingAddress = { fullName: "Pierre Lefèvre", line1: "14 rue Mercière", line2: "3e étage", postalCode: "69002", city: "Lyon", country: "FR" };
    const snapshot = invoiceOf(source({ billingAddress }));
    expect(snapshot.buyer).toEqual({
      name: "Pierre Lefèvre",
      email: "elodie@example.fr",
      addressLines: ["Pierre Lefèvre", "14 rue Mercière", "3e étage", "69002 Lyon", "France"],
    });
    expect(snapshot.delivery).toEqual({ methodName: "Mondial Relay", addressLines: ["Point relais : Tabac de la Gare (n° 123)", "2 place de la Gare", "69003 Lyon", "France"] });
    // A home delivery billed elsewhere: the two blocks differ.
    const home = invoiceOf(source({ shippingMethodName: "Colissimo suivi", shippingAddress: HOME_ADDRESS, billingAddress: { ...billingAddress, line2: undefined } }));
    expect(home.buyer.addressLines).toEqual(["Pierre Lefèvre", "14 rue Mercière", "69002 Lyon", "France"]);
    expect(home.delivery?.addressLines[1]).toBe("8 allée des Châtaigniers");
    // An order from before (no billing address): as before.
    expect(invoiceOf(source({ billingAddress: null })).buyer.addressLines).toEqual([]);
  });

  it("gives the buyer the home address of a home delivery", () => {
    const snapshot = invoiceOf(source({ shippingMethodName: "Colissimo suivi", shippingAddress: HOME_ADDRESS }));
    const lines = ["Élodie Lefèvre", "8 allée des Châtaigniers", "Bâtiment B", "1000 Bruxelles", "Belgique"];
    expect(snapshot.buyer.addressLines).toEqual(lines);
    expect(snapshot.delivery).toEqual({ methodName: "Colissimo suivi", addressLines: lines });
    expect(snapshot.charges[0]).toEqual({ label: "Livraison – Colissimo suivi", totalCents: 490, parts: DELIVERY_PARTS });
  });

  it("names the buyer from the address when the order has no name, and leaves blanks for nothing known", () => {
    expect(invoiceOf(source({ customerName: null, shippingAddress: HOME_ADDRESS })).buyer.name).toBe("Élodie Lefèvre");
    expect(invoiceOf(source({ customerName: null, customerEmail: null, shippingAddress: null })).buyer).toEqual({ name: "", email: "", addressLines: [] });
  });

  it("has no delivery block for an order from before delivery methods", () => {
    const snapshot = invoiceOf(source({ shippingMethodName: null, shippingCents: 0, shippingAddress: null }));
    expect(snapshot.delivery).toBeNull();
  });

  describe("the credit note", () => {
    const invoice = invoiceOf(source());
    const creditNote = buildInvoiceSnapshot(source(), { kind: "credit_note", number: "A-2026-000007", issuedAt: new Date("2026-12-02T23:15:00Z"), cancelsInvoice: "F-2026-000042" });

    it("names the invoice it cancels", () => {
      expect(creditNote).toMatchObject({ kind: "credit_note", number: "A-2026-000007", cancelsInvoice: "F-2026-000042", orderNumber: "CMD-2026-1187", issuedAt: "2026-12-02T23:15:00.000Z" });
    });

    it("negates the lines' totals, the charges, the discount, the breakdown and the totals", () => {
      expect(creditNote.layout).toBe(2);
      expect(creditNote.lines.map((line) => line.totalCents)).toEqual([-1296, -1755]);
      expect(creditNote.lines.map((line) => [line.unitPriceExclVatCents, line.totalExclVatCents])).toEqual([
        [-682, -1228],
        [-542, -1463],
      ]);
      // Every amount, the unit prices included: "2 × −7,20 €", never "2 × 7,20 € → −14,40 €".
      expect(creditNote.lines.map((line) => line.unitPriceCents)).toEqual([-720, -650]);
      expect(creditNote.lines.map((line) => line.vatRateBp)).toEqual([550, 2000]);
      expect(creditNote.charges).toEqual(
        invoice.charges.map((charge) => ({ ...charge, totalCents: -charge.totalCents, parts: charge.parts!.map((part) => ({ ...part, totalCents: -part.totalCents, exclVatCents: -part.exclVatCents })) })),
      );
      expect(creditNote.discount).toEqual({ code: "BIENVENUE", cents: -339 });
      expect(creditNote.vatBreakdown).toEqual([
        { rateBp: 2000, baseCents: -2177, vatCents: -435, totalCents: -2612 },
        { rateBp: 550, baseCents: -1828, vatCents: -101, totalCents: -1929 },
      ]);
      expect(creditNote.totals).toEqual({ inclVatCents: -4541, vatCents: -536, exclVatCents: -4005, marginSchemeCents: 0 });
    });

    it("negates the margin-scheme total and keeps its mention", () => {
      const card = { name: "Carte d'occasion", quantity: 1, unitPriceCents: 2500, discountShareCents: 250, vatCents: 0, vatRateBp: 2000, vatScheme: "margin" as const };
      const note = buildInvoiceSnapshot(source({ totalCents: 6791 }, [...LINES, card]), { kind: "credit_note", number: "A-2026-000008", issuedAt: new Date("2026-12-02T10:00:00Z"), cancelsInvoice: "F-2026-000043" });
      expect(note.totals).toEqual({ inclVatCents: -6791, vatCents: -536, exclVatCents: -4005, marginSchemeCents: -2250 });
      expect(note.lines[2]).toMatchObject({ totalCents: -2250, unitPriceCents: -2500, vatRateBp: null, unitPriceExclVatCents: null, totalExclVatCents: null });
      expect(note.mentions[0]).toBe("Régime particulier – Biens d'occasion (articles marqués « Occasion »)");
    });

    it("says it was refunded on the Paris day it was issued", () => {
      expect(creditNote.mentions).toEqual(["Avoir remboursé le 3 décembre 2026 sur le moyen de paiement d'origine.", PAYMENT_AND_GUARANTEES]);
    });

    it("cancels no invoice when none is named", () => {
      expect(buildInvoiceSnapshot(source(), { kind: "credit_note", number: "A-2026-000009", issuedAt: new Date("2026-12-02T10:00:00Z") }).cancelsInvoice).toBeNull();
    });

    it("keeps the seller, the buyer and the delivery of the invoice", () => {
      expect(creditNote.seller).toEqual(invoice.seller);
      expect(creditNote.buyer).toEqual(invoice.buyer);
      expect(creditNote.delivery).toEqual(invoice.delivery);
    });
  });
});

describe("addressLines", () => {
  it("gives nothing for no address", () => {
    expect(addressLines(null)).toEqual([]);
  });

  it("writes a relay point with its number, its address and its country", () => {
    expect(addressLines(RELAY_ADDRESS)).toEqual(["Point relais : Tabac de la Gare (n° 123)", "2 place de la Gare", "69003 Lyon", "France"]);
    expect(addressLines({ ...RELAY_ADDRESS, line2: "Galerie marchande", country: "ES", postalCode: "28001", city: "Madrid" })).toEqual([
      "Point relais : Tabac de la Gare (n° 123)",
      "2 place de la Gare",
      "Galerie marchande",
      "28001 Madrid",
      "Espagne",
    ]);
  });

  it("writes a relay point without its number when it has none", () => {
    expect(addressLines({ ...RELAY_ADDRESS, relayPointId: undefined })[0]).toBe("Point relais : Tabac de la Gare");
  });

  it("writes a home address: name, lines, postal code and city, country", () => {
    expect(addressLines(HOME_ADDRESS)).toEqual(["Élodie Lefèvre", "8 allée des Châtaigniers", "Bâtiment B", "1000 Bruxelles", "Belgique"]);
    expect(addressLines({ ...HOME_ADDRESS, line2: undefined, country: "FR", postalCode: "75011", city: "Paris" })).toEqual(["Élodie Lefèvre", "8 allée des Châtaigniers", "75011 Paris", "France"]);
  });

  it("leaves out an empty name or line", () => {
    expect(addressLines({ ...HOME_ADDRESS, fullName: "", line2: "" })).toEqual(["8 allée des Châtaigniers", "1000 Bruxelles", "Belgique"]);
  });

  it("writes a country it does not know by its code", () => {
    expect(addressLines({ ...HOME_ADDRESS, country: "CH" }).at(-1)).toBe("CH");
  });
});

describe("documentNumber", () => {
  it("numbers invoices F- and credit notes A-, the year, then six digits", () => {
    expect(documentNumber("invoice", 2026, 42)).toBe("F-2026-000042");
    expect(documentNumber("credit_note", 2026, 7)).toBe("A-2026-000007");
    expect(documentNumber("invoice", 2027, 1)).toBe("F-2027-000001");
    expect(documentNumber("invoice", 2026, 999_999)).toBe("F-2026-999999");
    expect(documentNumber("invoice", 2026, 1_234_567)).toBe("F-2026-1234567");
  });
});

describe("buildInvoiceSnapshot for an « Achat professionnel » (issue 53)", () => {
  const BUSINESS = { companyName: "Ludothèque du Centre SARL", siren: "732829320", vatNumber: "FR44732829320", country: "FR" };
  const BILLING = { fullName: "Paul Martin", line1: "4 rue du Jeu", postalCode: "69002", city: "Lyon", country: "FR" };

  it("names the company and prints the professional mentions in their order", () => {
    const snapshot = invoiceOf(source({ businessBuyer: BUSINESS, billingAddress: BILLING }));
    expect(snapshot.buyer).toEqual({
      name: "Paul Martin",
      email: "elodie@example.fr",
      addressLines: ["Paul Martin", "4 rue du Jeu", "69002 Lyon", "France"],
      business: { companyName: "Ludothèque du Centre SARL", siren: "732829320", vatNumber: "FR44732829320", country: "FR" },
    });
    expect(snapshot.mentions).toEqual([
      BUSINESS_MENTIONS.operation,
      "Facture acquittée le 27 novembre 2026 par carte bancaire.",
      "Conditions de paiement : comptant, à la commande. Pas d'escompte pour paiement anticipé.",
      "Pénalités de retard : trois fois le taux d'intérêt légal, exigibles dès le jour suivant la date de règlement, sans qu'un rappel soit nécessaire (art. L441-10 du Code de commerce).",
      "Indemnité forfaitaire pour frais de recouvrement : 40 € (art. L441-10 et D441-5 du Code de commerce).",
      "Montants en euros. Garantie des vices cachés (art. 1641 et suivants du Code civil).",
    ]);
    // The amounts are the consumer's: only who is invoiced and the mentions change.
    const consumer = invoiceOf(source({ billingAddress: BILLING }));
    expect({ ...snapshot, buyer: null, mentions: null }).toEqual({ ...consumer, buyer: null, mentions: null });
  });

  it("keeps a consumer's invoice as it was, and gives a credit note the company too", () => {
    const consumer = invoiceOf(source({ businessBuyer: null }));
    expect(consumer.buyer.business).toBeUndefined();
    expect(consumer.mentions.at(-1)).toBe(PAYMENT_AND_GUARANTEES);
    expect(consumer.mentions.some((mention) => mention.includes("40 €") || mention.startsWith("Catégorie"))).toBe(false);
    expect(invoiceOf(source({ businessBuyer: null }))).toEqual(invoiceOf(source()));

    const credit = buildInvoiceSnapshot(source({ businessBuyer: { ...BUSINESS, siren: null, vatNumber: "BE0411905847", country: "BE" }, billingAddress: { ...BILLING, postalCode: "1000", city: "Bruxelles", country: "BE" } }), {
      kind: "credit_note",
      number: "A-2026-000003",
      issuedAt: new Date("2026-11-28T08:00:00Z"),
      cancelsInvoice: "F-2026-000042",
    });
    expect(credit.buyer.business).toEqual({ companyName: "Ludothèque du Centre SARL", siren: null, vatNumber: "BE0411905847", country: "BE" });
    expect(credit.mentions).toContain(BUSINESS_MENTIONS.indemnity);
  });
});

describe("buildInvoiceSnapshot for an exempt intra-EU supply (docs/decisions/054)", () => {
  it("shows the lines and the delivery at 0 % before VAT, no VAT, and the 262 ter I mention with both VAT numbers", () => {
    const company = { companyName: "Spielwaren Weber GmbH", siren: null, vatNumber: "DE136695976", country: "DE" };
    const priced = [
      { name: "Booster", quantity: 2, unitPriceCents: 1200, vatRateBp: 2000, vatScheme: "normal" as const },
      { name: "Carte d'occasion", quantity: 1, unitPriceCents: 2500, vatRateBp: 2000, vatScheme: "margin" as const },
    ];
    const sale = exemptSale(priced, computeOrderTotals(priced, false, 0, 990));
    const snapshot = invoiceOf(
      source(
        { ...sale.totals, discountCode: null, vatRegime: "intra_eu_exempt", vatBreakdown: sale.vat.breakdown, businessBuyer: company, billingAddress: { fullName: "Jonas Weber", line1: "Friedrichstraße 12", postalCode: "10117", city: "Berlin", country: "DE" } },
        sale.lines.map((line, i) => ({ ...line, discountShareCents: sale.vat.lines[i]!.discountShareCents, vatCents: sale.vat.lines[i]!.vatCents })),
      ),
    );
    expect(snapshot.lines.map((line) => [line.unitPriceCents, line.vatRateBp, line.unitPriceExclVatCents, line.totalExclVatCents])).toEqual([
      [1000, 0, 1000, 2000],
      [2500, null, null, null],
    ]);
    expect(snapshot.charges).toEqual([{ label: "Livraison – Mondial Relay", totalCents: 825, parts: [{ rateBp: 0, totalCents: 825, exclVatCents: 825 }] }]);
    expect(snapshot.totals).toEqual({ exclVatCents: 2825, vatCents: 0, inclVatCents: 5325, marginSchemeCents: 2500 });
    expect(snapshot.mentions.slice(0, 3)).toEqual([
      BUSINESS_MENTIONS.operation,
      `${MARGIN_SCHEME_MENTION} (articles marqués « Occasion »)`,
      `${INTRA_EU_EXEMPTION_MENTION} : livraison intracommunautaire de biens. N° de TVA du vendeur : ${SELLER.vatNumber} ; n° de TVA de l'acquéreur : DE136695976.`,
    ]);
  });
});
