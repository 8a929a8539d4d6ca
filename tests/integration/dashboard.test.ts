import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { inboxMessages, orderItems, orderRefunds, orders, productDrops, products, withdrawalRequests } from "~/db/schema";
import { ledgerEntries } from "~/services/accounting-export.server";
import { recordBackup } from "~/services/backup-record.server";
import { dashboardDrops, dashboardSales, dashboardStock, dashboardWaiting, getDashboardSettings, saveDashboardSettings } from "~/services/dashboard.server";
import { type ChecklistDeps, launchChecklist } from "~/services/launch-checklist.server";
import { createShippingMethod, listShippingMethods, type ShippingMethod, setShippingMethodActive, updateShippingMethod } from "~/services/shipping-admin.server";
import type { ShippingMethodFormValues } from "~/domain/shipping-method-form";
import type { VatBreakdownRow } from "~/domain/invoice";
import { EMPTY_IDENTITY } from "~/domain/shop-identity";
import { expectedVatBreakdown, vatOfBreakdown } from "../support/expected-vat";
import { databaseLabel, openTestDatabase } from "./test-database";

/**
 * The seller's dashboard on a real database (issue 41): orders paid at known Paris times, across
 * a midnight and the night summer time ends, one refunded; every figure equals what this test
 * computes from its own orders' goods, prices and rates (tests/support/expected-vat.ts), to the
 * cent.
 */

/** Goods of an order: a unit price TTC, a quantity, a VAT rate. */
type Good = { priceCents: number; quantity: number; rateBp: number };
const atStandardRate = (priceCents: number, quantity = 1): Good => ({ priceCents, quantity, rateBp: 2000 });
/** A manga is a book: 5,5 %. */
const manga = (priceCents: number, quantity = 1): Good => ({ priceCents, quantity, rateBp: 550 });
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const linesOf = (goods: Good[]) => goods.map((good) => ({ totalCents: good.priceCents * good.quantity, rateBp: good.rateBp }));
const totalOf = (goods: Good[]) => sum(linesOf(goods).map((line) => line.totalCents));
describe(`the dashboard's figures on ${databaseLabel}`, () => {
  let database: Database;
  let seq = 0;

  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  /** `paidAt` null: a late payment, refunded without ever being a sale (decision 037). */
  type Sale = { paidAt: string | null; goods: Good[]; refundedAt?: string; status?: "paid" | "shipped" | "refunded" | "refund_pending" };

  /** An order of `goods`, paid at `paidAt`, stored with the VAT breakdown a checkout gives them. */
  async function sell(productId: number, sale: Sale) {
    const totalCents = totalOf(sale.goods);
    const [order] = await database.db
      .insert(orders)
      .values({
        number: `DSH-${String(++seq).padStart(6, "0")}`,
        status: sale.status ?? (sale.refundedAt ? "refunded" : "paid"),
        subtotalCents: totalCents,
        totalCents,
        paymentProvider: "test",
        // The test's rates are the shop's (20 %, 5,5 %).
        vatBreakdown: expectedVatBreakdown(linesOf(sale.goods)) as VatBreakdownRow[],
        paidAt: sale.paidAt ? new Date(sale.paidAt) : null,
        refundedAt: sale.refundedAt ? new Date(sale.refundedAt) : null,
        createdAt: new Date(new Date((sale.paidAt ?? sale.refundedAt)!).getTime() - 60_000),
      })
      .returning();
    await database.db
      .insert(orderItems)
      .values(sale.goods.map((good) => ({ orderId: order!.id, productId, name: "Produit tableau", unitPriceCents: good.priceCents, quantity: good.quantity, vatRateBp: good.rateBp })));
    // Refunded: the refund's own row, as a refund writes it (services/partial-refunds.server.ts), for the whole order.
    if (sale.refundedAt && (sale.status ?? "refunded") === "refunded") {
      await database.db.insert(orderRefunds).values({
        orderId: order!.id,
        requestKey: "whole",
        status: "refunded",
        amountCents: totalCents,
        vatBreakdown: order!.vatBreakdown,
        closesOrder: true,
        refundedAt: new Date(sale.refundedAt),
      });
    }
    return order!;
  }

  it("counts sales on their Paris payment day and refunds on theirs, today, 7 and 30 days against the days before", async () => {
    const [product] = await database.db.insert(products).values({ title: "Booster tableau", priceCents: 600, stock: 50, category: "TCG", subCategory: "Scellés" }).returning();
    // "Now": Monday 2026-10-26 at 10:00 in Paris (09:00Z), the day after summer time ended.
    const now = new Date("2026-10-26T09:00:00Z");
    // Two of them hold goods at two rates: their VAT is the sum of both rows of their breakdown.
    const sales: Sale[] = [
      { paidAt: "2026-10-25T23:30:00Z", goods: [atStandardRate(600), manga(600)] }, // 00:30 on the 26th in Paris: today
      { paidAt: "2026-10-25T22:30:00Z", goods: [atStandardRate(600)] }, // 23:30 on the 25th: yesterday
      { paidAt: "2026-10-25T00:30:00Z", goods: [atStandardRate(600, 5)], refundedAt: "2026-10-26T08:00:00Z" }, // 02:30 CEST on the 25th, refunded today
      { paidAt: "2026-10-19T22:30:00Z", goods: [atStandardRate(999)], status: "shipped" }, // 00:30 on the 20th: the 7 days' first day
      { paidAt: "2026-10-19T21:30:00Z", goods: [atStandardRate(1_000)] }, // 23:30 on the 19th: the 7 days before
      { paidAt: "2026-09-26T21:59:00Z", goods: [atStandardRate(1_250, 4)] }, // 23:59 on the 26th of September: 30 days before
      { paidAt: "2026-09-26T22:00:00Z", goods: [atStandardRate(5_620), manga(690, 2)] }, // 00:00 on the 27th: the 30 days' first day
    ];
    for (const sale of sales) await sell(product!.id, sale);

    const { periods, chart } = await dashboardSales(database.db, now);
    const figures = (rows: Sale[]) => {
      const revenueCents = sum(rows.map((row) => totalOf(row.goods)));
      const vat = sum(rows.map((row) => vatOfBreakdown(expectedVatBreakdown(linesOf(row.goods)))));
      const units = sum(rows.flatMap((row) => row.goods.map((good) => good.quantity)));
      return { revenueCents, revenueExVatCents: revenueCents - vat, orders: rows.length, averageBasketCents: rows.length ? Math.round(revenueCents / rows.length) : 0, units };
    };
    const [today, yesterday, refundedOne, weekFirst, weekBefore, monthBefore, monthFirst] = sales as [Sale, Sale, Sale, Sale, Sale, Sale, Sale];
    const byKey = Object.fromEntries(periods.map((period) => [period.key, period]));
    const refunded = { refunds: 1, refundedCents: totalOf(refundedOne.goods) };
    const none = { refunds: 0, refundedCents: 0 };
    expect(byKey.today!.current).toEqual({ ...figures([today]), ...refunded });
    expect(byKey.today!.previous).toEqual({ ...figures([yesterday, refundedOne]), ...none });
    expect(byKey["7d"]!.current).toEqual({ ...figures([today, yesterday, refundedOne, weekFirst]), ...refunded });
    expect(byKey["7d"]!.previous).toEqual({ ...figures([weekBefore]), ...none });
    expect(byKey["30d"]!.current).toEqual({ ...figures([today, yesterday, refundedOne, weekFirst, weekBefore, monthFirst]), ...refunded });
    expect(byKey["30d"]!.previous).toEqual({ ...figures([monthBefore]), ...none });

    expect(chart).toHaveLength(30);
    expect(chart[0]).toEqual({ day: "2026-09-27", revenueCents: totalOf(monthFirst.goods), orders: 1 });
    expect(chart.at(-1)).toEqual({ day: "2026-10-26", revenueCents: totalOf(today.goods), orders: 1 });
    expect(chart.find((day) => day.day === "2026-10-25")).toEqual({ day: "2026-10-25", revenueCents: totalOf(yesterday.goods) + totalOf(refundedOne.goods), orders: 2 });
    expect(chart.find((day) => day.day === "2026-10-19")).toEqual({ day: "2026-10-19", revenueCents: totalOf(weekBefore.goods), orders: 1 });
  });

  it("counts as refunds the receipts book's refund lines only: a late payment refunded without a sale is neither", async () => {
    const [product] = await database.db.insert(products).values({ title: "Booster remboursé", priceCents: 1_048, stock: 50, category: "TCG", subCategory: "Scellés" }).returning();
    // "Now": Wednesday 2027-03-31 at 12:00 in Paris (10:00Z); nothing else of this file is paid or refunded in March 2027.
    const now = new Date("2027-03-31T10:00:00Z");
    // A sale of the 20th refunded today: the book's one refund line, 10,48 €.
    const refundedSale = await sell(product!.id, { paidAt: "2027-03-20T10:00:00Z", goods: [atStandardRate(1_048)], refundedAt: "2027-03-31T08:00:00Z" });
    // A payment that came after its reservation ended, refunded at once (never paid for good): 11,48 €, no line in the book.
    await sell(product!.id, { paidAt: null, goods: [atStandardRate(1_148)], refundedAt: "2027-03-31T09:00:00Z" });

    const { periods } = await dashboardSales(database.db, now);
    const refundLines = (await ledgerEntries(database.db, { year: 2027, month: 3 })).filter((entry) => entry.kind === "refund");
    expect(refundLines.map((entry) => [entry.orderNumber, entry.totalCents])).toEqual([[refundedSale.number, -1_048]]);
    for (const period of periods) {
      // Every period ends today and starts in March (30 days: from the 2nd): the book's month holds them all.
      expect({ period: period.key, refunds: period.current.refunds, refundedCents: period.current.refundedCents }).toEqual({
        period: period.key,
        refunds: refundLines.length,
        refundedCents: -sum(refundLines.map((entry) => entry.totalCents)),
      });
    }
    // The refunded sale still counts on the day it was paid; the late payment never does.
    expect(periods.find((period) => period.key === "30d")!.current).toMatchObject({ orders: 1, revenueCents: 1_048 });
  });

  it("lists what waits: paid orders to ship oldest first, withdrawals not settled, messages not answered", async () => {
    const [product] = await database.db.insert(products).values({ title: "Coffret attente", priceCents: 5_000, stock: 5, category: "TCG", subCategory: "Scellés" }).returning();
    const before = await dashboardWaiting(database.db);
    const goods = [atStandardRate(5_000)];
    // The two oldest payments in the shop, recorded newest first: the list must follow the payment
    // dates, not the order numbers. One older still, but withdrawn: not to ship.
    const newer = await sell(product!.id, { paidAt: "2025-11-02T10:00:00Z", goods });
    const older = await sell(product!.id, { paidAt: "2025-11-01T10:00:00Z", goods });
    const withdrawn = await sell(product!.id, { paidAt: "2025-10-01T10:00:00Z", goods });
    await database.db.insert(withdrawalRequests).values({ orderId: withdrawn.id, email: "retour@example.com", source: "guest", requestedAt: new Date("2026-10-05T10:00:00Z") });
    await database.db.insert(inboxMessages).values([
      { kind: "contact", lastName: "Martin", firstName: "Zoé", email: "zoe@example.com", message: "Bonjour" },
      { kind: "rachat", lastName: "Durand", firstName: "Léo", email: "leo@example.com", message: "Ma collection", status: "lu" },
      { kind: "rachat", lastName: "Petit", firstName: "Ana", email: "ana@example.com", message: "Déjà traité", status: "traite" },
    ]);
    const waiting = await dashboardWaiting(database.db);
    expect(waiting.toShip.count).toBe(before.toShip.count + 2);
    expect(waiting.toShip.oldest.slice(0, 2).map((row) => row.number)).toEqual([older.number, newer.number]);
    expect(waiting.toShip.oldest.map((row) => row.number)).not.toContain(withdrawn.number);
    expect(waiting.withdrawals.count).toBe(before.withdrawals.count + 1);
    expect(waiting.withdrawals.oldest.map((row) => row.number)).toContain(withdrawn.number);
    expect(waiting.messages).toEqual({ contact: before.messages.contact + 1, rachat: before.messages.rachat + 1 });
  });

  it("shows low stock under the seller's threshold, best sellers, products unsold for 90 days, the stock's value, and the last drops", async () => {
    const now = new Date("2026-12-10T12:00:00Z");
    const old = new Date("2026-08-01T12:00:00Z");
    await saveDashboardSettings(database.db, { lowStockThreshold: 2 });
    expect(await getDashboardSettings(database.db)).toEqual({ lowStockThreshold: 2 });
    const before = await dashboardStock(database.db, now, 2);
    const [low, sleeping, seller] = await database.db
      .insert(products)
      .values([
        { title: "Stock bas tableau", priceCents: 1_000, stock: 1, category: "TCG", subCategory: "Scellés", createdAt: old },
        { title: "Endormi tableau", priceCents: 2_000, stock: 4, category: "TCG", subCategory: "Scellés", createdAt: old },
        { title: "Vedette tableau", priceCents: 500, stock: 30, category: "TCG", subCategory: "Scellés", createdAt: old, dropTime: new Date("2026-12-09T18:00:00Z") },
      ])
      .returning();
    await database.db.insert(productDrops).values({ productId: seller!.id });
    for (let i = 0; i < 3; i++) await sell(seller!.id, { paidAt: `2026-12-09T18:1${i}:00Z`, goods: [atStandardRate(500)] });
    const stock = await dashboardStock(database.db, now, 2);
    expect(stock.low.count).toBe(before.low.count + 1);
    expect(stock.low.products.map((row) => row.title)).toContain(low!.title);
    expect(stock.bestSellers[0]).toMatchObject({ id: seller!.id, units: 3, revenueCents: 1_500 });
    expect(stock.unsold.products.map((row) => row.title)).toContain(sleeping!.title);
    expect(stock.unsold.products.map((row) => row.title)).not.toContain(seller!.title);
    expect(stock.valueCents - before.valueCents).toBe(1_000 * 1 + 2_000 * 4 + 500 * 30);
    const [drop] = await dashboardDrops(database.db, now);
    expect(drop).toMatchObject({ productId: seller!.id, units: 33, sold: 3, soldOutAfterMs: null, customers: 3 });
  });

  it("ranks best sellers over the last 30 Paris days, today included, leaving out refunded and never-sold orders", async () => {
    const [star, refunded, dayBefore] = await database.db
      .insert(products)
      .values([
        { title: "Vedette du mois", priceCents: 700, stock: 50, category: "TCG", subCategory: "Scellés" },
        { title: "Remboursé du mois", priceCents: 900, stock: 50, category: "TCG", subCategory: "Scellés" },
        { title: "Veille du mois", priceCents: 800, stock: 50, category: "TCG", subCategory: "Scellés" },
      ])
      .returning();
    // "Now": Monday 2027-11-01 at 09:00 in Paris (08:00Z), the day after summer time ended: the 30
    // Paris days are 3 October 00:00 (22:00Z on the 2nd, still summer time) to tonight's midnight,
    // 30 × 24 h and one hour. 30 × 24 h back from now would start on 2 October at 10:00 in Paris.
    const now = new Date("2027-11-01T08:00:00Z");
    await sell(star!.id, { paidAt: "2027-10-02T22:00:00Z", goods: [atStandardRate(700, 2)] }); // 00:00 on 3 October: the first day
    await sell(star!.id, { paidAt: "2027-11-01T07:30:00Z", goods: [atStandardRate(700)], status: "shipped" }); // 08:30 today
    await sell(dayBefore!.id, { paidAt: "2027-10-02T21:59:00Z", goods: [atStandardRate(800, 4)] }); // 23:59 on 2 October: the day before
    // More units than the star's, none of them sold: refunded, being refunded (the seller cancelled), a late payment refunded.
    await sell(refunded!.id, { paidAt: "2027-10-20T10:00:00Z", goods: [atStandardRate(900, 5)], refundedAt: "2027-10-21T10:00:00Z" });
    await sell(refunded!.id, { paidAt: "2027-10-25T10:00:00Z", goods: [atStandardRate(900, 5)], status: "refund_pending" });
    await sell(refunded!.id, { paidAt: null, goods: [atStandardRate(900, 5)], refundedAt: "2027-10-28T10:00:00Z" });

    const stock = await dashboardStock(database.db, now, 0);
    expect(stock.bestSellers).toEqual([{ id: star!.id, title: "Produit tableau", units: 3, revenueCents: 3 * 700 }]);
  });

  it("reads the launch checklist from the real state: identity, Stripe and its webhook, SMTP and a delivered e-mail, delivery methods, second factors, a recent backup", async () => {
    const now = new Date("2026-12-10T12:00:00Z");
    const deps: ChecklistDeps = { legalDefaults: EMPTY_IDENTITY, payments: "test", smtp: false, publicUrl: "https://boutique.example" };
    const states = async (overrides: Partial<typeof deps> = {}) => Object.fromEntries((await launchChecklist(database.db, { ...deps, ...overrides }, now)).map((line) => [line.key, line.done]));
    expect(await states()).toMatchObject({ identity: false, stripe: false, smtp: false, backup: false });
    // Stripe's keys are the server's environment, not an admin page: the line says so, and links nowhere.
    const stripeLine = async (overrides: Partial<typeof deps> = {}) => (await launchChecklist(database.db, { ...deps, ...overrides }, now)).find((line) => line.key === "stripe")!;
    const withoutStripe = await stripeLine();
    expect(withoutStripe).toMatchObject({ href: null, state: "Page de paiement de test\u00a0: STRIPE_SECRET_KEY et STRIPE_WEBHOOK_SECRET ne sont pas définies sur le serveur" });
    expect(withoutStripe.why).toContain("ce sont les variables d'environnement STRIPE_SECRET_KEY et STRIPE_WEBHOOK_SECRET du serveur (voir .env.example et docs/operations.md)");
    // Stripe configured is not enough: a webhook must have come, at the address the line gives.
    expect(await stripeLine({ payments: "stripe" })).toMatchObject({
      done: false,
      href: null,
      state: "Aucun webhook reçu pour l'instant\u00a0: Stripe doit les envoyer à https://boutique.example/api/payments/stripe/webhook",
    });
    await database.db.execute(sql`insert into payment_events (id, provider, type) values ('evt_tableau', 'stripe', 'checkout.session.completed')`);
    expect(await stripeLine({ payments: "stripe" })).toMatchObject({ done: true, href: null, state: "Webhook reçu" });
    await database.db.execute(sql`insert into outbox_emails ("to", subject, html, text, kind, status) values ('a@example.com', 'Test', '<p>x</p>', 'x', 'test', 'sent')`);
    expect((await states({ smtp: true })).smtp).toBe(true);
    // A backup 8 days old is too old; 6 days old is recent.
    await recordBackup(database.db, { at: new Date(now.getTime() - 8 * 86_400_000).toISOString(), file: "/sauvegardes/a.tar.gz", bytes: 1, database: "pglite" });
    expect((await states()).backup).toBe(false);
    await recordBackup(database.db, { at: new Date(now.getTime() - 6 * 86_400_000).toISOString(), file: "/sauvegardes/b.tar.gz", bytes: 1, database: "pglite" });
    expect((await states()).backup).toBe(true);
  });

  it("ticks « Modes de livraison » once the seller has saved every active method, never for the examples the shop starts with", async () => {
    const now = new Date("2026-12-10T12:00:00Z");
    const deps: ChecklistDeps = { legalDefaults: EMPTY_IDENTITY, payments: "test", smtp: false, publicUrl: "https://boutique.example" };
    const shippingLine = async () => (await launchChecklist(database.db, deps, now)).find((line) => line.key === "shipping")!;
    const seeded = await listShippingMethods(database.db);
    expect(seeded.map((method) => [method.name, method.active, method.reviewedAt])).toEqual([
      ["Lettre suivie", true, null],
      ["Point relais", true, null],
      ["Colissimo à domicile", true, null],
      ["Colissimo Europe", true, null],
    ]);
    // Four active methods, the migration's examples, never reviewed: not done.
    expect(await shippingLine()).toMatchObject({ done: false, href: "/admin/shipping", state: "4 modes actifs sont encore des exemples de départ\u00a0: vérifiez-les, puis enregistrez-les" });

    const [letter, relay, home, europe] = seeded.map((method) => method as ShippingMethod) as [ShippingMethod, ShippingMethod, ShippingMethod, ShippingMethod];
    const formValues = (method: ShippingMethod): ShippingMethodFormValues => ({
      name: method.name,
      kind: method.kind,
      countries: method.countries as ShippingMethodFormValues["countries"],
      bands: method.bands,
      freeFromCents: method.freeFromCents,
      deliveryTime: method.deliveryTime,
      active: method.active,
    });
    // Switching an example off and on again reviews nothing.
    await setShippingMethodActive(database.db, letter.id, false);
    await setShippingMethodActive(database.db, letter.id, true);
    // The relay's rates saved as they are, the home delivery's changed: both the seller's now.
    await updateShippingMethod(database.db, relay.id, formValues(relay));
    await updateShippingMethod(database.db, home.id, { ...formValues(home), deliveryTime: "2 jours ouvrés" });
    expect(await shippingLine()).toMatchObject({ done: false, state: "2 modes actifs sont encore des exemples de départ\u00a0: vérifiez-les, puis enregistrez-les" });
    await setShippingMethodActive(database.db, europe.id, false);
    expect(await shippingLine()).toMatchObject({ done: false, state: "1 mode actif est encore un exemple de départ\u00a0: vérifiez-le, puis enregistrez-le" });
    await updateShippingMethod(database.db, letter.id, formValues(letter));
    expect(await shippingLine()).toMatchObject({ done: true, state: "3 modes actifs" });
    // A method the seller adds is theirs; without any active method, nobody can order.
    const own = await createShippingMethod(database.db, { ...formValues(letter), name: "Remise en main propre", active: true });
    expect(own.reviewedAt).not.toBeNull();
    expect(await shippingLine()).toMatchObject({ done: true, state: "4 modes actifs" });
    for (const method of [letter, relay, home, own]) await setShippingMethodActive(database.db, method.id, false);
    expect(await shippingLine()).toMatchObject({ done: false, state: "Aucun mode actif" });
  });
});
