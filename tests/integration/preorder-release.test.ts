import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { invoices, orderEvents, orderItems, orderRefunds, orders, outboxEmails, productPreorders, products, rateLimits, testRefunds } from "~/db/schema";
import { getCartProducts } from "~/services/cart.server";
import { type CheckoutContext, startCheckout } from "~/services/checkout.server";
import { getOrderView } from "~/services/orders.server";
import { createTestProvider, type TestProvider } from "~/services/payments/test-provider.server";
import { getTestSession } from "~/services/payments/test-checkout.server";
import { cancelPreorder, mailBuyersOnDateChange, orderOfCancelLink, preorderCancelSecret, preorderCancelToken } from "~/services/preorder-release.server";
import { savePreorderShipping } from "~/services/preorder-shipping-setting.server";
import { preorderOf, savePreorder } from "~/services/preorders.server";
import { StockGate } from "~/services/stock-gate.server";
import { HOME_ADDRESS, payByTestWebhook } from "./paid-checkout";
import { insertPreorderProduct } from "./preorder-products";
import { databaseLabel, openTestDatabase } from "./test-database";

/** Pre-orders after checkout (issue 55, decision 062): the dates kept, a date change's e-mails, the buyer's cancellation. */
const webhookDeps = { shop: { name: "Comptoir", email: "contact@comptoir.example", publicUrl: "https://comptoir.example" }, sellerEmail: "vendeur@comptoir.example" };
const secret = preorderCancelSecret("integration-drop-secret");
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

describe(`pre-order dates, date changes and cancellation on ${databaseLabel}`, () => {
  let database: Database;
  let provider: TestProvider;
  let n = 0;
  const releaseOn = day(10);
  const deliveryOn = day(13);
  const ctx = (): CheckoutContext => ({
    now: new Date(),
    customer: null,
    clientIp: `198.51.100.${++n % 250}`,
    orderPrefix: "CPT",
    origin: "http://shop.test",
    reservationMinutes: 30,
    gate: new StockGate(),
  });
  const preorderProduct = () =>
    insertPreorderProduct(database.db, { title: `Display sortie ${++n}`, priceCents: 5_000 }, { releaseOn, estimatedDeliveryOn: deliveryOn, quantity: 100, perCustomerLimit: 3 });
  const stockProduct = async () => {
    const [row] = await database.db.insert(products).values({ title: `Booster en stock ${++n}`, priceCents: 700, stock: 20, category: "TCG", subCategory: "Scellés" }).returning();
    return row!.id;
  };
  /** A buyer checks out and pays: the order's id. */
  const buy = async (items: { productId: number; quantity: number }[], email: string) => {
    const started = await startCheckout(database.db, provider, { items, insuranceSelected: false, email }, ctx());
    expect(started.status).toBe(200);
    const orderId = (started.body as { orderId: string }).orderId;
    const address = { ...HOME_ADDRESS, fullName: `Client ${email}`, line1: `${++n} rue des Lilas` };
    expect(await payByTestWebhook(database.db, provider, orderId, { email, address }, webhookDeps)).toBe("paid");
    return orderId;
  };
  const emailsTo = async (to: string, kind: string) => database.db.select().from(outboxEmails).where(and(eq(outboxEmails.to, to), eq(outboxEmails.kind, kind)));
  const moveDates = (productId: number, dates: { releaseOn: string; estimatedDeliveryOn: string }) => {
    const now = new Date();
    return savePreorder(database.db, productId, { ...dates, quantity: "100", perCustomerLimit: "3" }, now, mailBuyersOnDateChange({ shop: webhookDeps.shop, secret }, now));
  };

  beforeAll(async () => {
    database = await openTestDatabase();
    provider = createTestProvider({ db: database.db, secret: "integration-secret-preorder-release" });
  });
  afterAll(() => database.close());

  it("keeps the dates on the order line, and says them in the cart, on the payment page, in the e-mail and on the invoice", async () => {
    await database.db.delete(rateLimits);
    const productId = await preorderProduct();
    const [inCart] = await getCartProducts(database.db, [productId], { now: new Date(), imageBaseUrl: "/images" });
    expect(inCart!.preorder).toMatch(/^Précommande : sortie le \d{1,2} \S+ \d{4}, date de livraison estimée : \d{1,2} \S+ \d{4}$/);

    const started = await startCheckout(database.db, provider, { items: [{ productId, quantity: 1 }], insuranceSelected: false, email: "dates@exemple.fr" }, ctx());
    const orderId = (started.body as { orderId: string }).orderId;
    const [line] = await database.db.select().from(orderItems).where(eq(orderItems.orderId, orderId));
    expect({ release: line!.preorderReleaseOn, delivery: line!.preorderDeliveryOn }).toEqual({ release: releaseOn, delivery: deliveryOn });
    const [order] = await database.db.select().from(orders).where(eq(orders.id, orderId));
    const session = await getTestSession(database.db, order!.providerSessionId!);
    expect(session!.lines[0]!.description).toBe(inCart!.preorder);
    // A cart of pre-orders only is not mixed: nothing recorded, nothing said.
    expect(order!.preorderShipping).toBeNull();
    expect(session!.delivery.note).toBeNull();

    await database.db.delete(orders).where(eq(orders.id, orderId));
    const paidId = await buy([{ productId, quantity: 1 }], "dates2@exemple.fr");
    const view = await getOrderView(database.db, paidId);
    expect(view!.lines[0]!.preorderNote).toBe(inCart!.preorder);
    const [confirmation] = await emailsTo("dates2@exemple.fr", "order-confirmation");
    expect(confirmation!.text).toContain(inCart!.preorder);
    const [invoice] = await database.db.select().from(invoices).where(and(eq(invoices.orderId, paidId), eq(invoices.kind, "invoice")));
    expect(invoice!.snapshot.lines[0]!.note).toBe(inCart!.preorder);
  });

  it("records and says how a mixed cart ships, as the seller set it", async () => {
    await database.db.delete(rateLimits);
    const preorderId = await preorderProduct();
    const stockId = await stockProduct();
    await savePreorderShipping(database.db, "split");
    const started = await startCheckout(database.db, provider, { items: [{ productId: preorderId, quantity: 1 }, { productId: stockId, quantity: 2 }], insuranceSelected: false, email: "mixte@exemple.fr" }, ctx());
    const [order] = await database.db.select().from(orders).where(eq(orders.id, (started.body as { orderId: string }).orderId));
    expect(order!.preorderShipping).toBe("split");
    const session = await getTestSession(database.db, order!.providerSessionId!);
    expect(session!.delivery.note).toContain("la livraison n'est facturée qu'une fois");

    await savePreorderShipping(database.db, "at_release");
    const again = await startCheckout(database.db, provider, { items: [{ productId: preorderId, quantity: 1 }, { productId: stockId, quantity: 1 }], insuranceSelected: false, email: "mixte2@exemple.fr" }, ctx());
    const [second] = await database.db.select().from(orders).where(eq(orders.id, (again.body as { orderId: string }).orderId));
    expect(second!.preorderShipping).toBe("at_release");
    // The first order keeps what was said when it was placed.
    const [first] = await database.db.select({ mode: orders.preorderShipping }).from(orders).where(eq(orders.id, order!.id));
    expect(first!.mode).toBe("split");
  });

  it("e-mails each buyer of a pre-order not ended once when the date moves, none to a cancelled one, none when nothing moved", async () => {
    await database.db.delete(rateLimits);
    const productId = await preorderProduct();
    const buyers = ["ana@exemple.fr", "ben@exemple.fr", "chloe@exemple.fr"];
    const ids = [];
    for (const email of buyers) ids.push(await buy([{ productId, quantity: 1 }], email));
    expect((await cancelPreorder(database.db, provider, { orderId: ids[2]!, actorId: null }, webhookDeps)).ok).toBe(true);

    // Saved again with the same dates: nobody is told anything.
    expect((await moveDates(productId, { releaseOn, estimatedDeliveryOn: deliveryOn })).outcome).toBe("saved");
    for (const email of buyers) expect(await emailsTo(email, "preorder-date-change")).toHaveLength(0);

    const later = { releaseOn: day(20), estimatedDeliveryOn: day(24) };
    expect((await moveDates(productId, later)).outcome).toBe("saved");
    for (const email of buyers.slice(0, 2)) {
      const mails = await emailsTo(email, "preorder-date-change");
      expect(mails).toHaveLength(1);
      expect(mails[0]!.text).toContain("change de date");
      const link = /\/precommande\/annulation\/([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)/.exec(mails[0]!.text)![1]!;
      expect(orderOfCancelLink(secret, link, new Date())).toEqual({ ok: true, orderId: ids[buyers.indexOf(email)] });
    }
    expect(await emailsTo("chloe@exemple.fr", "preorder-date-change")).toHaveLength(0);
  });

  it("cancels a pre-order once: the refund given once with its credit note, the units back in the pre-order's quantity", async () => {
    await database.db.delete(rateLimits);
    const productId = await preorderProduct();
    const orderId = await buy([{ productId, quantity: 2 }], "annule@exemple.fr");
    expect((await preorderOf(database.db, productId))!.orderedUnits).toBe(2);
    const [order] = await database.db.select().from(orders).where(eq(orders.id, orderId));

    const [first, second] = await Promise.all([
      cancelPreorder(database.db, provider, { orderId, actorId: null }, webhookDeps),
      cancelPreorder(database.db, provider, { orderId, actorId: null }, webhookDeps),
    ]);
    expect([first.ok, second.ok]).toEqual([true, true]);
    const third = await cancelPreorder(database.db, provider, { orderId, actorId: null }, webhookDeps);
    expect(third).toMatchObject({ ok: true, outcome: "already" });

    expect((await preorderOf(database.db, productId))!.orderedUnits).toBe(0);
    const refunds = await database.db.select().from(orderRefunds).where(eq(orderRefunds.orderId, orderId));
    expect(refunds).toHaveLength(1);
    // Nothing else in the order: the delivery goes back too, the whole payment.
    expect(refunds[0]!.amountCents).toBe(order!.totalCents);
    expect(refunds[0]!.creditNoteNumber).not.toBeNull();
    expect(await database.db.select().from(testRefunds).where(eq(testRefunds.paymentReference, order!.paymentReference!))).toHaveLength(1);
    const [after] = await database.db.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId));
    expect(after!.status).toBe("refunded");
    expect(await database.db.select().from(orderEvents).where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.type, "preorder_cancelled")))).toHaveLength(1);
    expect(await emailsTo("annule@exemple.fr", "partial-refund")).toHaveLength(1);
  });

  it("cancels only the pre-order lines of a mixed order, the delivery kept", async () => {
    await database.db.delete(rateLimits);
    const preorderId = await preorderProduct();
    const stockId = await stockProduct();
    const orderId = await buy([{ productId: preorderId, quantity: 1 }, { productId: stockId, quantity: 1 }], "mixte3@exemple.fr");
    const result = await cancelPreorder(database.db, provider, { orderId, actorId: null }, webhookDeps);
    expect(result).toMatchObject({ ok: true, outcome: "cancelled", refundedCents: 5_000 });
    const [order] = await database.db.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId));
    expect(order!.status).toBe("paid");
    expect((await database.db.select({ stock: products.stock }).from(products).where(inArray(products.id, [stockId])))[0]!.stock).toBe(19);
  });

  it("refuses a cancellation after the release", async () => {
    await database.db.delete(rateLimits);
    const productId = await preorderProduct();
    const orderId = await buy([{ productId, quantity: 1 }], "tard@exemple.fr");
    await database.db.update(productPreorders).set({ releaseOn: day(0), estimatedDeliveryOn: day(2) }).where(eq(productPreorders.productId, productId));
    expect(await cancelPreorder(database.db, provider, { orderId, actorId: null }, webhookDeps)).toMatchObject({ ok: false, status: 409 });
    expect(await database.db.select().from(orderRefunds).where(eq(orderRefunds.orderId, orderId))).toHaveLength(0);
  });

  it("refuses a forged link (403) and an expired one (410)", () => {
    const now = new Date();
    const token = preorderCancelToken(secret, "2f1d3a5e-0000-4000-8000-000000000000", new Date(now.getTime() + 60_000));
    expect(orderOfCancelLink(secret, token, now)).toMatchObject({ ok: true });
    const [body, mac] = token.split(".");
    const edited = `${Buffer.from(JSON.stringify({ o: "another", e: now.getTime() + 60_000 })).toString("base64url")}.${mac}`;
    expect(orderOfCancelLink(secret, edited, now)).toMatchObject({ ok: false, status: 403 });
    expect(orderOfCancelLink(preorderCancelSecret("another-secret"), token, now)).toMatchObject({ ok: false, status: 403 });
    expect(orderOfCancelLink(secret, `${body}`, now)).toMatchObject({ ok: false, status: 403 });
    expect(orderOfCancelLink(secret, token, new Date(now.getTime() + 120_000))).toMatchObject({ ok: false, status: 410 });
  });
});
