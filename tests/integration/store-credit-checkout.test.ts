import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { invoices, orderRefunds, orders, outboxEmails, products, rateLimits, shippingMethods, storeCreditMovements, testPaymentSessions, testRefunds } from "~/db/schema";
import { RATE_LIMITS } from "~/domain/rate-limits";
import { type CheckoutContext, startCheckout } from "~/services/checkout.server";
import { refundPartOfOrder } from "~/services/partial-refunds.server";
import { handlePaymentEvent } from "~/services/payment-webhooks.server";
import { createTestProvider, type TestProvider } from "~/services/payments/test-provider.server";
import { releaseExpiredReservations } from "~/services/reservations.server";
import { recordMovement, storeCreditBalance, storeCreditMovementsOf } from "~/services/store-credit.server";
import { createUserWithPassword } from "~/services/users.server";
import { flatDelivery } from "./flat-delivery";

import { HOME_ADDRESS } from "./paid-checkout";
import { databaseLabel, openTestDatabase } from "./test-database";
import { DEFAULT_FEC_ACCOUNTS } from "~/domain/fec-accounts";
import { fecEntriesFor } from "~/services/fec.server";

const deps = { shop: { name: "Comptoir", email: "contact@comptoir.example", publicUrl: "https://comptoir.example" }, sellerEmail: "vendeur@comptoir.example" };

/**
 * Store credit spent at checkout (issue 54, point 4; decision 055) on a real database: the server
 * decides what is used, the ledger never goes below 0 under concurrent checkouts, the provider
 * is asked only for the rest, a credit-only order is paid without it, and an order that ends
 * unpaid gives its credit back once.
 */
const RELAY_POINT = { id: "020145", name: "Tabac du Centre", line1: "3 place de la Mairie", postalCode: "69001", city: "Lyon" };

describe(`store credit at checkout on ${databaseLabel}`, () => {
  let database: Database;
  let provider: TestProvider;
  let delivery: { methodId: number; country: string };
  // A relay point carries the delivery's address: paid by credit alone at once (a home delivery asks it first: store-credit-home-delivery.test.ts).
  let relayDelivery: { methodId: number; country: string; relayPoint: typeof RELAY_POINT };
  let ip = 0;
  let people = 0;

  const ctx = (customer: CheckoutContext["customer"], overrides: Partial<CheckoutContext> = {}): CheckoutContext => ({
    now: new Date(),
    customer,
    clientIp: `198.51.100.${++ip % 250}-${ip}`,
    orderPrefix: "CPT",
    origin: "http://shop.test",
    reservationMinutes: 30,
    paidDeps: deps,
    ...overrides,
  });

  async function product(priceCents: number) {
    const [row] = await database.db.insert(products).values({ title: `Carte ${priceCents}`, priceCents, stock: 10, category: "TCG", subCategory: "Cartes à l'unité" }).returning();
    return row!;
  }

  async function customerWithCredit(creditCents: number, emailVerified = true) {
    const email = `client${++people}@example.fr`;
    const user = await createUserWithPassword(database.db, { email, password: "mot-de-passe-du-client", name: "Cliente", role: "user", emailVerified });
    if (creditCents > 0) await recordMovement(database.db, { email, amountCents: creditCents, kind: "goodwill", reason: "Geste commercial", author: "seller:test" });
    return { id: user.id, email };
  }

  const buy = (productId: number, storeCreditCents: number | undefined, context: CheckoutContext, chosen: typeof delivery = delivery) =>
    startCheckout(database.db, provider, { items: [{ productId, quantity: 1 }], insuranceSelected: false, delivery: chosen, ...(storeCreditCents === undefined ? {} : { storeCreditCents }) }, context);
  const orderOf = async (number: string) => (await database.db.select().from(orders).where(eq(orders.number, number)))[0]!;

  beforeAll(async () => {
    database = await openTestDatabase();
    provider = createTestProvider({ db: database.db, secret: "store-credit-secret" });
    delivery = await flatDelivery(database.db, "Lettre suivie", 0);
    const [relay] = await database.db.insert(shippingMethods).values({ name: "Point relais", kind: "relay", countries: ["FR"], bands: [{ upToGrams: null, fromSubtotalCents: 0, priceCents: 0 }], freeFromCents: null }).returning({ id: shippingMethods.id });
    relayDelivery = { methodId: relay!.id, country: "FR", relayPoint: RELAY_POINT };
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.db.delete(rateLimits);
  });

  it("20 concurrent checkouts of one customer spend one 100 € balance exactly, never below 0, and the provider is asked only for the rest", async () => {
    const customer = await customerWithCredit(100_00);
    const cards = await Promise.all(Array.from({ length: 20 }, () => product(30_00)));
    // Ten checkouts per e-mail every ten minutes is another rule (tested elsewhere): all twenty must race here.
    const limit = RATE_LIMITS.checkoutPerEmail.limit;
    (RATE_LIMITS.checkoutPerEmail as { limit: number }).limit = 100;
    const results = await Promise.all(cards.map((card) => buy(card.id, 100_00, ctx(customer)))).finally(() => {
      (RATE_LIMITS.checkoutPerEmail as { limit: number }).limit = limit;
    });
    expect(results.map((result) => result.status)).toEqual(Array(20).fill(200));
    const placed = await database.db.select().from(orders).where(eq(orders.userId, customer.id));
    expect(placed).toHaveLength(20);
    expect(placed.reduce((sum, order) => sum + order.storeCreditCents, 0)).toBe(100_00);
    expect(await storeCreditBalance(database.db, customer.email)).toBe(0);
    const movements = await storeCreditMovementsOf(database.db, customer.email);
    expect(movements.every((movement) => movement.balanceAfterCents >= 0)).toBe(true);
    // Whatever the delivery: three orders paid entirely by credit, one partly (decision 060).
    expect(movements.filter((movement) => movement.kind === "order").map((movement) => -movement.amountCents).sort((a, b) => a - b)).toEqual([10_00, 30_00, 30_00, 30_00]);
    const creditOnly = placed.filter((order) => order.storeCreditCents === order.totalCents);
    expect(creditOnly).toHaveLength(3);
    // Those wait for their address on the shop, without provider; the provider charges what the credit left of the others.
    for (const order of creditOnly) expect(order).toMatchObject({ status: "pending_payment", providerSessionId: null, paymentUrl: `http://shop.test/account/orders/${order.number}/livraison` });
    const sessions = await database.db.select().from(testPaymentSessions).where(inArray(testPaymentSessions.orderId, placed.map((order) => order.id)));
    expect(sessions).toHaveLength(17);
    for (const session of sessions) {
      const order = placed.find((candidate) => candidate.id === session.orderId)!;
      expect(session.totalCents).toBe(order.totalCents - order.storeCreditCents);
      expect(session.storeCreditCents).toBe(order.storeCreditCents);
    }
  });

  it("an order paid entirely by credit is paid without provider: invoice issued, confirmation e-mail saying « Payé par avoir »", async () => {
    const customer = await customerWithCredit(80_00);
    const card = await product(45_00);
    // Without asking, nothing is spent.
    const without = await buy(card.id, undefined, ctx(customer));
    if (without.status !== 200) throw new Error(JSON.stringify(without.body));
    expect((await orderOf(without.body.orderNumber)).storeCreditCents).toBe(0);
    const result = await buy(card.id, 80_00, ctx(customer), relayDelivery);
    expect(result.status).toBe(200);
    if (result.status !== 200) return;
    expect(result.body.url).toMatch(/^http:\/\/shop\.test\/merci\?success=true&session_id=avoir_/);
    const order = await orderOf(result.body.orderNumber);
    expect(order).toMatchObject({ status: "paid", storeCreditCents: 45_00, totalCents: 45_00 });
    const [invoice] = await database.db.select().from(invoices).where(eq(invoices.orderId, order.id));
    expect(invoice!.totalCents).toBe(45_00);
    expect(JSON.stringify(invoice!.snapshot)).toContain("Payé par avoir : 45,00");
    const [mail] = await database.db.select().from(outboxEmails).where(and(eq(outboxEmails.kind, "order-confirmation"), sql`${outboxEmails.subject} like ${`%${order.number}%`}`));
    expect(mail!.text).toMatch(/Payé par avoir\s+45,00\s€/);
    expect(await storeCreditBalance(database.db, customer.email)).toBe(35_00);
  });

  it("a part paid by card: the provider's payment of the rest is the order's payment, the invoice and e-mail show both parts", async () => {
    const customer = await customerWithCredit(12_00);
    const card = await product(42_00);
    const result = await buy(card.id, 12_00, ctx(customer));
    if (result.status !== 200) throw new Error(JSON.stringify(result.body));
    const order = await orderOf(result.body.orderNumber);
    expect(order).toMatchObject({ status: "pending_payment", storeCreditCents: 12_00, totalCents: 42_00 });
    const outcome = await handlePaymentEvent(
      database.db,
      provider,
      { id: `evt_${order.id}`, type: "session.completed", sessionId: order.providerSessionId, paid: true, paymentReference: "pi_credit", customerEmail: customer.email, customerName: "Cliente", shippingAddress: HOME_ADDRESS, amountTotalCents: 30_00, currency: "eur" },
      deps,
    );
    expect(outcome).toBe("paid");
    const [invoice] = await database.db.select().from(invoices).where(eq(invoices.orderId, order.id));
    expect(invoice!.totalCents).toBe(42_00);
    expect(JSON.stringify(invoice!.snapshot)).toContain("Payé par avoir : 12,00");
    const [mail] = await database.db.select().from(outboxEmails).where(and(eq(outboxEmails.kind, "order-confirmation"), sql`${outboxEmails.subject} like ${`%${order.number}%`}`));
    expect(mail!.text).toMatch(/Payé par carte\s+30,00\s€/);
  });

  it("an expired checkout gives its credit back once", async () => {
    const customer = await customerWithCredit(50_00);
    const card = await product(30_00);
    const result = await buy(card.id, 10_00, ctx(customer));
    if (result.status !== 200) throw new Error(JSON.stringify(result.body));
    const order = await orderOf(result.body.orderNumber);
    expect(order.storeCreditCents).toBe(10_00);
    expect(await storeCreditBalance(database.db, customer.email)).toBe(40_00);
    const later = new Date(Date.now() + 3 * 60 * 60_000);
    expect(await releaseExpiredReservations(database.db, later, { postgres: databaseLabel === "PostgreSQL" })).toContain(order.id);
    expect(await releaseExpiredReservations(database.db, later, { postgres: databaseLabel === "PostgreSQL" })).not.toContain(order.id);
    // The provider's own expiry arriving after: nothing more.
    const outcome = await handlePaymentEvent(database.db, provider, { id: `evt_exp_${order.id}`, type: "session.expired", sessionId: order.providerSessionId, paid: false, paymentReference: null, customerEmail: null, customerName: null, shippingAddress: null, amountTotalCents: null }, deps);
    expect(outcome).toBe("ignored");
    expect(await storeCreditBalance(database.db, customer.email)).toBe(50_00);
    const given = await database.db.select().from(storeCreditMovements).where(and(eq(storeCreditMovements.orderId, order.id), eq(storeCreditMovements.kind, "order_cancelled")));
    expect(given).toHaveLength(1);
    expect(given[0]).toMatchObject({ amountCents: 10_00, author: "system" });
  });

  it("a guest and an unverified account cannot use credit: the mailbox must be proven", async () => {
    const unverified = await customerWithCredit(0, false);
    await recordMovement(database.db, { email: unverified.email, amountCents: 20_00, kind: "goodwill", reason: "Geste", author: "seller:test" });
    const card = await product(25_00);
    for (const context of [ctx(unverified), ctx(null)]) {
      const result = await startCheckout(database.db, provider, { items: [{ productId: card.id, quantity: 1 }], insuranceSelected: false, delivery, email: unverified.email, storeCreditCents: 20_00 }, context);
      if (result.status !== 200) throw new Error(JSON.stringify(result.body));
      expect((await orderOf(result.body.orderNumber)).storeCreditCents).toBe(0);
    }
    expect(await storeCreditBalance(database.db, unverified.email)).toBe(20_00);
  });

  it("refuses an unreadable amount with a French 400 and holds nothing", async () => {
    const customer = await customerWithCredit(10_00);
    const card = await product(25_00);
    const result = await buy(card.id, -5, ctx(customer));
    expect(result.status).toBe(400);
    expect(JSON.stringify(result.body)).toContain("Le montant d'avoir ne peut pas être négatif.");
    expect(await storeCreditBalance(database.db, customer.email)).toBe(10_00);
  });

  it("a refund of an order paid partly by credit goes back to each means in proportion: the card's part to the provider, the rest as credit", async () => {
    const customer = await customerWithCredit(12_00);
    const card = await product(42_00);
    const result = await buy(card.id, 12_00, ctx(customer));
    if (result.status !== 200) throw new Error(JSON.stringify(result.body));
    const placed = await orderOf(result.body.orderNumber);
    const paidEvent = { id: `evt_${placed.id}`, type: "session.completed" as const, sessionId: placed.providerSessionId, paid: true, paymentReference: `pi_${placed.id}`, customerEmail: customer.email, customerName: "Cliente", shippingAddress: HOME_ADDRESS, amountTotalCents: 30_00, currency: "eur" };
    expect(await handlePaymentEvent(database.db, provider, paidEvent, deps)).toBe("paid");
    expect(await storeCreditBalance(database.db, customer.email)).toBe(0);
    // 7 € of goodwill: 30/42 of it to the card (5,00 €), the rest (2,00 €) as credit.
    const refund = await refundPartOfOrder(
      database.db,
      provider,
      { orderId: placed.id, requestKey: "geste-1", request: { lines: [], shippingCents: 0, insuranceCents: 0, adjustment: { kind: "goodwill", cents: 7_00, reason: "Carte abîmée" } }, actorId: null },
      deps,
    );
    expect(refund).toMatchObject({ ok: true, refund: { status: "refunded", amountCents: 7_00, storeCreditCents: 2_00 } });
    expect((await database.db.select().from(testRefunds).where(eq(testRefunds.paymentReference, `pi_${placed.id}`))).map((row) => row.amountCents)).toEqual([5_00]);
    expect(await storeCreditBalance(database.db, customer.email)).toBe(2_00);
    // Sent again (the same form posted twice): nothing more.
    await refundPartOfOrder(database.db, provider, { orderId: placed.id, requestKey: "geste-1", request: { lines: [], shippingCents: 0, insuranceCents: 0, adjustment: { kind: "goodwill", cents: 7_00, reason: "Carte abîmée" } }, actorId: null }, deps);
    expect(await storeCreditBalance(database.db, customer.email)).toBe(2_00);
    const given = await database.db.select().from(storeCreditMovements).where(and(eq(storeCreditMovements.orderId, placed.id), eq(storeCreditMovements.kind, "refund")));
    expect(given).toHaveLength(1);
  });

  it("the FEC of a period with credit payments balances: the credit's part debits 4191 and credits 411", async () => {
    const now = new Date();
    const entries = await fecEntriesFor(database.db, { year: now.getUTCFullYear(), month: null }, DEFAULT_FEC_ACCOUNTS);
    for (const entry of entries) expect(entry.lines.reduce((sum, line) => sum + line.cents, 0)).toBe(0);
    const creditLines = entries.flatMap((entry) => entry.lines).filter((line) => line.account === "4191");
    expect(creditLines.length).toBeGreaterThan(0);
    // Every cent of credit spent on a paid order, less what refunds gave back as credit, and nothing else, went through 4191.
    const paid = await database.db.select().from(orders).where(eq(orders.status, "paid"));
    const givenBack = await database.db.select().from(orderRefunds).where(eq(orderRefunds.status, "refunded"));
    expect(creditLines.reduce((sum, line) => sum + line.cents, 0)).toBe(paid.reduce((sum, order) => sum + order.storeCreditCents, 0) - givenBack.reduce((sum, row) => sum + row.storeCreditCents, 0));
    // The revenue stays the invoices' (less the credit notes): 411's debits are their totals, whatever paid them.
    const sales = entries.filter((entry) => entry.journal === "VE").flatMap((entry) => entry.lines.filter((line) => line.account === "411"));
    expect(sales.reduce((sum, line) => sum + line.cents, 0)).toBe(paid.reduce((sum, order) => sum + order.totalCents, 0) - givenBack.reduce((sum, row) => sum + row.amountCents, 0));
  });
});
