import { describe, expect, it } from "vitest";
import type { Invoice } from "@e-invoice-eu/core";
import { buildRefundCreditNote } from "./credit-note-snapshot";
import { facturXInvoice, isBusinessDocument } from "./facturx-invoice";
import { type RefundableOrder, computeRefund } from "./partial-refund";
import type { InvoiceSnapshot } from "./invoice";
import { type InvoiceSource, buildInvoiceSnapshot } from "./invoice-snapshot";
import { EMPTY_IDENTITY } from "./shop-identity";
import { allocateVat } from "./vat-allocation";

/**
 * A club buys two mangas at 5,5 %, three boosters at 20 % and a second-hand card under the margin
 * scheme, 5,89 € off (code BIENVENUE), Colissimo and the signature: the amounts the checkout
 * stores (allocateVat), the snapshot the PDF is printed from.
 */
function businessSource(options: { franchise?: boolean; sellerVatNumber?: string } = {}): InvoiceSource {
  const goods = [
    { name: "One Piece – Tome 104", quantity: 2, unitPriceCents: 720, vatRateBp: 550, vatScheme: "normal" as const },
    { name: "Booster Écarlate et Violet", quantity: 3, unitPriceCents: 650, vatRateBp: 2000, vatScheme: "normal" as const },
    { name: "Dracaufeu ex 199/165 (occasion)", quantity: 1, unitPriceCents: 2500, vatRateBp: 2000, vatScheme: "margin" as const },
  ];
  const franchise = options.franchise ?? false;
  const discountCents = 589;
  const vat = allocateVat(
    goods.map((good) => ({ totalCents: good.unitPriceCents * good.quantity, vatRateBp: good.vatRateBp, vatScheme: good.vatScheme })),
    discountCents,
    690 + 120,
    franchise,
  );
  return {
    order: {
      number: "CMD-2026-1187",
      createdAt: new Date("2026-11-22T22:40:00Z"),
      paidAt: new Date("2026-11-22T23:41:00Z"),
      customerName: "Élodie Lefèvre",
      customerEmail: "compta@club-dracaufeu.fr",
      paymentProvider: "stripe",
      shippingMethodName: "Colissimo suivi",
      shippingCents: 690,
      insuranceCents: 120,
      discountCents,
      discountCode: "BIENVENUE",
      totalCents: goods.reduce((sum, good) => sum + good.unitPriceCents * good.quantity, 0) - discountCents + 690 + 120,
      shippingAddress: { method: "home", fullName: "Élodie Lefèvre", line1: "8 allée des Châtaigniers", postalCode: "69003", city: "Lyon", country: "FR" },
      billingAddress: { fullName: "Élodie Lefèvre", line1: "14 rue Mercière", line2: "3e étage", postalCode: "69002", city: "Lyon", country: "FR" },
      vatRegime: franchise ? "franchise" : "normal",
      vatBreakdown: vat.breakdown,
    },
    lines: goods.map((good, i) => ({ ...good, discountShareCents: vat.lines[i]!.discountShareCents, vatCents: vat.lines[i]!.vatCents })),
    seller: {
      ...EMPTY_IDENTITY,
      companyName: "Comptoir des Cartes",
      legalForm: "SASU",
      shareCapital: "1 000 €",
      rcsCity: "Paris",
      rcsNumber: "123 456 782",
      siren: "123 456 782",
      vatNumber: options.sellerVatNumber ?? "FR32123456782",
      address: "12 rue des Collectionneurs\n75011 Paris",
      email: "contact@comptoir.fr",
      phone: "01 23 45 67 89",
    },
  };
}

const CLUB = { companyName: "Club Dracaufeu Lyon", siren: "732829320", vatNumber: "FR44732829320", country: "FR" };

/** As the checkout's snapshot will name the company (issue 53, point 1). */
function business(snapshot: InvoiceSnapshot): InvoiceSnapshot {
  return { ...snapshot, buyer: { ...snapshot.buyer, business: CLUB } };
}

const invoiceOf = (source: InvoiceSource) => business(buildInvoiceSnapshot(source, { kind: "invoice", number: "F-2026-000042", issuedAt: new Date("2026-11-22T23:41:05Z") }));

const cents = (decimal: string | undefined) => {
  expect(decimal).toMatch(/^-?\d+\.\d{2}$/);
  return Math.round(Number(decimal) * 100);
};
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/**
 * EN 16931's calculation rules on the data, as a receiving platform applies them: BR-CO-10
 * (the lines' sum), BR-CO-11/12/13 (allowances, charges, the total before VAT), BR-CO-14 and
 * BR-CO-15 (VAT, TTC), BR-CO-16 (due), BR-S-08 / BR-E-08 (each category's base is its lines,
 * charges and allowances).
 */
function expectConsistent(data: Invoice) {
  const invoice = data["ubl:Invoice"];
  const totals = invoice["cac:LegalMonetaryTotal"];
  const lines = invoice["cac:InvoiceLine"];
  const documentLevel = invoice["cac:AllowanceCharge"] ?? [];
  const lineNet = (line: (typeof lines)[number]) => cents(line["cbc:LineExtensionAmount"]);
  expect(sum(lines.map(lineNet))).toBe(cents(totals["cbc:LineExtensionAmount"]));
  for (const line of lines) {
    const adjustments = line["cac:AllowanceCharge"] ?? [];
    const signed = sum(adjustments.map((ac) => (ac["cbc:ChargeIndicator"] === "true" ? 1 : -1) * cents(ac["cbc:Amount"])));
    // The line's net amount is its quantity times its net price, less its share of the discount.
    expect(Number(line["cbc:InvoicedQuantity"]) * cents(line["cac:Price"]["cbc:PriceAmount"]) + signed).toBe(lineNet(line));
  }
  const allowances = sum(documentLevel.filter((ac) => ac["cbc:ChargeIndicator"] === "false").map((ac) => cents(ac["cbc:Amount"])));
  const charges = sum(documentLevel.filter((ac) => ac["cbc:ChargeIndicator"] === "true").map((ac) => cents(ac["cbc:Amount"])));
  expect(allowances).toBe(totals["cbc:AllowanceTotalAmount"] ? cents(totals["cbc:AllowanceTotalAmount"]) : 0);
  expect(charges).toBe(totals["cbc:ChargeTotalAmount"] ? cents(totals["cbc:ChargeTotalAmount"]) : 0);
  expect(cents(totals["cbc:LineExtensionAmount"]) - allowances + charges).toBe(cents(totals["cbc:TaxExclusiveAmount"]));
  const tax = invoice["cac:TaxTotal"][0];
  const subtotals = tax["cac:TaxSubtotal"] ?? [];
  expect(sum(subtotals.map((row) => cents(row["cbc:TaxAmount"])))).toBe(cents(tax["cbc:TaxAmount"]));
  expect(cents(totals["cbc:TaxExclusiveAmount"]) + cents(tax["cbc:TaxAmount"])).toBe(cents(totals["cbc:TaxInclusiveAmount"]));
  expect(cents(totals["cbc:TaxInclusiveAmount"]) - cents(totals["cbc:PrepaidAmount"])).toBe(cents(totals["cbc:PayableAmount"]));
  for (const row of subtotals) {
    const category = row["cac:TaxCategory"];
    const same = (c: { "cbc:ID": string; "cbc:Percent"?: string }) => c["cbc:ID"] === category["cbc:ID"] && c["cbc:Percent"] === category["cbc:Percent"];
    const base =
      sum(lines.filter((line) => same(line["cac:Item"]["cac:ClassifiedTaxCategory"])).map(lineNet)) +
      sum(documentLevel.filter((ac) => same(ac["cac:TaxCategory"])).map((ac) => (ac["cbc:ChargeIndicator"] === "true" ? 1 : -1) * cents(ac["cbc:Amount"])));
    expect(base, `${category["cbc:ID"]} ${category["cbc:Percent"]} %`).toBe(cents(row["cbc:TaxableAmount"]));
  }
  expect(sum(subtotals.map((row) => cents(row["cbc:TaxableAmount"])))).toBe(cents(totals["cbc:TaxExclusiveAmount"]));
}

describe("facturXInvoice", () => {
  it("a paid B2B invoice: the PDF's amounts to the cent, the VAT by rate as stored, the margin-scheme card exempt (VATEX-EU-F), nothing due", () => {
    const snapshot = invoiceOf(businessSource());
    const data = facturXInvoice(snapshot);
    const invoice = data["ubl:Invoice"];
    expect(invoice["cbc:ID"]).toBe("F-2026-000042");
    expect(invoice["cbc:InvoiceTypeCode"]).toBe("380");
    // The Paris day: 00:41 on 23 November, as the PDF dates it.
    expect(invoice["cbc:IssueDate"]).toBe("2026-11-23");
    expect(invoice["cbc:DocumentCurrencyCode"]).toBe("EUR");
    expect(invoice["cbc:Note"]).toEqual([snapshot.mentions.join("\n")]);

    const lines = invoice["cac:InvoiceLine"];
    expect(lines.map((line) => [line["cac:Item"]["cbc:Name"], line["cbc:InvoicedQuantity"], cents(line["cac:Price"]["cbc:PriceAmount"]), cents(line["cbc:LineExtensionAmount"]), line["cac:Item"]["cac:ClassifiedTaxCategory"]["cbc:ID"], line["cac:Item"]["cac:ClassifiedTaxCategory"]["cbc:Percent"]])).toEqual(
      snapshot.lines.map((line) =>
        line.vatScheme === "margin"
          ? [line.name, String(line.quantity), line.unitPriceCents, line.totalCents, "E", "0"]
          : [line.name, String(line.quantity), line.unitPriceExclVatCents, line.totalExclVatCents, "S", String(line.vatRateBp! / 100)],
      ),
    );
    // The discount's share of each line, as a line allowance.
    expect(lines.every((line) => line["cac:AllowanceCharge"]?.[0]?.["cbc:AllowanceChargeReason"] === "Remise « BIENVENUE »")).toBe(true);

    // Delivery and signature: a charge per rate, before VAT, as the PDF's rows.
    const charges = invoice["cac:AllowanceCharge"]!;
    expect(charges.map((ac) => [ac["cbc:AllowanceChargeReason"], cents(ac["cbc:Amount"]), ac["cac:TaxCategory"]["cbc:Percent"]])).toEqual(
      snapshot.charges.flatMap((charge) => charge.parts!.map((part) => [charge.label, part.exclVatCents, String(part.rateBp / 100)])),
    );

    const subtotals = invoice["cac:TaxTotal"][0]["cac:TaxSubtotal"]!;
    expect(subtotals.filter((row) => row["cac:TaxCategory"]["cbc:ID"] === "S").map((row) => [row["cac:TaxCategory"]["cbc:Percent"], cents(row["cbc:TaxableAmount"]), cents(row["cbc:TaxAmount"])])).toEqual(
      snapshot.vatBreakdown.map((row) => [String(row.rateBp / 100), row.baseCents, row.vatCents]),
    );
    const margin = subtotals.find((row) => row["cac:TaxCategory"]["cbc:ID"] === "E")!;
    expect([cents(margin["cbc:TaxableAmount"]), cents(margin["cbc:TaxAmount"]), margin["cac:TaxCategory"]["cbc:TaxExemptionReasonCode"]]).toEqual([snapshot.totals.marginSchemeCents, 0, "VATEX-EU-F"]);

    const totals = invoice["cac:LegalMonetaryTotal"];
    expect(cents(totals["cbc:TaxExclusiveAmount"])).toBe(snapshot.totals.exclVatCents + snapshot.totals.marginSchemeCents);
    expect(cents(invoice["cac:TaxTotal"][0]["cbc:TaxAmount"])).toBe(snapshot.totals.vatCents);
    expect(cents(totals["cbc:TaxInclusiveAmount"])).toBe(snapshot.totals.inclVatCents);
    expect(cents(totals["cbc:PrepaidAmount"])).toBe(snapshot.totals.inclVatCents);
    expect(cents(totals["cbc:PayableAmount"])).toBe(0);
    expect(invoice["cac:PaymentMeans"]).toEqual([{ "cbc:PaymentMeansCode": "48", "cbc:PaymentMeansCode@name": "Carte bancaire (Stripe)" }]);
    expectConsistent(data);
  });

  it("names both parties: SIRENs in the SIRENE scheme (0002), VAT numbers, addresses with their countries", () => {
    const invoice = facturXInvoice(invoiceOf(businessSource()))["ubl:Invoice"];
    const seller = invoice["cac:AccountingSupplierParty"]["cac:Party"];
    expect(seller["cac:PartyLegalEntity"]).toEqual({ "cbc:RegistrationName": "Comptoir des Cartes", "cbc:CompanyID": "123456782", "cbc:CompanyID@schemeID": "0002", "cbc:CompanyLegalForm": "société par actions simplifiée unipersonnelle (SASU) · au capital de 1 000 € · RCS Paris 123 456 782" });
    expect(seller["cac:PartyTaxScheme"]).toEqual([{ "cbc:CompanyID": "FR32123456782", "cac:TaxScheme": { "cbc:ID": "VAT" } }]);
    expect(seller["cac:PostalAddress"]).toEqual({ "cbc:StreetName": "12 rue des Collectionneurs", "cbc:CityName": "Paris", "cbc:PostalZone": "75011", "cac:Country": { "cbc:IdentificationCode": "FR" } });
    const buyer = invoice["cac:AccountingCustomerParty"]["cac:Party"];
    expect(buyer["cac:PartyLegalEntity"]).toEqual({ "cbc:RegistrationName": "Club Dracaufeu Lyon", "cbc:CompanyID": "732829320", "cbc:CompanyID@schemeID": "0002" });
    expect(buyer["cac:PartyTaxScheme"]).toEqual({ "cbc:CompanyID": "FR44732829320", "cac:TaxScheme": { "cbc:ID": "VAT" } });
    expect(buyer["cac:PostalAddress"]).toEqual({ "cbc:StreetName": "14 rue Mercière", "cbc:AdditionalStreetName": "3e étage", "cbc:CityName": "Lyon", "cbc:PostalZone": "69002", "cac:Country": { "cbc:IdentificationCode": "FR" } });
    expect(buyer["cac:Contact"]).toEqual({ "cbc:Name": "Élodie Lefèvre", "cbc:ElectronicMail": "compta@club-dracaufeu.fr" });
  });

  it("a credit note cancelling the invoice: type 381, the invoice it refers to, the snapshot's negated amounts positive", () => {
    const source = businessSource();
    const snapshot = business(buildInvoiceSnapshot(source, { kind: "credit_note", number: "A-2026-000007", issuedAt: new Date("2026-12-02T14:00:00Z"), cancelsInvoice: "F-2026-000042" }));
    expect(snapshot.totals.inclVatCents).toBeLessThan(0);
    const data = facturXInvoice(snapshot);
    const invoice = data["ubl:Invoice"];
    expect(invoice["cbc:InvoiceTypeCode"]).toBe("381");
    expect(invoice["cac:BillingReference"]).toEqual([{ "cac:InvoiceDocumentReference": { "cbc:ID": "F-2026-000042" } }]);
    expect(cents(invoice["cac:LegalMonetaryTotal"]["cbc:TaxInclusiveAmount"])).toBe(-snapshot.totals.inclVatCents);
    expect(cents(invoice["cac:TaxTotal"][0]["cbc:TaxAmount"])).toBe(-snapshot.totals.vatCents);
    expect(invoice["cac:InvoiceLine"].every((line) => cents(line["cbc:LineExtensionAmount"]) > 0 && cents(line["cac:Price"]["cbc:PriceAmount"]) > 0)).toBe(true);
    expect(cents(invoice["cac:LegalMonetaryTotal"]["cbc:PayableAmount"])).toBe(0);
    expectConsistent(data);
  });

  it("a partial credit note: one booster and the delivery back, less a depreciation (an allowance), each rate's base as the refund's", () => {
    const source = businessSource();
    const invoice = invoiceOf(source);
    const bucketOf = (line: (typeof source.lines)[number]) => (line.vatScheme === "margin" ? "margin" : line.vatRateBp);
    const order: RefundableOrder = {
      totalCents: source.order.totalCents,
      lines: source.lines.map((line, i) => ({ orderItemId: `item-${i}`, name: line.name, quantity: line.quantity, unitPriceCents: line.unitPriceCents, netCents: line.unitPriceCents * line.quantity - line.discountShareCents, bucket: bucketOf(line), vatScheme: line.vatScheme })),
      shipping: invoice.charges[0]!.parts!.map((part) => ({ bucket: part.rateBp, totalCents: part.totalCents })),
      insurance: invoice.charges[1]!.parts!.map((part) => ({ bucket: part.rateBp, totalCents: part.totalCents })),
      vatBreakdown: invoice.vatBreakdown,
      marginSchemeCents: invoice.totals.marginSchemeCents,
    };
    const computed = computeRefund(order, [], { lines: [{ orderItemId: "item-1", quantity: 1, restock: true }], shippingCents: 690, insuranceCents: 0, adjustment: { kind: "depreciation", cents: 100, reason: "Emballage abîmé" } });
    if (!computed.ok) throw new Error(computed.error);
    const { refund } = computed;
    const snapshot = business(
      buildRefundCreditNote(
        source,
        { amountCents: refund.amountCents, lines: refund.lines, shippingParts: refund.shippingParts, insuranceParts: refund.insuranceParts, adjustment: refund.adjustment, vatBreakdown: refund.vatBreakdown, marginSchemeCents: refund.marginSchemeCents },
        { number: "A-2026-000008", issuedAt: new Date("2026-12-03T10:00:00Z"), invoiceNumber: "F-2026-000042" },
      ),
    );
    const data = facturXInvoice(snapshot);
    const document = data["ubl:Invoice"];
    expect(document["cbc:InvoiceTypeCode"]).toBe("381");
    expect(document["cac:InvoiceLine"].map((line) => [line["cac:Item"]["cbc:Name"], line["cbc:InvoicedQuantity"]])).toEqual([["Booster Écarlate et Violet", "1"]]);
    expect(cents(document["cac:LegalMonetaryTotal"]["cbc:TaxInclusiveAmount"])).toBe(refund.amountCents);
    expect(document["cac:AllowanceCharge"]!.some((ac) => ac["cbc:ChargeIndicator"] === "false" && (ac["cbc:AllowanceChargeReason"] ?? "").includes("Emballage abîmé"))).toBe(true);
    expect(document["cac:TaxTotal"][0]["cac:TaxSubtotal"]!.map((row) => [row["cac:TaxCategory"]["cbc:Percent"], cents(row["cbc:TaxableAmount"]), cents(row["cbc:TaxAmount"])])).toEqual(
      snapshot.vatBreakdown.map((row) => [String(row.rateBp / 100), -row.baseCents, -row.vatCents]),
    );
    expectConsistent(data);
  });

  it("under the franchise: every amount as paid, one exempt category VATEX-FR-FRANCHISE with no VAT, the SIREN as the seller's tax registration", () => {
    const snapshot = invoiceOf(businessSource({ franchise: true, sellerVatNumber: "" }));
    const data = facturXInvoice(snapshot);
    const invoice = data["ubl:Invoice"];
    const subtotals = invoice["cac:TaxTotal"][0]["cac:TaxSubtotal"]!;
    expect(subtotals).toHaveLength(1);
    expect(subtotals[0]!["cac:TaxCategory"]).toMatchObject({ "cbc:ID": "E", "cbc:Percent": "0", "cbc:TaxExemptionReasonCode": "VATEX-FR-FRANCHISE", "cbc:TaxExemptionReason": "TVA non applicable, art. 293 B du CGI" });
    expect(cents(subtotals[0]!["cbc:TaxableAmount"])).toBe(snapshot.totals.inclVatCents);
    expect(cents(invoice["cac:TaxTotal"][0]["cbc:TaxAmount"])).toBe(0);
    expect(invoice["cac:InvoiceLine"].map((line) => cents(line["cbc:LineExtensionAmount"]))).toEqual(snapshot.lines.map((line) => line.totalCents));
    expect(invoice["cac:AccountingSupplierParty"]["cac:Party"]["cac:PartyTaxScheme"]).toEqual([{ "cbc:CompanyID": "123456782", "cac:TaxScheme": { "cbc:ID": "FC" } }]);
    expectConsistent(data);
  });

  it("a consumer's document is not a business one, and has no Factur-X data", () => {
    const consumer = buildInvoiceSnapshot(businessSource(), { kind: "invoice", number: "F-2026-000043", issuedAt: new Date("2026-11-23T09:15:00Z") });
    expect(isBusinessDocument(consumer)).toBe(false);
    expect(isBusinessDocument(business(consumer))).toBe(true);
    expect(() => facturXInvoice(consumer)).toThrow(/not a business buyer/);
  });
});
