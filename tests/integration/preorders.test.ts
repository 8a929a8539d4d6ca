import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { orderItems, orders, productDrops, productPreorders, products, rateLimits } from "~/db/schema";
import { getCartProducts } from "~/services/cart.server";
import { getPublicProduct } from "~/services/catalog.server";
import { type CheckoutContext, cancelCheckout, startCheckout } from "~/services/checkout.server";
import { createTestProvider } from "~/services/payments/test-provider.server";
import { StockGate } from "~/services/stock-gate.server";
import { newAllocationSeed, preorderOf, previewAllocation, removePreorder, savePreorder } from "~/services/preorders.server";
import { HOME_ADDRESS, payByTestWebhook } from "./paid-checkout";
import { insertPreorderProduct } from "./preorder-products";
import { databaseLabel, openTestDatabase } from "./test-database";

const webhookDeps = { shop: { name: "Comptoir", email: "contact@comptoir.example", publicUrl: "https://comptoir.example" }, sellerEmail: "vendeur@comptoir.example" };

/** Pre-orders (issue 55): the seller's settings and what the product page shows, on a real database. */
const now = new Date("2026-11-29T10:00:00Z");
const settings = { releaseOn: "2026-12-12", estimatedDeliveryOn: "2026-12-15", quantity: "300", perCustomerLimit: "2" };

describe(`pre-order settings on ${databaseLabel}`, () => {
  let database: Database;
  let count = 0;
  const product = async () => {
    const [row] = await database.db
      .insert(products)
      .values({ title: `Display précommande ${++count}`, priceCents: 15_999, stock: 0, category: "TCG", subCategory: "Scellés", imagePath: "seed/display-ev" })
      .returning();
    return row!;
  };

  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  it("makes a product a pre-order, and its page shows the dates and the units left", async () => {
    const { id } = await product();
    const saved = await savePreorder(database.db, id, settings, now);
    expect(saved).toMatchObject({ outcome: "saved", preorder: { releaseOn: "2026-12-12", estimatedDeliveryOn: "2026-12-15", quantity: 300, perCustomerLimit: 2, orderedUnits: 0 } });
    await database.db.update(productPreorders).set({ orderedUnits: 120 }).where(eq(productPreorders.productId, id));
    const page = await getPublicProduct(database.db, id, { now, imageBaseUrl: "/images" });
    expect(page?.preorder).toEqual({ releaseOn: "2026-12-12", estimatedDeliveryOn: "2026-12-15", perCustomerLimit: 2, unitsLeft: 180 });
    expect(page?.stock).toBe(180);
    expect((await getCartProducts(database.db, [id], { now, imageBaseUrl: "/images" }))[0]?.stock).toBe(180);
    // From its release day it sells from stock like any product.
    const released = await getPublicProduct(database.db, id, { now: new Date("2026-12-12T09:00:00Z"), imageBaseUrl: "/images" });
    expect(released?.preorder).toBeNull();
    expect(released?.stock).toBe(0);
    expect((await getCartProducts(database.db, [id], { now: new Date("2026-12-12T09:00:00Z"), imageBaseUrl: "/images" }))[0]?.stock).toBe(0);
  });

  it("refuses bad settings in French and writes nothing", async () => {
    const { id } = await product();
    expect(await savePreorder(database.db, id, { ...settings, releaseOn: "2026-11-29", quantity: "abc" }, now)).toEqual({
      outcome: "invalid",
      errors: { releaseOn: "La date de sortie doit être dans le futur", quantity: "La quantité en précommande doit être un nombre entier" },
    });
    expect(await preorderOf(database.db, id)).toBeNull();
    expect(await savePreorder(database.db, 999_999, settings, now)).toEqual({ outcome: "missing" });
  });

  it("never sets the quantity under the units pre-ordered, nor removes a pre-order someone holds", async () => {
    const { id } = await product();
    await savePreorder(database.db, id, settings, now);
    await database.db.update(productPreorders).set({ orderedUnits: 41 }).where(eq(productPreorders.productId, id));
    expect(await savePreorder(database.db, id, { ...settings, quantity: "40" }, now)).toEqual({
      outcome: "invalid",
      errors: { quantity: "La quantité ne peut pas être inférieure aux 41 exemplaires déjà précommandés" },
    });
    expect(await removePreorder(database.db, id)).toEqual({ outcome: "ordered", units: 41 });
    expect((await savePreorder(database.db, id, { ...settings, quantity: "41" }, now)).outcome).toBe("saved");
    await database.db.update(productPreorders).set({ orderedUnits: 0 }).where(eq(productPreorders.productId, id));
    expect(await removePreorder(database.db, id)).toEqual({ outcome: "removed" });
    expect(await preorderOf(database.db, id)).toBeNull();
  });

  it("keeps a drop and a pre-order apart", async () => {
    const { id } = await product();
    await database.db.insert(productDrops).values({ productId: id });
    expect(await savePreorder(database.db, id, settings, now)).toEqual({
      outcome: "invalid",
      errors: { form: "Ce produit est une sortie : retirez-la de « Sorties » pour le vendre en précommande." },
    });
  });
});

describe(`pre-order checkouts on ${databaseLabel}`, () => {
  let database: Database;
  let ip = 0;
  // Checkouts run now: the release is set a week ahead of the real clock.
  const releaseOn = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  const ctx = (): CheckoutContext => ({
    now: new Date(),
    customer: null,
    clientIp: `203.0.113.${++ip % 250}`,
    orderPrefix: "CPT",
    origin: "http://shop.test",
    reservationMinutes: 30,
    // Each checkout its own process's gate: as many instances as checkouts.
    gate: new StockGate(),
  });
  const preorderProduct = (quantity: number, perCustomerLimit: number) =>
    insertPreorderProduct(database.db, { title: `Coffret précommande ${++ip}`, priceCents: 5_999 }, { releaseOn, quantity, perCustomerLimit });
  const orderedUnits = async (productId: number) => (await preorderOf(database.db, productId))!.orderedUnits;
  const unitsInOrders = async (productId: number) => {
    const result = (await database.db.execute(
      sql`select coalesce(sum(${orderItems.quantity}), 0)::int as n from ${orderItems} join ${orders} on ${orders.id} = ${orderItems.orderId} where ${orderItems.productId} = ${productId} and ${orders.status} = 'pending_payment' and ${orderItems.preorder}`,
    )) as unknown as { rows: { n: number }[] };
    return result.rows[0]!.n;
  };

  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  it("never takes more than the pre-order quantity, however many checkouts run at once", async () => {
    const provider = createTestProvider({ db: database.db, secret: "integration-secret-preorders" });
    const productId = await preorderProduct(7, 3);
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        startCheckout(database.db, provider, { items: [{ productId, quantity: 1 + (i % 2) }], insuranceSelected: false, email: `acheteur${i}@exemple.fr` }, ctx()),
      ),
    );
    const accepted = results.filter((result) => result.status === 200);
    expect(accepted.length).toBeGreaterThan(0);
    expect(results.every((result) => result.status === 200 || result.status === 409)).toBe(true);
    expect(await orderedUnits(productId)).toBe(await unitsInOrders(productId));
    expect(await orderedUnits(productId)).toBeLessThanOrEqual(7);
    // The last unit goes to one who asks for one.
    expect((await startCheckout(database.db, provider, { items: [{ productId, quantity: 1 }], insuranceSelected: false, email: "dernier@exemple.fr" }, ctx())).status).toBe(
      (await orderedUnits(productId)) < 7 ? 200 : 409,
    );
    expect(await orderedUnits(productId)).toBeLessThanOrEqual(7);
    expect(await orderedUnits(productId)).toBe(await unitsInOrders(productId));
  });

  it("holds one customer to the limit across concurrent checkouts (e-mail normalised), and gives units back to the pre-order", async () => {
    await database.db.delete(rateLimits);
    const provider = createTestProvider({ db: database.db, secret: "integration-secret-preorders-2" });
    const productId = await preorderProduct(50, 2);
    const emails = ["Jean.Dupont@gmail.com", "jeandupont+precommande@gmail.com", "jean.dupont@googlemail.com", "JEANDUPONT@gmail.com", "jean.dupont+x@gmail.com", "jeandupont@gmail.com"];
    const results = await Promise.all(emails.map((email) => startCheckout(database.db, provider, { items: [{ productId, quantity: 2 }], insuranceSelected: false, email }, ctx())));
    expect(results.filter((result) => result.status === 200)).toHaveLength(1);
    expect(await orderedUnits(productId)).toBe(2);
    // Over the limit in one cart: refused, nothing taken.
    const over = await startCheckout(database.db, provider, { items: [{ productId, quantity: 3 }], insuranceSelected: false, email: "autre@exemple.fr" }, ctx());
    expect(over).toMatchObject({ status: 422, body: { code: "DROP_LIMIT", error: "Limité à 2 par client" } });
    expect(await orderedUnits(productId)).toBe(2);
    // A cancelled checkout gives its units back to the pre-order quantity, not to the shelf.
    const accepted = results.find((result) => result.status === 200)!;
    expect(await cancelCheckout(database.db, provider, (accepted.body as { orderId: string }).orderId)).toBe(true);
    expect(await orderedUnits(productId)).toBe(0);
    expect((await database.db.select({ stock: products.stock }).from(products).where(eq(products.id, productId)))[0]!.stock).toBe(0);
  });

  it("holds the limit for one delivery address at payment, whatever e-mails were used", async () => {
    await database.db.delete(rateLimits);
    const provider = createTestProvider({ db: database.db, secret: "integration-secret-preorders-3" });
    const productId = await preorderProduct(50, 2);
    const first = await startCheckout(database.db, provider, { items: [{ productId, quantity: 2 }], insuranceSelected: false, email: "marie@exemple.fr" }, ctx());
    const second = await startCheckout(database.db, provider, { items: [{ productId, quantity: 2 }], insuranceSelected: false, email: "pierre@exemple.fr" }, ctx());
    expect(await orderedUnits(productId)).toBe(4);
    // Both to Marie Curie's home.
    expect(await payByTestWebhook(database.db, provider, (first.body as { orderId: string }).orderId, { email: "marie@exemple.fr", address: HOME_ADDRESS }, webhookDeps)).toBe("paid");
    expect(await payByTestWebhook(database.db, provider, (second.body as { orderId: string }).orderId, { email: "pierre@exemple.fr", address: HOME_ADDRESS }, webhookDeps)).toBe("refund-pending");
    // The refused order's units are back in the pre-order quantity.
    expect(await orderedUnits(productId)).toBe(2);
  });

  it("previews an allocation without writing, and a draw replayed from its seed gives the same cut", async () => {
    await database.db.delete(rateLimits);
    const provider = createTestProvider({ db: database.db, secret: "integration-secret-preorders-4" });
    const productId = await preorderProduct(50, 3);
    // 12 paid pre-orders of 1 to 3 units (24 units): each its own buyer and address.
    for (let i = 0; i < 12; i++) {
      const email = `collection${i}@exemple.fr`;
      const started = await startCheckout(database.db, provider, { items: [{ productId, quantity: 1 + (i % 3) }], insuranceSelected: false, email }, ctx());
      const address = { ...HOME_ADDRESS, fullName: `Client ${i}`, line1: `${i + 1} rue des Lilas` };
      expect(await payByTestWebhook(database.db, provider, (started.body as { orderId: string }).orderId, { email, address }, webhookDeps)).toBe("paid");
    }
    const before = await database.db.select().from(productPreorders).where(eq(productPreorders.productId, productId));

    const byOrder = await previewAllocation(database.db, productId, { received: 10, rule: "order", seed: "" });
    expect(byOrder.allocated).toBe(10);
    // First placed, first served: 1 + 2 + 3 + 1 + 2 = 9, then 1 of the sixth order's 3.
    expect(byOrder.orders.map((order) => order.allocated)).toEqual([1, 2, 3, 1, 2, 1, 0, 0, 0, 0, 0, 0]);

    const seed = newAllocationSeed();
    const draw = await previewAllocation(database.db, productId, { received: 10, rule: "draw", seed });
    expect(draw.allocated).toBe(10);
    // One unit per customer per round: 10 units among 12 customers, nobody gets two.
    expect(draw.orders.filter((order) => order.allocated === 1)).toHaveLength(10);
    expect(await previewAllocation(database.db, productId, { received: 10, rule: "draw", seed })).toEqual(draw);
    // Everything covered: every order served whole.
    expect((await previewAllocation(database.db, productId, { received: 24, rule: "draw", seed })).orders.every((order) => order.refunded === 0)).toBe(true);
    // A preview writes nothing.
    expect(await database.db.select().from(productPreorders).where(eq(productPreorders.productId, productId))).toEqual(before);
    expect((await database.db.select({ status: orders.status }).from(orders).innerJoin(orderItems, eq(orderItems.orderId, orders.id)).where(eq(orderItems.productId, productId))).every((row) => row.status === "paid")).toBe(true);
  });
});
