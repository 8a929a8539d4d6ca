import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { invoices, orders, products, rateLimits, shippingMethods, testPaymentSessions } from "~/db/schema";
import type { AppContext } from "~/lib/context";
import * as paymentRoute from "~/routes/payment-test";
import { startCheckout } from "~/services/checkout.server";
import { eraseGuest, exportGuestData } from "~/services/gdpr.server";
import { getOrderView } from "~/services/orders.server";
import { createTestProvider, type TestProvider } from "~/services/payments/test-provider.server";
import { outcome } from "./route-outcome";
import { databaseLabel, openTestDatabase } from "./test-database";
import { checkoutRouteContext } from "./route-context";

/**
 * The billing address (issue 51, point 3) from the payment page to the invoice, on a real
 * database: a relay-point order must be given one (a relay point is never the buyer's address),
 * a home delivery copies its address when « Adresse de facturation identique » stays ticked; the
 * order stores it, the invoice names it under « Facturé à » with the relay point apart. A refused
 * billing address answers 400 in French and writes nothing: the order stays unpaid, without an
 * address, without an invoice, its session still open.
 */
const ORIGIN = "http://shop.test";
const RELAY_POINT = { id: "020145", name: "Tabac du Centre", line1: "3 place de la Mairie", postalCode: "69001", city: "Lyon" };
const CARD = { cardNumber: "4242 4242 4242 4242", cardExpiry: "12/30", cardCvc: "123" };
const BILLING = {
  billingFullName: "Pierre Curie",
  billingLine1: "8 rue Cuvier",
  billingLine2: "Escalier A",
  billingPostalCode: "75005",
  billingCity: "Paris",
  billingCountry: "FR",
};

describe(`billing address on ${databaseLabel}`, () => {
  let database: Database;
  let provider: TestProvider;
  let context: AppContext;
  let relayMethod: number;
  let homeMethod: number;
  let ip = 0;

  async function checkout(delivery: { methodId: number; country: string; relayPoint?: typeof RELAY_POINT }, email = "marie@example.com") {
    const [product] = await database.db.insert(products).values({ title: "Display Écarlate et Violet", priceCents: 14_999, stock: 5, category: "TCG", subCategory: "Scellés" }).returning();
    const result = await startCheckout(
      database.db,
      provider,
      { items: [{ productId: product!.id, quantity: 1 }], insuranceSelected: false, email, delivery },
      { now: new Date(), customer: null, clientIp: `198.51.100.${++ip}`, orderPrefix: "CPT", origin: ORIGIN, reservationMinutes: 30 },
    );
    if (result.status !== 200) throw new Error(`checkout refused: ${JSON.stringify(result.body)}`);
    return { sessionId: result.body.url.split("/paiement/")[1]!, number: result.body.orderNumber };
  }

  /** « Payer » on the test payment page, through the route's action as React Router calls it. */
  const pay = (sessionId: string, form: Record<string, string>) =>
    outcome(() =>
      paymentRoute.action({
        request: new Request(`${ORIGIN}/paiement/${sessionId}`, { method: "POST", body: new URLSearchParams({ intent: "pay", ...form }) }),
        context,
        params: { sessionId },
      } as never),
    );
  const orderOf = async (number: string) => (await database.db.select().from(orders).where(eq(orders.number, number)))[0]!;
  const invoiceOf = async (orderId: string) => (await database.db.select().from(invoices).where(and(eq(invoices.orderId, orderId), eq(invoices.kind, "invoice"))))[0];

  beforeAll(async () => {
    database = await openTestDatabase();
    provider = createTestProvider({ db: database.db, secret: "integration-secret" });
    const flat = [{ upToGrams: null, fromSubtotalCents: 0, priceCents: 490 }];
    const [relay] = await database.db.insert(shippingMethods).values({ name: "Point relais test", kind: "relay", countries: ["FR"], bands: flat, freeFromCents: null }).returning({ id: shippingMethods.id });
    const [home] = await database.db.insert(shippingMethods).values({ name: "Domicile test", kind: "home", countries: ["FR"], bands: flat, freeFromCents: null }).returning({ id: shippingMethods.id });
    [relayMethod, homeMethod] = [relay!.id, home!.id];
    context = checkoutRouteContext(database.db, ORIGIN, { payments: provider });
  });
  afterAll(() => database?.close());
  beforeEach(async () => {
    await database.db.delete(rateLimits);
  });

  it("a relay-point order: a bad billing address is refused in French and writes nothing; a good one is stored and invoiced under « Facturé à »", async () => {
    const { sessionId, number } = await checkout({ methodId: relayMethod, country: "FR", relayPoint: RELAY_POINT });
    const recipient = { fullName: "Marie Curie", phone: "06 12 34 56 78", ...CARD };

    // The box ticked (a forged form): a relay point still needs an address; a French postcode has 5 digits.
    const refused = await pay(sessionId, { ...recipient, billingSame: "on", ...BILLING, billingLine1: "", billingPostalCode: "7500" });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      fieldErrors: { billingLine1: "L'adresse de facturation est obligatoire", billingPostalCode: "Code postal de facturation invalide (5 chiffres)" },
    });
    const missing = await pay(sessionId, recipient);
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ fieldErrors: { billingFullName: "Le nom de facturation doit contenir au moins 2 caractères", billingCountry: "Choisissez le pays de facturation" } });
    const untouched = await orderOf(number);
    expect(untouched).toMatchObject({ status: "pending_payment", billingAddress: null, paidAt: null });
    expect(await invoiceOf(untouched.id)).toBeUndefined();
    expect((await database.db.select({ status: testPaymentSessions.status }).from(testPaymentSessions).where(eq(testPaymentSessions.id, sessionId)))[0]!.status).toBe("open");

    const paid = await pay(sessionId, { ...recipient, ...BILLING, billingPostalCode: " 75005 " });
    expect(paid.status).toBe(302);
    expect(paid.location).toContain("/merci");
    const order = await orderOf(number);
    expect(order.status).toBe("paid");
    expect(order.billingAddress).toEqual({ fullName: "Pierre Curie", line1: "8 rue Cuvier", line2: "Escalier A", postalCode: "75005", city: "Paris", country: "FR" });
    // The parcel still goes to the relay point, to Marie.
    expect(order.shippingAddress).toMatchObject({ method: "relay", relayPointName: "Tabac du Centre", fullName: "Marie Curie", line1: "3 place de la Mairie" });

    const invoice = await invoiceOf(order.id);
    expect(invoice!.snapshot.buyer).toEqual({
      name: "Pierre Curie",
      email: "marie@example.com",
      addressLines: ["Pierre Curie", "8 rue Cuvier", "Escalier A", "75005 Paris", "France"],
    });
    expect(invoice!.snapshot.delivery).toEqual({
      methodName: "Point relais test",
      addressLines: ["Point relais : Tabac du Centre (n° 020145)", "3 place de la Mairie", "69001 Lyon", "France"],
    });
    // The order pages (customer's and seller's, through OrderSummary) read it from the view.
    expect((await getOrderView(database.db, order.id))!.billingAddress).toEqual(order.billingAddress);
  });

  it("a home delivery with « Adresse de facturation identique » ticked: the delivery address is the billing address", async () => {
    const { sessionId, number } = await checkout({ methodId: homeMethod, country: "FR" });
    const home = { fullName: "Marie Curie", line1: "12 rue des Lilas", line2: "Bât. B", postalCode: "75011", city: "Paris", country: "FR", phone: "0612345678", ...CARD };
    // Typed, then hidden by ticking the box again: what the page still holds is not used.
    const paid = await pay(sessionId, { ...home, billingSame: "on", ...BILLING, billingPostalCode: "" });
    expect(paid.status).toBe(302);
    const order = await orderOf(number);
    expect(order.billingAddress).toEqual({ fullName: "Marie Curie", line1: "12 rue des Lilas", line2: "Bât. B", postalCode: "75011", city: "Paris", country: "FR" });
    expect((await invoiceOf(order.id))!.snapshot.buyer.addressLines).toEqual(["Marie Curie", "12 rue des Lilas", "Bât. B", "75011 Paris", "France"]);
  });

  it("a home delivery billed elsewhere: the box unticked asks the address, then stores it beside the delivery's", async () => {
    const { sessionId, number } = await checkout({ methodId: homeMethod, country: "FR" });
    const home = { fullName: "Marie Curie", line1: "12 rue des Lilas", postalCode: "75011", city: "Paris", country: "FR", phone: "0612345678", ...CARD };
    const refused = await pay(sessionId, home);
    expect(refused.status).toBe(400);
    expect(Object.keys((refused.body as { fieldErrors: object }).fieldErrors)).toEqual(["billingFullName", "billingLine1", "billingPostalCode", "billingCity", "billingCountry"]);
    expect((await orderOf(number)).status).toBe("pending_payment");

    const paid = await pay(sessionId, { ...home, ...BILLING, billingLine2: "", billingCountry: "BE", billingPostalCode: "1000", billingCity: "Bruxelles" });
    expect(paid.status).toBe(302);
    const order = await orderOf(number);
    expect(order.billingAddress).toEqual({ fullName: "Pierre Curie", line1: "8 rue Cuvier", postalCode: "1000", city: "Bruxelles", country: "BE" });
    expect(order.shippingAddress).toMatchObject({ method: "home", line1: "12 rue des Lilas", city: "Paris" });
    const snapshot = (await invoiceOf(order.id))!.snapshot;
    expect(snapshot.buyer.addressLines).toEqual(["Pierre Curie", "8 rue Cuvier", "1000 Bruxelles", "Belgique"]);
    expect(snapshot.delivery!.addressLines).toEqual(["Marie Curie", "12 rue des Lilas", "75011 Paris", "France"]);
  });

  it("is in the guest's data export, and their erasure takes it off the order (the invoice stays as issued)", async () => {
    const email = "pierre.factures@example.com";
    const { sessionId, number } = await checkout({ methodId: relayMethod, country: "FR", relayPoint: RELAY_POINT }, email);
    expect((await pay(sessionId, { fullName: "Marie Curie", phone: "0612345678", ...CARD, ...BILLING })).status).toBe(302);
    const exported = await exportGuestData(database.db, email);
    expect(exported!.orders[0]!.billingAddress).toMatchObject({ fullName: "Pierre Curie", line1: "8 rue Cuvier" });
    // Delivered: nothing left open, the guest may be erased.
    await database.db.update(orders).set({ status: "shipped", shippedAt: new Date() }).where(eq(orders.number, number));
    expect(await eraseGuest(database.db, { email })).toMatchObject({ outcome: "erased", orders: 1 });
    const order = await orderOf(number);
    expect(order.billingAddress).toBeNull();
    expect(JSON.stringify(order)).not.toContain("Cuvier");
    expect((await invoiceOf(order.id))!.snapshot.buyer.addressLines[1]).toBe("8 rue Cuvier");
  });
});
