import { and, eq, sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { invoices, orders, outboxEmails, products, rateLimits, storeCreditMovements, testPaymentSessions } from "~/db/schema";
import { type Auth, createAuth } from "~/lib/auth.server";
import type { AppContext } from "~/lib/context";
import * as accountOrderRoute from "~/routes/account-order";
import * as creditDeliveryRoute from "~/routes/credit-delivery";
import { type CheckoutContext, startCheckout } from "~/services/checkout.server";
import { listCustomerAddresses } from "~/services/customer-addresses.server";
import { createTestProvider, type TestProvider } from "~/services/payments/test-provider.server";
import { releaseExpiredReservations } from "~/services/reservations.server";
import { recordMovement, storeCreditBalance } from "~/services/store-credit.server";
import { createUserWithPassword } from "~/services/users.server";
import { flatDelivery } from "./flat-delivery";
import { outcome } from "./route-outcome";
import { databaseLabel, openTestDatabase } from "./test-database";

/**
 * A home delivery paid entirely by store credit (decision 060) on a real database: the checkout
 * spends the credit and sends the customer to the shop's address page instead of a provider; a
 * bad address is refused there with its field's French message and a 400, writing nothing; the
 * address given pays the order (invoice, confirmation); left without it, the order ends with its
 * reservation and gives its credit back once; cancelled from the page, the same at once.
 */
const ORIGIN = "http://shop.test";
const PASSWORD = "mot-de-passe-du-client";
const deps = { shop: { name: "Comptoir", email: "contact@comptoir.example", publicUrl: ORIGIN }, sellerEmail: "vendeur@comptoir.example" };
const ADDRESS = { fullName: "Marie Curie", line1: "12 rue des Lilas", line2: "Bât. B", postalCode: "75011", city: "Paris", country: "FR", phone: "06 12 34 56 78", billingSame: "on" };

describe(`a home delivery paid entirely by store credit on ${databaseLabel}`, () => {
  let database: Database;
  let provider: TestProvider;
  let auth: Auth;
  let context: AppContext;
  let delivery: { methodId: number; country: string };
  let people = 0;
  let ip = 0;

  async function customerWithCredit(creditCents: number) {
    const email = `domicile${++people}@example.fr`;
    const user = await createUserWithPassword(database.db, { email, password: PASSWORD, name: "Cliente", role: "user", emailVerified: true });
    await recordMovement(database.db, { email, amountCents: creditCents, kind: "goodwill", reason: "Geste commercial", author: "seller:test" });
    const signedIn = await auth.api.signInEmail({ body: { email, password: PASSWORD }, headers: new Headers(), returnHeaders: true });
    const cookie = signedIn.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    return { id: user.id, email, cookie };
  }

  /** A checkout of one 30 € card (+ 4,90 € of delivery) asking for all the credit. */
  async function checkoutAllByCredit(customer: { id: string; email: string }, overrides: Partial<CheckoutContext> = {}) {
    const [card] = await database.db.insert(products).values({ title: "Dracaufeu ex", priceCents: 30_00, stock: 5, category: "TCG", subCategory: "Cartes à l'unité" }).returning();
    const result = await startCheckout(database.db, provider, { items: [{ productId: card!.id, quantity: 1 }], insuranceSelected: false, delivery, storeCreditCents: 100_00 }, {
      now: new Date(),
      customer: { id: customer.id, email: customer.email },
      clientIp: `198.51.100.${++ip}`,
      orderPrefix: "CPT",
      origin: ORIGIN,
      reservationMinutes: 30,
      paidDeps: deps,
      ...overrides,
    } as CheckoutContext);
    if (result.status !== 200) throw new Error(`checkout refused: ${JSON.stringify(result.body)}`);
    return { url: result.body.url, number: result.body.orderNumber, card: card! };
  }

  const page = (number: string, cookie: string, form?: Record<string, string>) => {
    const url = `${ORIGIN}/account/orders/${number}/livraison`;
    const request = form ? new Request(url, { method: "POST", headers: { cookie, origin: ORIGIN }, body: new URLSearchParams(form) }) : new Request(url, { headers: { cookie } });
    const args = { request, context, params: { number } } as never;
    return outcome(() => (form ? creditDeliveryRoute.action(args) : creditDeliveryRoute.loader(args)));
  };
  const orderOf = async (number: string) => (await database.db.select().from(orders).where(eq(orders.number, number)))[0]!;
  const givenBack = (orderId: string) => database.db.select().from(storeCreditMovements).where(and(eq(storeCreditMovements.orderId, orderId), eq(storeCreditMovements.kind, "order_cancelled")));

  beforeAll(async () => {
    database = await openTestDatabase();
    provider = createTestProvider({ db: database.db, secret: "credit-home-secret" });
    const noMail = async () => {};
    auth = createAuth({ db: database.db, secret: "integration-secret-credit-home-0123456789", baseUrl: ORIGIN, mail: { verification: noMail, existingAccount: noMail, passwordReset: noMail } });
    delivery = await flatDelivery(database.db, "Colissimo domicile", 4_90);
    context = {
      db: database.db,
      auth,
      payments: provider,
      shop: { name: "Comptoir", email: "contact@comptoir.example", socials: [], legal: { companyName: "Comptoir des Cartes", address: "12 rue des Lilas, 69001 Lyon" } },
      publicUrl: ORIGIN,
      logger: pino({ level: "silent" }),
      clientIp: "203.0.113.1",
      kickMail: () => {},
      checkout: { orderPrefix: "CPT", reservationMinutes: 30, sellerEmail: deps.sellerEmail },
    } as unknown as AppContext;
  });
  afterAll(() => database?.close());
  beforeEach(async () => {
    await database.db.delete(rateLimits);
  });

  it("the credit pays it all, no provider is asked; the address is required, a bad one refused in French with a 400; the order is paid once it is given", async () => {
    const customer = await customerWithCredit(50_00);
    const { url, number } = await checkoutAllByCredit(customer);
    expect(url).toBe(`${ORIGIN}/account/orders/${number}/livraison`);
    const pending = await orderOf(number);
    // No card part kept any more: the whole total (30 € + 4,90 €) comes from the credit.
    expect(pending).toMatchObject({ status: "pending_payment", totalCents: 34_90, storeCreditCents: 34_90, providerSessionId: null, shippingAddress: null, paymentUrl: url });
    expect(await database.db.select().from(testPaymentSessions).where(eq(testPaymentSessions.orderId, pending.id))).toEqual([]);
    expect(await storeCreditBalance(database.db, customer.email)).toBe(15_10);

    // The page is its owner's only.
    expect((await page(number, customer.cookie)).status).toBe(200);
    const stranger = await customerWithCredit(1_00);
    expect((await page(number, stranger.cookie)).status).toBe(404);
    expect((await page(number, stranger.cookie, ADDRESS)).status).toBe(404);

    // Nothing given: each required field says what it needs.
    const empty = await page(number, customer.cookie, { intent: "confirm" });
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ fieldErrors: { fullName: "Le nom doit contenir au moins 2 caractères", line1: "L'adresse est obligatoire", city: "La ville est obligatoire", phone: "Merci d'entrer un numéro de téléphone valide" } });
    // A French postcode has 5 digits; the country is the one the delivery was priced for.
    const badPostcode = await page(number, customer.cookie, { ...ADDRESS, postalCode: "7501" });
    expect(badPostcode).toMatchObject({ status: 400, body: { fieldErrors: { postalCode: "Code postal invalide (5 chiffres)" } } });
    const otherCountry = await page(number, customer.cookie, { ...ADDRESS, country: "BE", postalCode: "1000" });
    expect(otherCountry).toMatchObject({ status: 400, body: { fieldErrors: { country: "Ce pays n'est pas celui de la livraison choisie dans le panier" } } });
    const untouched = await orderOf(number);
    expect(untouched).toMatchObject({ status: "pending_payment", shippingAddress: null, billingAddress: null, paidAt: null });
    expect(await database.db.select().from(invoices).where(eq(invoices.orderId, untouched.id))).toEqual([]);

    // « Enregistrer cette adresse dans mon compte » ticked (decision 064): the address goes to the book.
    const paid = await page(number, customer.cookie, { ...ADDRESS, saveDeliveryAddress: "on" });
    expect(paid).toMatchObject({ status: 302, location: `/merci?success=true&session_id=avoir_${pending.id}` });
    expect((await listCustomerAddresses(database.db, customer.id)).map((entry) => [entry.kind, entry.address, entry.isDefault])).toEqual([
      ["delivery", { fullName: "Marie Curie", line1: "12 rue des Lilas", line2: "Bât. B", postalCode: "75011", city: "Paris", country: "FR", phone: "06 12 34 56 78" }, true],
    ]);
    const order = await orderOf(number);
    expect(order).toMatchObject({ status: "paid", customerName: "Marie Curie", providerSessionId: `avoir_${pending.id}` });
    expect(order.shippingAddress).toEqual({ method: "home", fullName: "Marie Curie", line1: "12 rue des Lilas", line2: "Bât. B", postalCode: "75011", city: "Paris", country: "FR", phone: "06 12 34 56 78" });
    expect(order.billingAddress).toEqual({ fullName: "Marie Curie", line1: "12 rue des Lilas", line2: "Bât. B", postalCode: "75011", city: "Paris", country: "FR" });
    const [invoice] = await database.db.select().from(invoices).where(eq(invoices.orderId, order.id));
    expect(invoice!.snapshot.buyer.addressLines).toEqual(["Marie Curie", "12 rue des Lilas", "Bât. B", "75011 Paris", "France"]);
    expect(JSON.stringify(invoice!.snapshot)).toContain("Payé par avoir : 34,90");
    const [mail] = await database.db.select().from(outboxEmails).where(and(eq(outboxEmails.kind, "order-confirmation"), sql`${outboxEmails.subject} like ${`%${number}%`}`));
    expect(mail!.text).toMatch(/Payé par avoir\s+34,90\s€/);

    // Sent again (a second tab): nothing more; the page now leads to the order.
    expect(await page(number, customer.cookie, ADDRESS)).toMatchObject({ status: 302, location: `/account/orders/${number}` });
    expect(await page(number, customer.cookie)).toMatchObject({ status: 302, location: `/account/orders/${number}` });
    expect(await storeCreditBalance(database.db, customer.email)).toBe(15_10);
  });

  it("left without an address, the order ends with its reservation and gives its credit back once; the page then refuses it", async () => {
    const customer = await customerWithCredit(40_00);
    const { number } = await checkoutAllByCredit(customer);
    const order = await orderOf(number);
    expect(await storeCreditBalance(database.db, customer.email)).toBe(5_10);
    const later = new Date(Date.now() + 3 * 60 * 60_000);
    const postgres = { postgres: databaseLabel === "PostgreSQL" };
    expect(await releaseExpiredReservations(database.db, later, postgres)).toContain(order.id);
    expect(await releaseExpiredReservations(database.db, later, postgres)).not.toContain(order.id);
    expect(await storeCreditBalance(database.db, customer.email)).toBe(40_00);
    expect(await givenBack(order.id)).toHaveLength(1);
    expect((await orderOf(number)).status).toBe("expired");

    const tooLate = await page(number, customer.cookie, ADDRESS);
    expect(tooLate.status).toBe(409);
    expect(JSON.stringify(tooLate.body)).toContain("votre avoir vous a été rendu");
    expect((await orderOf(number)).status).toBe("expired");
    expect(await storeCreditBalance(database.db, customer.email)).toBe(40_00);
  });

  it("past its reservation but not yet swept, the address is refused and the sweep gives the credit back once", async () => {
    const customer = await customerWithCredit(40_00);
    // Reserved for a minute only, ten minutes ago.
    const { number } = await checkoutAllByCredit(customer, { now: new Date(Date.now() - 10 * 60_000), reservationMinutes: 1 });
    expect((await page(number, customer.cookie, ADDRESS)).status).toBe(409);
    expect((await orderOf(number)).status).toBe("pending_payment");
    const order = await orderOf(number);
    expect(await releaseExpiredReservations(database.db, new Date(), { postgres: databaseLabel === "PostgreSQL" })).toContain(order.id);
    expect(await givenBack(order.id)).toHaveLength(1);
    expect(await storeCreditBalance(database.db, customer.email)).toBe(40_00);
  });

  it("cancelled from its page or from the order's page, the credit comes back at once, once", async () => {
    const customer = await customerWithCredit(80_00);
    const first = await checkoutAllByCredit(customer);
    const second = await checkoutAllByCredit(customer);
    expect(await storeCreditBalance(database.db, customer.email)).toBe(10_20);

    const cancelled = await page(first.number, customer.cookie, { intent: "cancel" });
    expect(cancelled).toMatchObject({ status: 302, location: "/cart?canceled=true" });
    expect((await orderOf(first.number)).status).toBe("cancelled");
    expect(await page(first.number, customer.cookie, { intent: "cancel" })).toMatchObject({ status: 302 });

    // « Annuler la commande » of the order's page (its « Reprendre le paiement » leads to the address page).
    const orderPage = await outcome(() =>
      accountOrderRoute.action({
        request: new Request(`${ORIGIN}/account/orders/${second.number}`, { method: "POST", headers: { cookie: customer.cookie, origin: ORIGIN }, body: new URLSearchParams({ intent: "cancel-payment" }) }),
        context,
        params: { number: second.number },
      } as never),
    );
    expect(orderPage.status).toBe(200);
    expect((await orderOf(second.number)).status).toBe("cancelled");

    expect(await storeCreditBalance(database.db, customer.email)).toBe(80_00);
    expect(await givenBack((await orderOf(first.number)).id)).toHaveLength(1);
    expect(await givenBack((await orderOf(second.number)).id)).toHaveLength(1);
  });
});
