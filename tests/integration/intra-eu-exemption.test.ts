import { randomUUID } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { invoices, orderItems, orders, products, rateLimits, shippingMethods } from "~/db/schema";
import { DEFAULT_FEC_ACCOUNTS } from "~/domain/fec-accounts";
import { INTRA_EU_EXEMPTION_MENTION, type InvoiceSnapshot } from "~/domain/invoice";
import { intraEuExemptionMention } from "~/domain/invoice-snapshot";
import { parisWallClock, parisWallTimeToUtc } from "~/domain/paris-time";
import { legalIdentitySchema } from "~/domain/shop-identity-schema";
import { getAdminOrder, refundPartOfAdminOrder } from "~/services/admin-orders.server";
import { saveBusinessSalesSettings } from "~/services/business-sales-settings.server";
import { type CheckoutContext, startCheckout } from "~/services/checkout.server";
import { eReportingDays } from "~/services/e-reporting.server";
import { fecEntriesFor } from "~/services/fec.server";
import { documentPdf } from "~/services/invoices.server";
import { ossCounter } from "~/services/oss.server";
import { handlePaymentEvent } from "~/services/payment-webhooks.server";
import { getTestSession } from "~/services/payments/test-checkout.server";
import { createTestProvider, type TestProvider } from "~/services/payments/test-provider.server";
import { saveShopIdentity } from "~/services/shop-identity.server";
import { createUserWithPassword } from "~/services/users.server";
import { INVOICE_FIXTURES } from "../setup/invoice-fixtures-data";
import { embeddedFile, facturXSchemaErrors, parseCii } from "../support/factur-x";
import { pdfText } from "../support/pdf-text";
import { databaseLabel, openTestDatabase } from "./test-database";

const deps = { shop: { name: "Comptoir", email: "contact@comptoir.example", publicUrl: "https://comptoir.example" }, sellerEmail: "vendeur@comptoir.example" };
const SELLER_VAT = "FR11123456782";
const BERLIN = { fullName: "Jonas Weber", line1: "Friedrichstraße 12", postalCode: "10117", city: "Berlin", country: "DE" };
const GMBH = { companyName: "Spielwaren Weber GmbH", siren: "", vatNumber: "DE136695976", country: "DE" };

type Node = Record<string, unknown>;
const at = (node: unknown, ...path: string[]): unknown => path.reduce<unknown>((value, key) => (value as Node | undefined)?.[key], node);
const list = (node: unknown): Node[] => (node === undefined ? [] : Array.isArray(node) ? (node as Node[]) : [node as Node]);
const cents = (node: unknown) => Math.round(Number(typeof node === "object" && node !== null ? (node as Node)["#text"] : node) * 100);

/**
 * The intra-EU exemption (CGI art. 262 ter I, docs/decisions/054) on real orders: a German company
 * with its VAT number, billed and delivered in Germany, while the seller applies the exemption:
 * the order priced excluding VAT (two boosters at 12,00 € TTC → 10,00 €, a manga at 6,99 € at
 * 5,5 % → 6,63 €, the delivery's French VAT taken out; a second-hand card kept at its TTC under
 * the margin scheme), the payment session charged that, the invoice's mention and both VAT
 * numbers, Factur-X category K valid against the XSD, the FEC on its own account without VAT,
 * the OSS counter and the e-reporting untouched. With the switch off, the same order is French.
 */
describe(`intra-EU exemption on ${databaseLabel}`, () => {
  let database: Database;
  let provider: TestProvider;
  let toGermany: { methodId: number; country: string };
  let adminId: string;
  let ip = 0;
  const now = new Date();
  const db = () => database.db;
  const ctx = (): CheckoutContext => ({ now, customer: null, clientIp: `198.51.100.${++ip}`, orderPrefix: "UE", origin: "http://shop.test", reservationMinutes: 30 });

  async function product(values: Partial<typeof products.$inferInsert>) {
    const [row] = await db().insert(products).values({ title: `Booster ${++ip}`, priceCents: 1_200, stock: 10, category: "TCG", subCategory: "Scellés", ...values }).returning();
    return row!;
  }
  async function cart() {
    const booster = await product({});
    const manga = await product({ title: `One Piece tome ${++ip}`, priceCents: 699, category: "Gaming & Mangas", subCategory: "Manga" });
    const used = await product({ title: `Dracaufeu d'occasion ${++ip}`, priceCents: 2_500, vatScheme: "margin" });
    return [
      { productId: booster.id, quantity: 2 },
      { productId: manga.id, quantity: 1 },
      { productId: used.id, quantity: 1 },
    ];
  }
  async function checkout(items: { productId: number; quantity: number }[], business: typeof GMBH | null = GMBH, delivery = toGermany) {
    await db().delete(rateLimits);
    const result = await startCheckout(db(), provider, { items, insuranceSelected: false, delivery, email: "jonas@weber.example", ...(business ? { business } : {}) }, ctx());
    if (result.status !== 200) throw new Error(JSON.stringify(result.body));
    const [row] = await db().select().from(orders).where(eq(orders.number, result.body.orderNumber));
    return row!;
  }
  async function pay(order: typeof orders.$inferSelect) {
    const outcome = await handlePaymentEvent(
      db(),
      provider,
      {
        id: `evt_${order.id}`,
        type: "session.completed",
        sessionId: order.providerSessionId,
        paid: true,
        paymentReference: `pi_${order.id}`,
        customerEmail: "jonas@weber.example",
        customerName: BERLIN.fullName,
        shippingAddress: { method: "home", ...BERLIN },
        billingAddress: BERLIN,
        amountTotalCents: order.totalCents,
      },
      deps,
    );
    expect(outcome).toBe("paid");
    return (await db().select().from(orders).where(eq(orders.id, order.id)))[0]!;
  }
  const documentsOf = (orderId: string, kind: "invoice" | "credit_note") =>
    db().select().from(invoices).where(and(eq(invoices.orderId, orderId), eq(invoices.kind, kind))).orderBy(asc(invoices.sequence));

  beforeAll(async () => {
    database = await openTestDatabase();
    provider = createTestProvider({ db: database.db, secret: "intra-eu-secret" });
    await saveShopIdentity(database.db, legalIdentitySchema.parse(INVOICE_FIXTURES.identity));
    const [method] = await database.db
      .insert(shippingMethods)
      .values({ name: "Colis UE", kind: "home", countries: ["DE", "BE", "FR"], bands: [{ upToGrams: null, fromSubtotalCents: 0, priceCents: 990 }], freeFromCents: null })
      .returning({ id: shippingMethods.id });
    toGermany = { methodId: method!.id, country: "DE" };
    ({ id: adminId } = await createUserWithPassword(database.db, { email: "chef@comptoir.test", password: "chef-mot-de-passe-2026", name: "Chef", role: "admin", emailVerified: true }));
  });
  afterAll(() => database.close());

  it("with the switch off (the default), the German company's order carries French VAT as before and counts as a distance sale", async () => {
    const order = await pay(await checkout(await cart()));
    expect(order).toMatchObject({ vatRegime: "normal", vatCountry: "FR", totalCents: 2_400 + 699 + 2_500 + 990 });
    expect(order.vatBreakdown.map((row) => row.rateBp)).toEqual([2000, 550]);
    const counted = order.vatBreakdown.reduce((sum, row) => sum + row.baseCents, 0);
    expect((await ossCounter(db(), now)).currentYearCents).toBe(counted);
  });

  it("switched on: priced excluding VAT, charged so, invoiced with the mention and both VAT numbers, Factur-X K, FEC on 7077, outside OSS and e-reporting", async () => {
    await saveBusinessSalesSettings(db(), { sellToBusinesses: true, intraEuExemption: true });
    const ossBefore = await ossCounter(db(), now);
    const pending = await checkout(await cart());
    // 2 × 10,00 € + 6,63 € + 25,00 € (margin scheme, TTC) + the delivery's 9,90 € without its French
    // VAT: 7,67 € of it at 20 % (base 6,39 €) and 2,23 € at 5,5 % (base 2,11 €), so 8,50 €.
    expect(pending).toMatchObject({ vatRegime: "intra_eu_exempt", vatCountry: "FR", subtotalCents: 2_000 + 663 + 2_500, shippingCents: 850, discountCents: 0, totalCents: 6_013 });
    expect(pending.vatBreakdown).toEqual([{ rateBp: 0, baseCents: 3_513, vatCents: 0, totalCents: 3_513 }]);
    const items = await db().select().from(orderItems).where(eq(orderItems.orderId, pending.id));
    expect(items.map((item) => [item.unitPriceCents, item.vatRateBp, item.vatScheme, item.vatCents]).sort()).toEqual([
      [1_000, 0, "normal", 0],
      [2_500, 2000, "margin", 0],
      [663, 0, "normal", 0],
    ]);

    // The payment session charges the HT total and the test page says so.
    const session = (await getTestSession(db(), pending.providerSessionId!, now))!;
    expect(session).toMatchObject({ totalCents: 6_013, exemptIntraEu: true });
    expect(session.lines.reduce((sum, line) => sum + line.unitAmountCents * line.quantity, 0) - session.discountCents).toBe(6_013);

    const order = await pay(pending);
    expect(order.status).toBe("paid");
    // Not a distance sale: the counter does not move.
    expect(await ossCounter(db(), now)).toEqual(ossBefore);

    const [invoice] = await documentsOf(order.id, "invoice");
    const snapshot = invoice!.snapshot as InvoiceSnapshot;
    expect(snapshot).toMatchObject({ vatRegime: "intra_eu_exempt", totals: { exclVatCents: 3_513, vatCents: 0, inclVatCents: 6_013, marginSchemeCents: 2_500 } });
    expect(snapshot.buyer.business).toMatchObject({ vatNumber: GMBH.vatNumber, country: "DE" });
    expect(snapshot.lines.map((line) => [line.vatScheme, line.vatRateBp]).sort()).toEqual([["margin", null], ["normal", 0], ["normal", 0]]);
    expect(snapshot.mentions).toContain(intraEuExemptionMention(SELLER_VAT, GMBH.vatNumber));

    const pdf = (await documentPdf(db(), order.id, invoice!.number))!.pdf;
    const text = pdfText(Buffer.from(pdf));
    expect(text).toContain(INTRA_EU_EXEMPTION_MENTION);
    expect(text).toContain(SELLER_VAT);
    expect(text).toContain(GMBH.vatNumber);

    const xml = embeddedFile(pdf, "factur-x.xml");
    expect(await facturXSchemaErrors(xml)).toEqual([]);
    const transaction = at(parseCii(xml), "rsm:CrossIndustryInvoice", "rsm:SupplyChainTradeTransaction");
    const settlement = at(transaction, "ram:ApplicableHeaderTradeSettlement");
    const taxes = list(at(settlement, "ram:ApplicableTradeTax")).map((tax) => [at(tax, "ram:CategoryCode"), at(tax, "ram:RateApplicablePercent"), at(tax, "ram:ExemptionReasonCode"), at(tax, "ram:ExemptionReason"), cents(at(tax, "ram:BasisAmount")), cents(at(tax, "ram:CalculatedAmount"))]);
    expect(taxes).toEqual([
      ["K", "0", "VATEX-EU-IC", INTRA_EU_EXEMPTION_MENTION, 3_513, 0],
      ["E", "0", "VATEX-EU-F", "Régime particulier – Biens d'occasion", 2_500, 0],
    ]);
    const lineCategories = list(at(transaction, "ram:IncludedSupplyChainTradeLineItem")).map((line) => at(list(at(line, "ram:SpecifiedLineTradeSettlement", "ram:ApplicableTradeTax"))[0], "ram:CategoryCode"));
    expect(lineCategories).toEqual(snapshot.lines.map((line) => (line.vatScheme === "margin" ? "E" : "K")));
    const charges = list(at(settlement, "ram:SpecifiedTradeAllowanceCharge"));
    expect(charges.map((charge) => [at(charge, "ram:CategoryTradeTax", "ram:CategoryCode"), cents(at(charge, "ram:ActualAmount"))])).toEqual([["K", 850]]);
    const buyer = at(transaction, "ram:ApplicableHeaderTradeAgreement", "ram:BuyerTradeParty");
    expect(list(at(buyer, "ram:SpecifiedTaxRegistration")).map((registration) => at(registration, "ram:ID"))).toEqual([{ "#text": GMBH.vatNumber, "@schemeID": "VA" }]);
    expect(cents(at(settlement, "ram:SpecifiedTradeSettlementHeaderMonetarySummation", "ram:GrandTotalAmount"))).toBe(6_013);

    // A booster goes back: the credit note keeps the mention, at 0 %, and its Factur-X is valid.
    const boosterLine = (await getAdminOrder(db(), order.number))!.refundable.lines.find((line) => line.name.startsWith("Booster"))!;
    expect(boosterLine.unitPriceCents).toBe(1_000);
    expect(await refundPartOfAdminOrder(db(), provider, order.number, { intent: "partial-refund", requestKey: randomUUID(), [`qty:${boosterLine.id}`]: "1" }, adminId, deps)).toMatchObject({ ok: true });
    const [note] = await documentsOf(order.id, "credit_note");
    const noteSnapshot = note!.snapshot as InvoiceSnapshot;
    expect(noteSnapshot.totals).toMatchObject({ inclVatCents: -1_000, vatCents: 0 });
    expect(noteSnapshot.mentions).toContain(intraEuExemptionMention(SELLER_VAT, GMBH.vatNumber));
    const noteXml = embeddedFile((await documentPdf(db(), order.id, note!.number))!.pdf, "factur-x.xml");
    expect(await facturXSchemaErrors(noteXml)).toEqual([]);
    expect(noteXml).toContain("VATEX-EU-IC");
    expect(await ossCounter(db(), now)).toEqual(ossBefore);

    // The FEC: each entry balanced; the invoice's goods and delivery on 7077, the margin-scheme card on 7073, no VAT.
    const { year } = parisWallClock(order.paidAt!);
    const entries = await fecEntriesFor(db(), { year, month: null }, DEFAULT_FEC_ACCOUNTS);
    for (const entry of entries) expect(entry.lines.reduce((sum, line) => sum + line.cents, 0)).toBe(0);
    const invoiceEntry = entries.find((entry) => entry.pieceRef === invoice!.number)!;
    expect(invoiceEntry.lines.map((line) => [line.account, line.cents])).toEqual([
      ["411", 6_013],
      ["7077", -3_513],
      ["7073", -2_500],
    ]);
    expect(invoiceEntry.lines[0]!.aux).toEqual({ number: GMBH.vatNumber, label: GMBH.companyName });
    const noteEntry = entries.find((entry) => entry.pieceRef === note!.number)!;
    expect(noteEntry.lines.map((line) => [line.account, line.cents])).toEqual([
      ["411", -1_000],
      ["7077", 1_000],
    ]);
    expect(entries.flatMap((entry) => (entry.pieceRef === invoice!.number || entry.pieceRef === note!.number ? entry.lines : [])).some((line) => line.account.startsWith("4457"))).toBe(false);

    // E-reporting aggregates consumers' sales only: none here.
    const { year: y, month, day } = parisWallClock(now);
    const days = await eReportingDays(db(), { from: parisWallTimeToUtc(y, month, day, 0, 0)!, to: new Date(now.getTime() + 86_400_000) });
    expect(days.reduce((sum, d) => sum + d.sales.documents + d.refunds.documents, 0)).toBe(0);
  });

  it("each condition missing leaves the order French: a delivery in Belgium, a billing country other than the number's, a consumer", async () => {
    const toBelgium = await checkout(await cart(), GMBH, { ...toGermany, country: "BE" });
    expect(toBelgium).toMatchObject({ vatRegime: "normal", totalCents: 6_589 });
    const billedInAustria = await checkout(await cart(), { ...GMBH, country: "AT" });
    expect(billedInAustria).toMatchObject({ vatRegime: "normal", totalCents: 6_589 });
    const consumer = await checkout(await cart(), null);
    expect(consumer).toMatchObject({ vatRegime: "normal", totalCents: 6_589 });
    // A French company delivered in Germany: no exemption either.
    const french = await checkout(await cart(), { companyName: "Jeux & Cie", siren: "303265045", vatNumber: "FR40303265045", country: "FR" });
    expect(french).toMatchObject({ vatRegime: "normal", totalCents: 6_589 });
  });
});
