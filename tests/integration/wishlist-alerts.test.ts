import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "~/db/client.server";
import { orderItems, orders, outboxEmails, productDrops, products, stockAlerts, users, wishlistItems } from "~/db/schema";
import type { OrderStatus } from "~/domain/catalog-values";
import { productPath } from "~/domain/product-url";
import { WISHLIST_ALERT_CONSENT_TEXT } from "~/domain/wishlist-consent";
import { DEFAULT_ADMIN_QUERY } from "~/domain/admin-product-list";
import { listAdminProducts } from "~/services/admin-product-list.server";
import { dashboardDemand } from "~/services/dashboard.server";
import { setEmailChoice } from "~/services/email-choices.server";
import { sendDueWishlistAlerts, waitingCounts } from "~/services/wishlist-alerts.server";
import { addToWishlist, saveWishlistAlerts } from "~/services/wishlist.server";
import { databaseLabel, openTestDatabase } from "./test-database";

/**
 * The wish list's alerts on a real database (issue 56, point 3): a price at or under a
 * customer's figure, a restock and a drop's opening each send one e-mail per waiting customer,
 * none to one who bought it, switched alerts off or reached the drop's limit, none twice when two
 * instances send together; the next restock after a sell-out alerts again.
 */
const SECRET = "secret-des-alertes-0123456789";
const ORIGIN = "https://comptoir.example";
const shop = { name: "Comptoir", email: "contact@comptoir.example", publicUrl: ORIGIN };

describe(`wish-list alerts on ${databaseLabel}`, () => {
  let database: Database;
  /** A second instance: on PostgreSQL its own pool (another process would have one), on PGlite the same handle. */
  let other: Database | null = null;
  let n = 0;
  const deps = (db = database.db) => ({ db, shop, secret: SECRET });

  beforeAll(async () => {
    database = await openTestDatabase();
    if (database.pool) other = await openDatabase({ kind: "postgres", url: database.pool.options.connectionString!, poolSize: 2 });
  });
  afterAll(async () => {
    await other?.close();
    await database?.close();
  });

  /** Two instances at once: the e-mails queued, in all. */
  const twoInstances = async (now?: Date) => {
    const sent = await Promise.all([sendDueWishlistAlerts(deps(), now), sendDueWishlistAlerts(deps(other?.db ?? database.db), now)]);
    return sent[0]! + sent[1]!;
  };

  const customer = async (values: { verified?: boolean } = {}) => {
    const id = `client-${++n}`;
    await database.db.insert(users).values({ id, name: `Client ${n}`, email: `Client${n}@Example.com`, emailVerified: values.verified ?? true });
    return { id, email: `client${n}@example.com`, accountEmail: `Client${n}@Example.com` };
  };
  const product = async (values: Partial<typeof products.$inferInsert>) =>
    (await database.db.insert(products).values({ title: `Display attendu ${++n}`, priceCents: 10_000, stock: 0, category: "TCG", subCategory: "Scellés", ...values }).returning())[0]!;
  const setProduct = (id: number, values: Partial<typeof products.$inferInsert>) => database.db.update(products).set(values).where(eq(products.id, id));
  /** A product on the list, its restock and opening alerts switched on as the list's page does (unless `values` says otherwise). */
  const wish = async (userId: string, productId: number, values: Partial<typeof wishlistItems.$inferInsert> = {}) => {
    expect(await addToWishlist(database.db, userId, productId, values.createdAt)).toEqual({ ok: true });
    const alerts = { productId, alertRestock: values.alertRestock ?? true, alertDrop: values.alertDrop ?? true, priceBelow: values.priceBelowCents ?? null };
    expect(await saveWishlistAlerts(database.db, userId, alerts)).toBe(true);
    if (Object.keys(values).length > 0) await database.db.update(wishlistItems).set(values).where(and(eq(wishlistItems.userId, userId), eq(wishlistItems.productId, productId)));
  };
  const order = async (who: { id: string; accountEmail: string }, productId: number, status: OrderStatus, createdAt = new Date()) => {
    const [row] = await database.db
      .insert(orders)
      .values({
        number: `CPT-${100_000 + ++n}-${String(n).padStart(4, "0")}`,
        status,
        userId: who.id,
        customerEmail: who.accountEmail,
        subtotalCents: 10_000,
        totalCents: 10_000,
        paymentProvider: "test",
        createdAt,
        paidAt: status === "paid" || status === "shipped" ? new Date(createdAt.getTime() + 1_000) : null,
      })
      .returning();
    await database.db.insert(orderItems).values({ orderId: row!.id, productId, name: "Display", unitPriceCents: 10_000, quantity: 1 });
  };
  const mailsFor = async (productTitle: string) =>
    (await database.db.select().from(outboxEmails).where(inArray(outboxEmails.kind, ["wishlist-price", "wishlist-drop", "wishlist-restock"]))).filter((mail) => mail.subject.includes(`« ${productTitle} »`));
  const recipients = async (productTitle: string) => (await mailsFor(productTitle)).map((mail) => mail.to).sort();

  it("sends the price alert once per customer whose figure the price reaches, again only after it went back above", async () => {
    const display = await product({ stock: 5, priceCents: 10_000 });
    const [a, b, c, bought, off] = [await customer(), await customer(), await customer(), await customer(), await customer()];
    await wish(a.id, display.id, { priceBelowCents: 8_000 });
    await wish(b.id, display.id, { priceBelowCents: 9_000 });
    await wish(c.id, display.id, { priceBelowCents: 7_000 });
    await wish(bought.id, display.id, { priceBelowCents: 9_000 });
    await wish(off.id, display.id, { priceBelowCents: 9_000 });
    await order(bought, display.id, "paid");
    await setEmailChoice(database.db, off.email, "stock-alerts", false);
    expect(await twoInstances()).toBe(0);

    await setProduct(display.id, { priceCents: 8_500 });
    expect(await twoInstances()).toBe(1);
    expect(await twoInstances()).toBe(0);
    expect(await recipients(display.title)).toEqual([b.accountEmail]);
    const [mail] = await mailsFor(display.title);
    expect(mail).toMatchObject({ kind: "wishlist-price", subject: `« ${display.title} » est à 85,00\u00a0€ – Comptoir` });
    expect(mail!.text).toContain(`${ORIGIN}${productPath({ id: display.id, name: display.title })}`);
    expect(mail!.text).toContain(`${ORIGIN}/desabonnement?jeton=`);
    expect(mail!.headers).toMatchObject({ "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" });

    // Lower still: A's figure is reached, B's was handled.
    await setProduct(display.id, { priceCents: 8_000 });
    expect(await twoInstances()).toBe(1);
    // Back above both figures, then down again: both alerts again, once.
    await setProduct(display.id, { priceCents: 9_500 });
    expect(await twoInstances()).toBe(0);
    await setProduct(display.id, { priceCents: 7_900 });
    expect(await twoInstances()).toBe(2);
    expect(await twoInstances()).toBe(0);
    expect(await recipients(display.title)).toEqual([a.accountEmail, a.accountEmail, b.accountEmail, b.accountEmail].sort());
    // A new figure is a new alert.
    await database.db.update(wishlistItems).set({ priceBelowCents: 7_950 }).where(and(eq(wishlistItems.userId, a.id), eq(wishlistItems.productId, display.id)));
    expect(await twoInstances()).toBe(1);
  });

  it("sends a restock once per waiting customer, and again at the next restock after a sell-out", async () => {
    const display = await product({ stock: 0 });
    const [a, b, bought, noRestock, unverified, off] = [await customer(), await customer(), await customer(), await customer(), await customer({ verified: false }), await customer()];
    for (const who of [a, b, bought, unverified, off]) await wish(who.id, display.id);
    await wish(noRestock.id, display.id, { alertRestock: false });
    await order(bought, display.id, "shipped");
    await setEmailChoice(database.db, off.email, "stock-alerts", false);
    expect(await twoInstances()).toBe(0);

    await setProduct(display.id, { stock: 3 });
    expect(await twoInstances()).toBe(2);
    expect(await twoInstances()).toBe(0);
    expect(await recipients(display.title)).toEqual([a.accountEmail, b.accountEmail].sort());
    // The consent, as the « Prévenez-moi » one: the wording of the day, kept with the item.
    const [item] = await database.db.select().from(wishlistItems).where(and(eq(wishlistItems.userId, a.id), eq(wishlistItems.productId, display.id)));
    expect(item).toMatchObject({ consentText: WISHLIST_ALERT_CONSENT_TEXT, consentedAt: expect.any(Date), restockArmed: false, alertedAt: expect.any(Date) });
    const [mail] = await mailsFor(display.title);
    expect(mail).toMatchObject({ kind: "wishlist-restock", subject: `« ${display.title} » est en vente – Comptoir` });
    expect(mail!.text).toContain(`${ORIGIN}${productPath({ id: display.id, name: display.title })}`);
    expect(mail!.text).toContain(`${ORIGIN}/account/liste`);

    // Fewer units, not a sell-out: nothing.
    await setProduct(display.id, { stock: 1 });
    expect(await twoInstances()).toBe(0);
    // Sold out then back before any sweep saw it: the sell-out armed the alert all the same.
    await setProduct(display.id, { stock: 0 });
    await setProduct(display.id, { stock: 4 });
    expect(await twoInstances()).toBe(2);
    expect(await twoInstances()).toBe(0);
    // Switching alerts on again does not send the event that passed.
    await setEmailChoice(database.db, off.email, "stock-alerts", true);
    expect(await twoInstances()).toBe(0);
    expect(await recipients(display.title)).toHaveLength(4);
  });

  it("does not call an item added while in stock back in stock", async () => {
    const display = await product({ stock: 2 });
    const a = await customer();
    await wish(a.id, display.id);
    await setProduct(display.id, { stock: 5 });
    expect(await twoInstances()).toBe(0);
  });

  it("tells the customers waiting for a « Bientôt » product put on sale without an opening time, and for one back online", async () => {
    const coming = await product({ status: "a_venir", stock: 6 });
    const [a, b] = [await customer(), await customer()];
    await wish(a.id, coming.id);
    expect(await twoInstances()).toBe(0);
    await setProduct(coming.id, { status: "en_ligne" });
    expect(await twoInstances()).toBe(1);
    expect(await twoInstances()).toBe(0);
    // Listed while on sale, then taken offline and put back: on sale again, once.
    await wish(b.id, coming.id);
    await setProduct(coming.id, { status: "hors_ligne" });
    expect(await twoInstances()).toBe(0);
    await setProduct(coming.id, { status: "en_ligne" });
    expect(await twoInstances()).toBe(2);
    expect(await recipients(coming.title)).toEqual([a.accountEmail, a.accountEmail, b.accountEmail].sort());
  });

  it("sends a drop's opening once per waiting customer, none to one whose limit is reached", async () => {
    const opening = new Date(Date.now() + 60_000);
    const drop = await product({ status: "a_venir", dropTime: opening, stock: 10 });
    await database.db.insert(productDrops).values({ productId: drop.id, perCustomerLimit: 1 });
    const [a, b, holding, noDrop] = [await customer(), await customer(), await customer(), await customer()];
    for (const who of [a, b, holding]) await wish(who.id, drop.id);
    await wish(noDrop.id, drop.id, { alertDrop: false });
    // An unpaid order of this opening holds the one unit allowed.
    await order(holding, drop.id, "pending_payment", new Date(opening.getTime() + 1));

    expect(await twoInstances(new Date())).toBe(0);
    const opened = new Date(opening.getTime() + 1_000);
    expect(await twoInstances(opened)).toBe(2);
    expect(await twoInstances(opened)).toBe(0);
    expect(await recipients(drop.title)).toEqual([a.accountEmail, b.accountEmail].sort());
    expect((await mailsFor(drop.title))[0]).toMatchObject({ kind: "wishlist-drop" });
    // Put on the list after it opened (the drop sweeper has put it online): nothing to announce.
    await setProduct(drop.id, { status: "en_ligne" });
    expect(await twoInstances(opened)).toBe(0);
    const late = await customer();
    await wish(late.id, drop.id, { createdAt: new Date(opening.getTime() + 2_000) });
    expect(await twoInstances(new Date(opening.getTime() + 3_000))).toBe(0);
  });

  it("counts the customers waiting for each product: wish lists and confirmed alerts, each address once", async () => {
    const display = await product({ stock: 0 });
    const quiet = await product({ stock: 0 });
    const [a, b] = [await customer(), await customer()];
    await wish(a.id, display.id);
    await wish(b.id, display.id);
    await database.db.insert(stockAlerts).values([
      { productId: display.id, email: a.email, status: "active", consentText: "…" },
      { productId: display.id, email: "visiteur@example.com", status: "active", consentText: "…" },
      { productId: display.id, email: "pas-confirme@example.com", status: "pending", consentText: "…" },
    ]);
    const counts = await waitingCounts(database.db, [display.id, quiet.id]);
    expect(counts.get(display.id)).toBe(3);
    expect(counts.get(quiet.id)).toBeUndefined();
    // The admin product list (its page's counts in one query) and the dashboard's card.
    const list = await listAdminProducts(database.db, { ...DEFAULT_ADMIN_QUERY, q: String(display.id) });
    expect(list.rows.map((row) => [row.id, row.waiting])).toEqual([[display.id, 3]]);
    expect((await listAdminProducts(database.db, { ...DEFAULT_ADMIN_QUERY, q: String(quiet.id) })).rows[0]!.waiting).toBe(0);
    const demand = await dashboardDemand(database.db, new Date());
    expect(demand.products).toContainEqual({ id: display.id, title: display.title, waiting: 3 });
    expect(demand.products.map((line) => line.id)).not.toContain(quiet.id);
  });
});
