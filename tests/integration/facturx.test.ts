import { randomUUID } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { invoices, orders, products } from "~/db/schema";
import type { InvoiceSnapshot } from "~/domain/invoice";
import { centsToDecimalString } from "~/domain/money";
import { legalIdentitySchema } from "~/domain/shop-identity-schema";
import { getAdminOrder, refundPartOfAdminOrder } from "~/services/admin-orders.server";
import type { CheckoutContext } from "~/services/checkout.server";
import { facturXml } from "~/services/facturx.server";
import { renderInvoicePdf } from "~/services/invoice-pdf.server";
import { documentPdf } from "~/services/invoices.server";
import { createStripeProvider } from "~/services/payments/stripe.server";
import type { PaymentProvider } from "~/services/payments/types";
import { saveShopIdentity } from "~/services/shop-identity.server";
import { createUserWithPassword } from "~/services/users.server";
import { INVOICE_FIXTURES } from "../setup/invoice-fixtures-data";
import { embeddedFile, embeddedFiles, facturXSchemaErrors, parseCii, xmpOf } from "../support/factur-x";
import { type FakeStripe, startFakeStripe } from "../support/fake-stripe-server";
import { checkoutAndPay } from "./paid-checkout";
import { databaseLabel, openTestDatabase } from "./test-database";

/**
 * Factur-X (issue 53, docs/decisions/051) on a real database: a club's paid order (boosters at
 * 20 %, a manga at 5,5 %, a second-hand card under the margin scheme, the delivery) gets a B2B
 * invoice whose PDF, as the download route serves it, carries `factur-x.xml`; the XML read back
 * with pdfdetach is valid against the Factur-X EN 16931 XSD and carries every amount of the
 * snapshot; so does the partial credit note of a refund. A consumer's invoice has no file.
 */
const deps = { shop: { name: "Comptoir", email: "contact@comptoir.example", publicUrl: "https://comptoir.example" }, sellerEmail: "vendeur@comptoir.example" };
const CLUB = { companyName: "Club Dracaufeu Lyon", siren: "732829320", vatNumber: "FR44732829320", country: "FR" };

type Node = Record<string, unknown>;
const at = (node: unknown, ...path: string[]): unknown => path.reduce<unknown>((value, key) => (value as Node | undefined)?.[key], node);
/** An element's text, with or without attributes. */
const text = (node: unknown): string => String(typeof node === "object" && node !== null ? (node as Node)["#text"] : node);
/** A CII amount in cents; the XML has two decimals. */
const cents = (node: unknown): number => {
  const value = text(node);
  expect(value).toMatch(/^-?\d+\.\d{2}$/);
  return Math.round(Number(value) * 100);
};
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const list = (node: unknown): Node[] => (node === undefined ? [] : (node as Node[]));

/**
 * The XML against its snapshot: every amount to the cent (a credit note's positive, the snapshot's
 * negated), the parties' SIRENs in the SIRENE scheme, and EN 16931's calculation rules (BR-CO-10
 * to BR-CO-16, each VAT category's base from its lines and charges).
 */
function expectFacturXOf(xml: string, snapshot: InvoiceSnapshot) {
  const sign = snapshot.kind === "credit_note" ? -1 : 1;
  const root = at(parseCii(xml), "rsm:CrossIndustryInvoice");
  expect(at(root, "rsm:ExchangedDocumentContext", "ram:GuidelineSpecifiedDocumentContextParameter", "ram:ID")).toBe("urn:cen.eu:en16931:2017");
  expect(at(root, "rsm:ExchangedDocument", "ram:ID")).toBe(snapshot.number);
  expect(at(root, "rsm:ExchangedDocument", "ram:TypeCode")).toBe(snapshot.kind === "credit_note" ? "381" : "380");
  const transaction = at(root, "rsm:SupplyChainTradeTransaction");
  const agreement = at(transaction, "ram:ApplicableHeaderTradeAgreement");
  const settlement = at(transaction, "ram:ApplicableHeaderTradeSettlement");
  expect(at(settlement, "ram:InvoiceCurrencyCode")).toBe("EUR");
  expect(at(settlement, "ram:SpecifiedTradeSettlementPaymentMeans", "ram:TypeCode")).toBe("48");
  if (snapshot.cancelsInvoice) expect(at(settlement, "ram:InvoiceReferencedDocument", "ram:IssuerAssignedID")).toBe(snapshot.cancelsInvoice);

  // The parties: SIREN (scheme 0002), VAT numbers, the buyer's company.
  const seller = at(agreement, "ram:SellerTradeParty");
  expect(at(seller, "ram:SpecifiedLegalOrganization", "ram:ID")).toEqual({ "#text": "123456782", "@schemeID": "0002" });
  expect(list(at(seller, "ram:SpecifiedTaxRegistration")).map((registration) => at(registration, "ram:ID"))).toEqual([{ "#text": "FR11123456782", "@schemeID": "VA" }]);
  expect(at(seller, "ram:PostalTradeAddress", "ram:CountryID")).toBe("FR");
  const buyer = at(agreement, "ram:BuyerTradeParty");
  expect(at(buyer, "ram:Name")).toBe(CLUB.companyName);
  expect(at(buyer, "ram:SpecifiedLegalOrganization", "ram:ID")).toEqual({ "#text": CLUB.siren, "@schemeID": "0002" });
  expect(list(at(buyer, "ram:SpecifiedTaxRegistration")).map((registration) => at(registration, "ram:ID"))).toEqual([{ "#text": CLUB.vatNumber, "@schemeID": "VA" }]);
  expect(at(buyer, "ram:PostalTradeAddress", "ram:CountryID")).toBe("FR");

  // The lines: before VAT as the PDF prints them; a margin-scheme one as paid, exempt (E).
  const lines = list(at(transaction, "ram:IncludedSupplyChainTradeLineItem"));
  const lineNet = (line: unknown) => cents(at(line, "ram:SpecifiedLineTradeSettlement", "ram:SpecifiedTradeSettlementLineMonetarySummation", "ram:LineTotalAmount"));
  const lineTax = (line: unknown) => list(at(line, "ram:SpecifiedLineTradeSettlement", "ram:ApplicableTradeTax"))[0];
  expect(
    lines.map((line) => [at(line, "ram:SpecifiedTradeProduct", "ram:Name"), text(at(line, "ram:SpecifiedLineTradeDelivery", "ram:BilledQuantity")), lineNet(line), at(lineTax(line), "ram:CategoryCode"), at(lineTax(line), "ram:RateApplicablePercent")]),
  ).toEqual(
    snapshot.lines.map((line) =>
      line.vatScheme === "margin" ? [line.name, String(line.quantity), sign * line.totalCents, "E", "0"] : [line.name, String(line.quantity), sign * line.totalExclVatCents!, "S", String(line.vatRateBp! / 100)],
    ),
  );
  for (const line of lines) {
    const price = cents(at(line, "ram:SpecifiedLineTradeAgreement", "ram:NetPriceProductTradePrice", "ram:ChargeAmount"));
    const adjustments = list(at(line, "ram:SpecifiedLineTradeSettlement", "ram:SpecifiedTradeAllowanceCharge"));
    const signed = sum(adjustments.map((ac) => (at(ac, "ram:ChargeIndicator", "udt:Indicator") === "true" ? 1 : -1) * cents(at(ac, "ram:ActualAmount"))));
    expect(Number(text(at(line, "ram:SpecifiedLineTradeDelivery", "ram:BilledQuantity"))) * price + signed).toBe(lineNet(line));
  }

  // The VAT by rate, as stored; the margin-scheme goods exempt (VATEX-EU-F).
  const taxes = list(at(settlement, "ram:ApplicableTradeTax"));
  expect(taxes.filter((tax) => at(tax, "ram:CategoryCode") === "S").map((tax) => [at(tax, "ram:RateApplicablePercent"), cents(at(tax, "ram:BasisAmount")), cents(at(tax, "ram:CalculatedAmount"))])).toEqual(
    snapshot.vatBreakdown.map((row) => [String(row.rateBp / 100), sign * row.baseCents, sign * row.vatCents]),
  );
  const exempt = taxes.filter((tax) => at(tax, "ram:CategoryCode") === "E");
  expect(exempt.map((tax) => [at(tax, "ram:ExemptionReasonCode"), cents(at(tax, "ram:BasisAmount")), cents(at(tax, "ram:CalculatedAmount"))])).toEqual(
    snapshot.totals.marginSchemeCents !== 0 ? [["VATEX-EU-F", sign * snapshot.totals.marginSchemeCents, 0]] : [],
  );

  // Charges and allowances at the document's level: the delivery, an adjustment, by rate.
  const documentLevel = list(at(settlement, "ram:SpecifiedTradeAllowanceCharge"));
  const signedOf = (ac: unknown) => (at(ac, "ram:ChargeIndicator", "udt:Indicator") === "true" ? 1 : -1) * cents(at(ac, "ram:ActualAmount"));
  expect(sum(documentLevel.map(signedOf))).toBe(sign * sum(snapshot.charges.flatMap((charge) => (charge.parts ?? []).map((part) => part.exclVatCents))));

  const totals = at(settlement, "ram:SpecifiedTradeSettlementHeaderMonetarySummation");
  const optional = (node: unknown) => (node === undefined ? 0 : cents(node));
  expect(cents(at(totals, "ram:LineTotalAmount"))).toBe(sum(lines.map(lineNet)));
  expect(cents(at(totals, "ram:LineTotalAmount")) - optional(at(totals, "ram:AllowanceTotalAmount")) + optional(at(totals, "ram:ChargeTotalAmount"))).toBe(cents(at(totals, "ram:TaxBasisTotalAmount")));
  expect(cents(at(totals, "ram:TaxBasisTotalAmount"))).toBe(sign * (snapshot.totals.exclVatCents + snapshot.totals.marginSchemeCents));
  expect(cents(at(totals, "ram:TaxTotalAmount"))).toBe(sign * snapshot.totals.vatCents);
  expect(sum(taxes.map((tax) => cents(at(tax, "ram:CalculatedAmount"))))).toBe(sign * snapshot.totals.vatCents);
  expect(cents(at(totals, "ram:GrandTotalAmount"))).toBe(sign * snapshot.totals.inclVatCents);
  expect(cents(at(totals, "ram:TotalPrepaidAmount"))).toBe(sign * snapshot.totals.inclVatCents);
  expect(cents(at(totals, "ram:DuePayableAmount"))).toBe(0);
  // Each category's base: its lines, and its charges less its allowances (BR-S-08, BR-E-08).
  for (const tax of taxes) {
    const same = (node: unknown) => at(node, "ram:CategoryCode") === at(tax, "ram:CategoryCode") && at(node, "ram:RateApplicablePercent") === at(tax, "ram:RateApplicablePercent");
    const base = sum(lines.filter((line) => same(lineTax(line))).map(lineNet)) + sum(documentLevel.filter((ac) => same(at(ac, "ram:CategoryTradeTax"))).map(signedOf));
    expect(base).toBe(cents(at(tax, "ram:BasisAmount")));
  }
}

describe(`Factur-X for business buyers on ${databaseLabel}`, () => {
  let database: Database;
  let fake: FakeStripe;
  let stripe: PaymentProvider;
  let adminId: string;
  let n = 0;
  const db = () => database.db;
  const ctx = (): CheckoutContext => ({ now: new Date(), customer: null, clientIp: `198.51.100.${++n % 250}`, orderPrefix: "CPT", origin: "http://shop.test", reservationMinutes: 45 });
  const documentsOf = (orderId: string, kind: "invoice" | "credit_note") =>
    db().select().from(invoices).where(and(eq(invoices.orderId, orderId), eq(invoices.kind, kind))).orderBy(asc(invoices.sequence));

  async function product(values: Partial<typeof products.$inferInsert>) {
    const [row] = await db().insert(products).values({ title: `Booster test ${++n}`, priceCents: 650, stock: 10, category: "TCG", subCategory: "Scellés", ...values }).returning();
    return row!;
  }

  /** Three boosters, a manga and a second-hand card, paid by card; `business`: bought for the club. */
  async function paidOrder(intent: string, business: boolean) {
    const booster = await product({});
    const manga = await product({ title: `One Piece – Tome ${++n}`, priceCents: 715, category: "Gaming & Mangas", subCategory: "Manga" });
    const card = await product({ title: `Dracaufeu ex ${++n} (occasion)`, priceCents: 2_500, vatScheme: "margin" });
    return checkoutAndPay(db(), stripe, [{ productId: booster.id, quantity: 3 }, { productId: manga.id, quantity: 1 }, { productId: card.id, quantity: 1 }], {
      ctx: ctx(),
      deps,
      intent,
      beforePayment: business ? (orderId) => db().update(orders).set({ businessBuyer: CLUB }).where(eq(orders.id, orderId)) : undefined,
    });
  }

  beforeAll(async () => {
    database = await openTestDatabase();
    await saveShopIdentity(database.db, legalIdentitySchema.parse(INVOICE_FIXTURES.identity));
    fake = await startFakeStripe();
    stripe = createStripeProvider({ secretKey: "sk_test_comptoir", webhookSecret: "whsec_test", apiBase: fake.url });
    ({ id: adminId } = await createUserWithPassword(database.db, { email: "chef@comptoir.test", password: "chef-mot-de-passe-2026", name: "Chef", role: "admin", emailVerified: true }));
  });
  afterAll(async () => {
    fake.close();
    await database.close();
  });

  it("a club's invoice and partial credit note are Factur-X: factur-x.xml valid against the EN 16931 XSD, every amount the snapshot's, the SIRENs", async () => {
    const order = await paidOrder("pi_facturx_1", true);
    const [invoice] = await documentsOf(order.id, "invoice");
    const snapshot = invoice!.snapshot as InvoiceSnapshot;
    expect(snapshot.buyer.business).toEqual({ ...CLUB, country: "FR" });
    expect(snapshot.totals.marginSchemeCents).toBeGreaterThan(0);

    // The PDF as the download route serves it (the route returns documentPdf's bytes).
    const pdf = (await documentPdf(db(), order.id, invoice!.number))!.pdf;
    expect(embeddedFiles(pdf)).toEqual(["factur-x.xml"]);
    const xml = embeddedFile(pdf, "factur-x.xml");
    expect(await facturXSchemaErrors(xml)).toEqual([]);
    expectFacturXOf(xml, snapshot);
    // PDF/A-3b and the Factur-X XMP, well-formed; the file's relationship as written in the PDF.
    const { xmp, wellFormed } = xmpOf(pdf);
    expect(wellFormed).toBe(true);
    expect(xmp).toContain("<pdfaid:part>3</pdfaid:part>");
    expect(xmp).toContain("<pdfaid:conformance>B</pdfaid:conformance>");
    expect(xmp).toContain("<fx:DocumentFileName>factur-x.xml</fx:DocumentFileName>");
    expect(xmp).toContain("<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>");
    expect(Buffer.from(pdf).toString("latin1")).toMatch(/\/AFRelationship \/Alternative/);
    // Stored once: the next download is the same file.
    expect(Buffer.from((await documentPdf(db(), order.id, invoice!.number))!.pdf).equals(Buffer.from(pdf))).toBe(true);

    // A booster and the delivery come back, less a depreciation: a partial credit note, a Factur-X too.
    const boosterLine = (await getAdminOrder(db(), order.number))!.refundable.lines.find((line) => line.name.startsWith("Booster test"))!;
    const refunded = await refundPartOfAdminOrder(
      db(),
      stripe,
      order.number,
      { intent: "partial-refund", requestKey: randomUUID(), [`qty:${boosterLine.id}`]: "1", shipping: centsToDecimalString(order.shippingCents).replace(".", ","), adjustmentKind: "depreciation", adjustmentAmount: "0,50", reason: "Coin plié" },
      adminId,
      deps,
    );
    expect(refunded).toMatchObject({ ok: true });
    const [note] = await documentsOf(order.id, "credit_note");
    const noteSnapshot = note!.snapshot as InvoiceSnapshot;
    expect(noteSnapshot).toMatchObject({ kind: "credit_note", partial: true, cancelsInvoice: invoice!.number });
    const notePdf = (await documentPdf(db(), order.id, note!.number))!.pdf;
    const noteXml = embeddedFile(notePdf, "factur-x.xml");
    expect(await facturXSchemaErrors(noteXml)).toEqual([]);
    expectFacturXOf(noteXml, noteSnapshot);
    expect(cents(at(parseCii(noteXml), "rsm:CrossIndustryInvoice", "rsm:SupplyChainTradeTransaction", "ram:ApplicableHeaderTradeSettlement", "ram:SpecifiedTradeSettlementHeaderMonetarySummation", "ram:GrandTotalAmount"))).toBe(
      -noteSnapshot.totals.inclVatCents,
    );
  });

  it("the library's validation refuses data EN 16931 does not allow: a buyer's country that is no ISO code", async () => {
    const order = await paidOrder("pi_facturx_2", true);
    const [invoice] = await documentsOf(order.id, "invoice");
    const snapshot = invoice!.snapshot as InvoiceSnapshot;
    await expect(facturXml({ ...snapshot, buyer: { ...snapshot.buyer, business: { ...snapshot.buyer.business!, country: "XX" } } })).rejects.toThrow();
    expect(await facturXSchemaErrors(await facturXml(snapshot))).toEqual([]);
  });

  it("a consumer's invoice stays a plain PDF: no embedded file, the bytes its snapshot always gave", async () => {
    const order = await paidOrder("pi_facturx_3", false);
    const [invoice] = await documentsOf(order.id, "invoice");
    const snapshot = invoice!.snapshot as InvoiceSnapshot;
    expect(snapshot.buyer.business).toBeUndefined();
    const pdf = (await documentPdf(db(), order.id, invoice!.number))!.pdf;
    expect(embeddedFiles(pdf)).toEqual([]);
    expect(Buffer.from(pdf).toString("latin1")).not.toContain("pdfaid");
    expect(Buffer.from(pdf).equals(Buffer.from(await renderInvoicePdf(snapshot)))).toBe(true);
  });
});
