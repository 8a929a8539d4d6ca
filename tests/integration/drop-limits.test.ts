import { and, eq, inArray, sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { DropRefusalTally } from "~/services/drop-refusal-tally.server";
import { dropQueue, dropRefusals, orderEvents, orders, outboxEmails, productDrops, products, rateLimits, users } from "~/db/schema";
import { addressKey } from "~/domain/address-key";
import { UNPAID_DROP_ORDERS_PER_NETWORK } from "~/domain/drop-rules";
import { RATE_LIMITS, rateLimitKey } from "~/domain/rate-limits";
import { type CheckoutContext, cancelCheckout, startCheckout } from "~/services/checkout.server";
import { receiveWebhook } from "~/services/payment-webhooks.server";
import { createTestProvider, type TestProvider, testWebhook } from "~/services/payments/test-provider.server";
import { sweepExpiredReservations } from "~/services/reservation-sweeper.server";
import { listDrops } from "~/services/drops-admin.server";
import { admissionToken, advanceQueue, joinQueue, queueView } from "~/services/waiting-room.server";
import { databaseLabel, openTestDatabase } from "./test-database";

/**
 * A drop's per-customer limits (issue 39) through the checkout and the payment webhook, on a
 * real database: each key (account, normalised e-mail, delivery address at payment, network),
 * the single unpaid order, the account a drop may require, and refusals that write nothing.
 */
const deps = { shop: { name: "Comptoir", email: "contact@comptoir.example", publicUrl: "https://comptoir.example" }, sellerEmail: "vendeur@comptoir.example" };
const SECRET = "secret-des-admissions-de-sortie-0123";
const home = { method: "home" as const, fullName: "Marie Curie", line1: "12 rue des Lilas", postalCode: "75011", city: "Paris", country: "FR" };

describe(`drop limits per customer on ${databaseLabel}`, () => {
  let database: Database;
  let provider: TestProvider;
  let ip = 0;

  const ctx = (overrides: Partial<CheckoutContext> = {}): CheckoutContext => ({
    now: new Date(),
    customer: null,
    // Another network per checkout unless a test says otherwise: the network bound has its own test.
    clientIp: `198.51.100.${++ip % 250}`,
    orderPrefix: "CPT",
    origin: "http://shop.test",
    reservationMinutes: 30,
    ...overrides,
  });

  async function drop(rules: Partial<typeof productDrops.$inferInsert> = {}, stock = 10) {
    const [product] = await database.db
      .insert(products)
      .values({ title: `Display sortie ${++ip}`, priceCents: 14_999, stock, category: "TCG", subCategory: "Scellés" })
      .returning();
    await database.db.insert(productDrops).values({ productId: product!.id, perCustomerLimit: 1, ...rules });
    return product!;
  }
  const buy = (productId: number, email: string | null, overrides: Partial<CheckoutContext> = {}, quantity = 1) =>
    startCheckout(database.db, provider, { items: [{ productId, quantity }], insuranceSelected: false, ...(email ? { email } : {}) }, ctx(overrides));
  const stockOf = async (id: number) => (await database.db.select({ stock: products.stock }).from(products).where(eq(products.id, id)))[0]!.stock;
  const ordersOf = async (productId: number) =>
    (await database.db.execute(sql`select count(*)::int as n from order_items where product_id = ${productId}`)) as unknown as { rows: { n: number }[] };
  const orderCount = async (productId: number) => (await ordersOf(productId)).rows[0]!.n;
  const orderOf = async (number: string) => (await database.db.select().from(orders).where(eq(orders.number, number)))[0]!;

  async function pay(orderNumber: string, email: string, address = home) {
    const order = await orderOf(orderNumber);
    const event = testWebhook(provider, "checkout.session.completed", {
      sessionId: order.providerSessionId!,
      paid: true,
      paymentReference: `pi_${orderNumber}`,
      customerEmail: email,
      customerName: address.fullName,
      shippingAddress: address,
      amountTotalCents: null,
    });
    return (await receiveWebhook(database.db, provider, event.raw, event.headers, deps)).body.outcome;
  }

  beforeAll(async () => {
    database = await openTestDatabase();
    provider = createTestProvider({ db: database.db, secret: "integration-secret-drops" });
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.db.delete(rateLimits);
  });

  it("refuses more units in one cart than the limit, a guest without an e-mail, and a guest when an account is required; nothing is written", async () => {
    const limited = await drop({ perCustomerLimit: 2 });
    expect(await buy(limited.id, "marie@example.com", {}, 3)).toMatchObject({ status: 422, body: { code: "DROP_LIMIT", error: "Limité à 2 par client", productId: limited.id } });
    expect(await buy(limited.id, null)).toMatchObject({ status: 422, body: { code: "DROP_EMAIL", fieldErrors: { email: expect.stringContaining("Indiquez votre adresse e-mail") } } });
    const members = await drop({ accountRequired: true });
    expect(await buy(members.id, "marie@example.com")).toMatchObject({ status: 401, body: { code: "DROP_ACCOUNT", error: "Compte requis" } });
    expect(await stockOf(limited.id)).toBe(10);
    expect(await stockOf(members.id)).toBe(10);
    expect(await orderCount(limited.id)).toBe(0);
    expect(await orderCount(members.id)).toBe(0);
    // Nothing written but the seller's counters of refusals by reason.
    const counted = await database.db.select().from(dropRefusals).where(inArray(dropRefusals.productId, [limited.id, members.id])).orderBy(dropRefusals.reason);
    expect(counted).toEqual([
      { productId: members.id, reason: "DROP_ACCOUNT", count: 1 },
      { productId: limited.id, reason: "DROP_EMAIL", count: 1 },
      { productId: limited.id, reason: "DROP_LIMIT", count: 1 },
    ]);
  });

  it("holds a drop's units for its own time (10 minutes by default), not the shop's 30", async () => {
    const product = await drop();
    const result = await buy(product.id, "delai@example.com");
    expect(result.status).toBe(200);
    const order = await orderOf((result.body as { orderNumber: string }).orderNumber);
    expect(order.reservedUntil!.getTime() - order.createdAt.getTime()).toBe(10 * 60_000);
    expect(order).toMatchObject({ buyerEmailKey: "delai@example.com", clientNetwork: expect.stringMatching(/^198\.51\.100\./) });
  });

  it("counts one mailbox whatever its spelling: one unpaid order, then the limit once it is paid", async () => {
    const product = await drop();
    const first = await buy(product.id, "Jean.Dupont+drop@gmail.com");
    expect(first.status).toBe(200);
    // The same mailbox spelled otherwise, from another network, while the first is unpaid.
    expect(await buy(product.id, "jeandupont@googlemail.com")).toMatchObject({ status: 409, body: { code: "DROP_PENDING", details: expect.stringContaining("une seule à la fois par client") } });
    expect(await pay((first.body as { orderNumber: string }).orderNumber, "jean.dupont@gmail.com")).toBe("paid");
    expect(await buy(product.id, "j.e.a.n.dupont+encore@gmail.com")).toMatchObject({
      status: 409,
      body: { code: "DROP_LIMIT", details: expect.stringContaining("en comptent déjà 1") },
    });
    expect(await stockOf(product.id)).toBe(9);
  });

  it("gives one unit to 20 parallel checkouts of one customer: two browsers of one account, e-mail variants", async () => {
    const product = await drop();
    await database.db.insert(users).values({ id: "drop-collector", name: "Collectionneur", email: "collector@example.com", emailVerified: true });
    const customer = { id: "drop-collector", email: "collector@example.com" };
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? buy(product.id, null, { customer }) : buy(product.id, `collector+${i}@example.com`))),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409 && r.body.code === "DROP_PENDING")).toHaveLength(19);
    expect(await stockOf(product.id)).toBe(9);
  });

  it("lets a customer start again after cancelling, without anything more", async () => {
    const product = await drop();
    const first = await buy(product.id, "annule@example.com");
    const order = await orderOf((first.body as { orderNumber: string }).orderNumber);
    expect(await cancelCheckout(database.db, provider, order.id)).toBe(true);
    expect(await stockOf(product.id)).toBe(10);
    expect((await buy(product.id, "annule@example.com")).status).toBe(200);
    expect(await buy(product.id, "annule@example.com")).toMatchObject({ status: 409, body: { code: "DROP_PENDING" } });
  });

  it(`bounds a network to ${UNPAID_DROP_ORDERS_PER_NETWORK} unpaid drop orders at once, IPv6 by its /64`, async () => {
    const product = await drop();
    const statuses: number[] = [];
    for (let i = 0; i < UNPAID_DROP_ORDERS_PER_NETWORK + 2; i++) {
      const result = await buy(product.id, `script${i}@example.com`, { clientIp: `2001:db8:77:1::${i + 1}` });
      statuses.push(result.status);
      if (result.status !== 200) expect(result.body).toMatchObject({ code: "DROP_NETWORK", error: "Trop de commandes en attente" });
    }
    expect(statuses).toEqual([...Array(UNPAID_DROP_ORDERS_PER_NETWORK).fill(200), 429, 429]);
    // Another /64 is another household.
    expect((await buy(product.id, "voisin@example.com", { clientIp: "2001:db8:77:2::1" })).status).toBe(200);
    expect(await stockOf(product.id)).toBe(10 - UNPAID_DROP_ORDERS_PER_NETWORK - 1);
  });

  it("refunds, by itself and with an e-mail, a paid order over the limit at a delivery address already served", async () => {
    const product = await drop();
    const first = await buy(product.id, "adresse1@example.com");
    const second = await buy(product.id, "adresse2@example.com");
    expect(await pay((first.body as { orderNumber: string }).orderNumber, "adresse1@example.com")).toBe("paid");
    // Another e-mail, the same place spelled otherwise, a flat named on the second line.
    const spelled = { ...home, fullName: "M. Curie", line1: "12bis, R. des Lilas", line2: "Apt 1", postalCode: "75 011" };
    const number = (second.body as { orderNumber: string }).orderNumber;
    expect(await pay(number, "adresse2@example.com", spelled)).toBe("refund-pending");
    const refused = await orderOf(number);
    expect(refused).toMatchObject({ status: "refunded", refundReason: "drop_limit" });
    // Its unit is back on sale; the first order's stays sold.
    expect(await stockOf(product.id)).toBe(9);
    const [email] = await database.db.select().from(outboxEmails).where(and(eq(outboxEmails.to, "adresse2@example.com"), eq(outboxEmails.kind, "drop-limit-refund")));
    expect(email!.subject).toBe(`Commande ${number} : limite par client atteinte, paiement remboursé – Comptoir`);
    expect(email!.text).toContain("d'autres commandes livrées à la même adresse");
    const events = await database.db.select({ type: orderEvents.type, details: orderEvents.details }).from(orderEvents).where(eq(orderEvents.orderId, refused.id));
    expect(events.map((event) => event.type)).toEqual(["created", "refund_requested", "refunded"]);
    expect(events[1]!.details).toMatchObject({ reason: "drop_limit", productId: product.id, limit: 1 });
  });

  it("keeps counting the orders paid before the address key's rules changed: their keys are made again from their address", async () => {
    const product = await drop();
    const first = (await buy(product.id, "avant@example.com")).body as { orderNumber: string };
    expect(await pay(first.orderNumber, "avant@example.com")).toBe("paid");
    // The key an earlier version wrote for it (no version, the second line in it).
    const earlier = await orderOf(first.orderNumber);
    await database.db.update(orders).set({ buyerAddressKey: "FR|75011|12 rue des lilas|" }).where(eq(orders.id, earlier.id));

    const second = await buy(product.id, "apres@example.com");
    expect(await pay((second.body as { orderNumber: string }).orderNumber, "apres@example.com", { ...home, line1: "12 r. des Lilas" })).toBe("refund-pending");
    // The earlier order is keyed again, as today's rules key its address.
    expect((await orderOf(earlier.number)).buyerAddressKey).toBe(addressKey(home));
  });

  it("sells a drop with an opening time only to an admitted buyer, each admission once; a refused checkout keeps it", async () => {
    const product = await drop({ perCustomerLimit: 1 }, 1);
    await database.db.update(products).set({ dropTime: new Date(Date.now() - 60_000) }).where(eq(products.id, product.id));
    const now = new Date();
    const admitted = async (network: string) => {
      const joined = await joinQueue(database.db, product.id, { network, now });
      if (!joined.ok) throw new Error(joined.error);
      await advanceQueue(database.db, product.id, now);
      const [ticket] = await database.db.select().from(dropQueue).where(eq(dropQueue.id, joined.ticketId));
      expect(ticket!.status).toBe("admitted");
      return new Map([[product.id, admissionToken(joined.ticketId, product.id, ticket!.admissionExpiresAt!, SECRET)]]);
    };
    const withAdmission = (tokens: Map<number, string>) => ({ admissions: { tokens, secret: SECRET } });

    expect(await buy(product.id, "sans-tour@example.com", { clientIp: "192.0.2.99" })).toMatchObject({ status: 403, body: { code: "DROP_ADMISSION", error: "Attendez votre tour" } });
    // Refused before any limit was counted: out-of-turn posts cost the shop a read, nothing written.
    expect(await database.db.select().from(rateLimits).where(sql`${rateLimits.key} like '%192.0.2.99%'`)).toEqual([]);
    const forged = new Map([[product.id, "eyJ0IjoiYSJ9.c2lnbmF0dXJl"]]);
    expect(await buy(product.id, "faux@example.com", withAdmission(forged))).toMatchObject({ status: 403, body: { code: "DROP_ADMISSION" } });
    expect(await orderCount(product.id)).toBe(0);

    const first = await admitted("192.0.2.10");
    // Refused for another reason (no e-mail): the admission is still there for the next try.
    expect(await buy(product.id, null, withAdmission(first))).toMatchObject({ status: 422, body: { code: "DROP_EMAIL" } });
    expect((await buy(product.id, "tour@example.com", withAdmission(first))).status).toBe(200);
    // Used: the same admission opens nothing more, whoever brings it.
    expect(await buy(product.id, "copie@example.com", withAdmission(first))).toMatchObject({ status: 403, body: { code: "DROP_ADMISSION" } });
    expect(await stockOf(product.id)).toBe(0);
    // Every refusal in the fairness summary, by reason: none of them went unseen (issue 50).
    const counted = await database.db.select({ reason: dropRefusals.reason, count: dropRefusals.count }).from(dropRefusals).where(eq(dropRefusals.productId, product.id)).orderBy(dropRefusals.reason);
    expect(counted).toEqual([
      { reason: "DROP_ADMISSION", count: 1 },
      { reason: "DROP_ADMISSION_FORGED", count: 1 },
      { reason: "DROP_ADMISSION_USED", count: 1 },
      { reason: "DROP_EMAIL", count: 1 },
    ]);
  });

  it("counts the refusals made before any database work in the process, written at the waiting room's next round", async () => {
    const product = await drop({ perCustomerLimit: 1 }, 1);
    await database.db.update(products).set({ dropTime: new Date(Date.now() - 60_000) }).where(eq(products.id, product.id));
    const tally = new DropRefusalTally();
    for (let i = 0; i < 3; i++) expect(await buy(product.id, `script-${i}@example.com`, { refusalTally: tally })).toMatchObject({ status: 403 });
    const countedNow = () => database.db.select({ reason: dropRefusals.reason, count: dropRefusals.count }).from(dropRefusals).where(eq(dropRefusals.productId, product.id));
    expect(await countedNow()).toEqual([]);
    await tally.flush(database.db);
    expect(await countedNow()).toEqual([{ reason: "DROP_ADMISSION", count: 3 }]);
    await tally.flush(database.db);
    expect(await countedNow()).toEqual([{ reason: "DROP_ADMISSION", count: 3 }]);
  });

  it("makes a restock's opening a new drop: an earlier opening's buyer may buy again, and its figures count its own sales", async () => {
    const product = await drop({ perCustomerLimit: 1 }, 2);
    const buyAdmitted = async (opening: Date, network: string, email: string) => {
      const now = new Date(opening.getTime() + 60_000);
      const joined = await joinQueue(database.db, product.id, { network, now });
      if (!joined.ok) throw new Error(joined.error);
      await advanceQueue(database.db, product.id, now);
      const [ticket] = await database.db.select().from(dropQueue).where(eq(dropQueue.id, joined.ticketId));
      const tokens = new Map([[product.id, admissionToken(joined.ticketId, product.id, ticket!.admissionExpiresAt!, SECRET)]]);
      return buy(product.id, email, { now, clientIp: network, admissions: { tokens, secret: SECRET } });
    };
    const first = new Date(Date.now() - 3 * 3_600_000);
    await database.db.update(products).set({ dropTime: first }).where(eq(products.id, product.id));
    const bought = await buyAdmitted(first, "192.0.2.61", "fidele@example.com");
    expect(bought.status).toBe(200);
    expect(await pay((bought.body as { orderNumber: string }).orderNumber, "fidele@example.com")).toBe("paid");
    expect((await listDrops(database.db)).find((row) => row.productId === product.id)).toMatchObject({ sold: 1, customers: 1 });

    // The seller restocks and sets a new opening: its room and the seller's figures start from nothing.
    const second = new Date(Date.now() - 3_600_000);
    await database.db.update(products).set({ dropTime: second, stock: 3 }).where(eq(products.id, product.id));
    expect(await queueView(database.db, product.id, null, new Date(second.getTime() + 30_000))).toMatchObject({ figures: { available: 3, held: 0, sold: 0 } });
    expect((await listDrops(database.db)).find((row) => row.productId === product.id)).toMatchObject({ sold: 0, customers: 0, largestShare: 0 });
    // The last opening's buyer is a customer of this one like any other: one unit, not refused.
    const again = await buyAdmitted(second, "192.0.2.62", "fidele@example.com");
    expect(again.status).toBe(200);
    // Paid to the same address as the first: the address counts this opening's orders only.
    expect(await pay((again.body as { orderNumber: string }).orderNumber, "fidele@example.com")).toBe("paid");
    expect((await listDrops(database.db)).find((row) => row.productId === product.id)).toMatchObject({ sold: 1, customers: 1, largestShare: 1 });
  });

  it("ends the turn of an admitted buyer refused for who they are, so the line moves on", async () => {
    const product = await drop({ perCustomerLimit: 1 }, 3);
    await database.db.update(products).set({ dropTime: new Date(Date.now() - 60_000) }).where(eq(products.id, product.id));
    const now = new Date();
    const tickets: string[] = [];
    for (const network of ["192.0.2.41", "192.0.2.42"]) {
      const joined = await joinQueue(database.db, product.id, { network, now });
      if (joined.ok) tickets.push(joined.ticketId);
    }
    await advanceQueue(database.db, product.id, now);
    const admission = async (ticket: string) => {
      const [row] = await database.db.select().from(dropQueue).where(eq(dropQueue.id, ticket));
      return { admissions: { tokens: new Map([[product.id, admissionToken(ticket, product.id, row!.admissionExpiresAt!, SECRET)]]), secret: SECRET } };
    };
    const statusOf = async (ticket: string) => (await database.db.select({ status: dropQueue.status }).from(dropQueue).where(eq(dropQueue.id, ticket)))[0]!.status;
    expect((await buy(product.id, "deja@example.com", await admission(tickets[0]!))).status).toBe(200);
    // The same customer, admitted a second time: refused (one pending order), and that turn is spent.
    const second = await admission(tickets[1]!);
    expect(await buy(product.id, "deja@example.com", second)).toMatchObject({ status: 409, body: { code: "DROP_PENDING" } });
    expect(await statusOf(tickets[1]!)).toBe("used");
    // Past the checkout's rate limits too (a script retrying): its turn is spent.
    const joined = await joinQueue(database.db, product.id, { network: "192.0.2.43", now });
    await advanceQueue(database.db, product.id, now);
    const third = joined.ok ? joined.ticketId : "";
    await database.db.insert(rateLimits).values({ key: rateLimitKey("checkoutPerIp", "192.0.2.43"), count: RATE_LIMITS.checkoutPerIp.limit, resetAt: new Date(Date.now() + 60_000) });
    expect(await buy(product.id, "presse@example.com", { ...(await admission(third)), clientIp: "192.0.2.43" })).toMatchObject({ status: 429, body: { code: "RATE_LIMITED" } });
    expect(await statusOf(third)).toBe("used");
  });

  it("gives a unit whose hold expired to the next in line", async () => {
    const product = await drop({ perCustomerLimit: 1, holdMinutes: 10 }, 1);
    const opening = new Date(Date.now() - 60_000);
    await database.db.update(products).set({ dropTime: opening }).where(eq(products.id, product.id));
    const now = new Date();
    const tickets: string[] = [];
    for (const network of ["192.0.2.31", "192.0.2.32", "192.0.2.33"]) {
      const joined = await joinQueue(database.db, product.id, { network, now: new Date(now.getTime() + tickets.length) });
      if (joined.ok) tickets.push(joined.ticketId);
    }
    // One unit: two admissions (1.5 × 1, rounded up); the third waits.
    expect(await advanceQueue(database.db, product.id, now)).toBe(2);
    const [first] = await database.db.select().from(dropQueue).where(eq(dropQueue.id, tickets[0]!));
    const admission = new Map([[product.id, admissionToken(tickets[0]!, product.id, first!.admissionExpiresAt!, SECRET)]]);
    const held = await buy(product.id, "premier@example.com", { now, admissions: { tokens: admission, secret: SECRET } });
    expect(held.status).toBe(200);
    // The room's figures are read once a second per instance.
    expect(await queueView(database.db, product.id, tickets[2]!, new Date(now.getTime() + 1_500))).toMatchObject({ state: "waiting", position: 1, figures: { available: 0, held: 1 } });

    // The second's admission ends unused: no unit is free, the third still waits.
    const later = new Date(now.getTime() + 6 * 60_000);
    expect(await advanceQueue(database.db, product.id, later)).toBe(0);
    // The hold ends unpaid: the unit is back, and the third's turn comes.
    const expiry = new Date(now.getTime() + 10 * 60_000 + 1);
    // Its payment page is closed at the provider as well (Stripe's stays open 30 minutes by itself).
    const closed: string[] = [];
    const watched = { ...provider, expireSession: (id: string) => (closed.push(id), provider.expireSession(id)) };
    const order = await orderOf((held.body as { orderNumber: string }).orderNumber);
    expect(await sweepExpiredReservations(database.db, watched, expiry, { postgres: databaseLabel === "PostgreSQL", logger: pino({ level: "silent" }) })).toContain(order.id);
    expect(closed).toContain(order.providerSessionId);
    expect(await advanceQueue(database.db, product.id, expiry)).toBe(1);
    expect(await queueView(database.db, product.id, tickets[2]!, expiry)).toMatchObject({ state: "admitted", figures: { available: 1, held: 0 } });
  });

  it("leaves products without a drop as they were: no e-mail asked, no limit", async () => {
    const [free] = await database.db.insert(products).values({ title: "Booster libre", priceCents: 599, stock: 10, category: "TCG", subCategory: "Scellés" }).returning();
    expect((await buy(free!.id, null, {}, 5)).status).toBe(200);
    expect((await buy(free!.id, null, {}, 5)).status).toBe(200);
  });
});
