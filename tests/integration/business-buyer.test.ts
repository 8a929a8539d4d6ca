import { and, count, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { invoices, orders, products, rateLimits, shippingMethods, users } from "~/db/schema";
import { BUSINESS_MESSAGES } from "~/domain/business-buyer";
import { BUSINESS_BILLING_COUNTRY_MESSAGE } from "~/domain/billing-address";
import { BUSINESS_MENTIONS } from "~/domain/invoice";
import type { AppContext } from "~/lib/context";
import * as paymentRoute from "~/routes/payment-test";
import { lastBusinessPurchase } from "~/services/business-buyers.server";
import { saveBusinessSalesSettings } from "~/services/business-sales-settings.server";
import { startCheckout } from "~/services/checkout.server";
import { getOrderView } from "~/services/orders.server";
import { createTestProvider, type TestProvider } from "~/services/payments/test-provider.server";
import { outcome } from "./route-outcome";
import { databaseLabel, openTestDatabase } from "./test-database";
import { checkoutRouteContext } from "./route-context";

/**
 * "Achat professionnel" (issue 53) from the cart to the invoice, on a real database: the company
 * is checked by the cart's schema on the server (a bad SIREN or VAT number: 400 in French, nothing
 * held or written), refused with a 409 while the seller does not sell to professionals, stored on
 * the order; the payment page asks the billing address in the company's country; the invoice
 * names the company with the professional mentions, a consumer's has none of them.
 */
const ORIGIN = "http://shop.test";
const CARD = { cardNumber: "4242 4242 4242 4242", cardExpiry: "12/30", cardCvc: "123" };
const HOME = { fullName: "Paul Martin", line1: "12 rue des Lilas", postalCode: "69002", city: "Lyon", country: "FR", phone: "0612345678", ...CARD };
const BILLING = { billingFullName: "Paul Martin", billingLine1: "4 rue du Jeu", billingPostalCode: "69001", billingCity: "Lyon", billingCountry: "FR" };
const COMPANY = { companyName: "  Ludothèque du Centre  ", siren: "732 829 320", vatNumber: "fr 44 732829320", country: "FR" };

describe(`business buyers on ${databaseLabel}`, () => {
  let database: Database;
  let provider: TestProvider;
  let context: AppContext;
  let homeMethod: number;
  let ip = 0;

  async function newProduct() {
    const [product] = await database.db.insert(products).values({ title: "Display Écarlate et Violet", priceCents: 14_999, stock: 5, category: "TCG", subCategory: "Scellés" }).returning();
    return product!;
  }

  const checkout = (productId: number, business?: Record<string, string>) =>
    startCheckout(
      database.db,
      provider,
      { items: [{ productId, quantity: 2 }], insuranceSelected: false, email: "paul@ludotheque.example", delivery: { methodId: homeMethod, country: "FR" }, ...(business ? { business } : {}) },
      { now: new Date(), customer: null, clientIp: `198.51.100.${++ip}`, orderPrefix: "CPT", origin: ORIGIN, reservationMinutes: 30 },
    );

  const pay = (sessionId: string, form: Record<string, string>) =>
    outcome(() =>
      paymentRoute.action({
        request: new Request(`${ORIGIN}/paiement/${sessionId}`, { method: "POST", body: new URLSearchParams({ intent: "pay", ...form }) }),
        context,
        params: { sessionId },
      } as never),
    );
  const orderOf = async (number: string) => (await database.db.select().from(orders).where(eq(orders.number, number)))[0]!;
  const invoiceOf = async (orderId: string) => (await database.db.select().from(invoices).where(and(eq(invoices.orderId, orderId), eq(invoices.kind, "invoice"))))[0]!;
  const orderCount = async () => (await database.db.select({ n: count() }).from(orders))[0]!.n;
  const stockOf = async (id: number) => (await database.db.select({ stock: products.stock }).from(products).where(eq(products.id, id)))[0]!.stock;

  /** A refused checkout: the answer, and proof that nothing was held or written. */
  async function refused(business: Record<string, string>) {
    const product = await newProduct();
    const before = await orderCount();
    const result = await checkout(product.id, business);
    expect(await orderCount()).toBe(before);
    expect(await stockOf(product.id)).toBe(5);
    return result;
  }

  beforeAll(async () => {
    database = await openTestDatabase();
    provider = createTestProvider({ db: database.db, secret: "integration-secret" });
    const flat = [{ upToGrams: null, fromSubtotalCents: 0, priceCents: 490 }];
    const [home] = await database.db.insert(shippingMethods).values({ name: "Domicile test", kind: "home", countries: ["FR", "BE"], bands: flat, freeFromCents: null }).returning({ id: shippingMethods.id });
    homeMethod = home!.id;
    context = checkoutRouteContext(database.db, ORIGIN, { payments: provider });
  });
  afterAll(() => database?.close());
  beforeEach(async () => {
    await database.db.delete(rateLimits);
    await saveBusinessSalesSettings(database.db, { sellToBusinesses: true, intraEuExemption: false });
  });

  it("stores the company, asks the billing address in its country, and invoices it with the professional mentions", async () => {
    const product = await newProduct();
    const result = await checkout(product.id, COMPANY);
    expect(result.status).toBe(200);
    if (result.status !== 200) return;
    const order = await orderOf(result.body.orderNumber);
    expect(order.businessBuyer).toEqual({ companyName: "Ludothèque du Centre", siren: "732829320", vatNumber: "FR44732829320", country: "FR" });
    const sessionId = result.body.url.split("/paiement/")[1]!;

    // "Identique" ticked by a forged form, then a billing address in another country: both refused, nothing paid.
    const sameBox = await pay(sessionId, { ...HOME, billingSame: "on" });
    expect(sameBox.status).toBe(400);
    expect(sameBox.body).toMatchObject({ fieldErrors: { billingFullName: "Le nom de facturation doit contenir au moins 2 caractères" } });
    const abroad = await pay(sessionId, { ...HOME, ...BILLING, billingPostalCode: "1000", billingCity: "Bruxelles", billingCountry: "BE" });
    expect(abroad.status).toBe(400);
    expect(abroad.body).toEqual({ fieldErrors: { billingCountry: BUSINESS_BILLING_COUNTRY_MESSAGE } });
    expect((await orderOf(order.number)).status).toBe("pending_payment");

    const paid = await pay(sessionId, { ...HOME, ...BILLING });
    expect(paid.status).toBe(302);
    const done = await orderOf(order.number);
    expect(done.status).toBe("paid");
    expect(done.billingAddress).toEqual({ fullName: "Paul Martin", line1: "4 rue du Jeu", postalCode: "69001", city: "Lyon", country: "FR" });
    const { snapshot } = await invoiceOf(done.id);
    expect(snapshot.buyer.business).toEqual({ companyName: "Ludothèque du Centre", siren: "732829320", vatNumber: "FR44732829320", country: "FR" });
    expect(snapshot.mentions).toEqual(expect.arrayContaining(Object.values(BUSINESS_MENTIONS)));
    expect(snapshot.delivery!.addressLines).toEqual(["Paul Martin", "12 rue des Lilas", "69002 Lyon", "France"]);
    expect((await getOrderView(database.db, done.id))!.businessBuyer).toEqual(done.businessBuyer);
  });

  it("a consumer's order and invoice carry no professional mention", async () => {
    const product = await newProduct();
    const result = await checkout(product.id);
    if (result.status !== 200) throw new Error(JSON.stringify(result.body));
    expect((await pay(result.body.url.split("/paiement/")[1]!, { ...HOME, billingSame: "on" })).status).toBe(302);
    const order = await orderOf(result.body.orderNumber);
    expect(order.businessBuyer).toBeNull();
    const { snapshot } = await invoiceOf(order.id);
    expect(snapshot.buyer.business).toBeUndefined();
    for (const mention of Object.values(BUSINESS_MENTIONS)) expect(snapshot.mentions).not.toContain(mention);
    expect(snapshot.mentions.at(-1)).toContain("Garantie légale de conformité");
  });

  it("refuses a bad SIREN or VAT number in French, next to its field, holding nothing", async () => {
    const siren = await refused({ ...COMPANY, siren: "732829321", vatNumber: "" });
    expect(siren).toEqual({ status: 400, body: { error: "Achat professionnel", details: BUSINESS_MESSAGES.siren, code: "BUSINESS", fieldErrors: { "business.siren": BUSINESS_MESSAGES.siren } } });
    const vat = await refused({ ...COMPANY, vatNumber: "FR45732829320" });
    expect(vat).toMatchObject({ status: 400, body: { code: "BUSINESS", fieldErrors: { "business.vatNumber": BUSINESS_MESSAGES.vatNumber } } });
    const name = await refused({ ...COMPANY, companyName: " " });
    expect(name).toMatchObject({ status: 400, body: { fieldErrors: { "business.companyName": BUSINESS_MESSAGES.companyName } } });
    // A company in France needs its SIREN; one in Belgium does not.
    const missing = await refused({ ...COMPANY, siren: "", vatNumber: "" });
    expect(missing).toMatchObject({ status: 400, body: { fieldErrors: { "business.siren": BUSINESS_MESSAGES.sirenRequired } } });
    const belgian = await checkout((await newProduct()).id, { companyName: "Spelclub", siren: "", vatNumber: "BE0411905847", country: "BE" });
    expect(belgian.status).toBe(200);
  });

  it("refuses a professional purchase with a 409 while the seller does not sell to professionals, before any stock is held", async () => {
    await saveBusinessSalesSettings(database.db, { sellToBusinesses: false, intraEuExemption: false });
    const off = await refused(COMPANY);
    expect(off.status).toBe(409);
    expect(off.body).toMatchObject({ code: "BUSINESS_OFF", error: "Achat professionnel indisponible" });
    // Even an unreadable company: the seller's choice is said first.
    expect((await refused({ ...COMPANY, siren: "x" })).status).toBe(409);
    // A consumer still buys.
    expect((await checkout((await newProduct()).id)).status).toBe(200);
  });

  it("starts a signed-in customer's fields from their last company", async () => {
    const userId = "user-business-1";
    await database.db.insert(users).values({ id: userId, name: "Paul", email: "paul.compte@ludotheque.example", emailVerified: true });
    expect(await lastBusinessPurchase(database.db, userId)).toBeNull();
    const older = await checkout((await newProduct()).id, COMPANY);
    const newer = await checkout((await newProduct()).id, { companyName: "Spelclub", siren: "", vatNumber: "BE0411905847", country: "BE" });
    if (older.status !== 200 || newer.status !== 200) throw new Error("checkout refused");
    await database.db.update(orders).set({ userId }).where(inArray(orders.number, [older.body.orderNumber, newer.body.orderNumber]));
    expect(await lastBusinessPurchase(database.db, userId)).toEqual({ companyName: "Spelclub", siren: "", vatNumber: "BE0411905847", country: "BE" });
  });
});
