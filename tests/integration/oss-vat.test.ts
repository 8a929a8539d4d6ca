import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { invoices, orderItems, orders, products, rateLimits, shippingMethods } from "~/db/schema";
import { saveBillingSettings } from "~/services/billing-settings.server";
import { type CheckoutContext, startCheckout } from "~/services/checkout.server";
import { csvAmount } from "~/domain/accounting-export";
import { ossReturnCsv } from "~/domain/oss-return";
import { parisWallClock } from "~/domain/paris-time";
import { ossCounter, ossReturnOf } from "~/services/oss.server";
import { handlePaymentEvent } from "~/services/payment-webhooks.server";
import { createTestProvider, type TestProvider } from "~/services/payments/test-provider.server";
import { expectedVatBreakdown } from "../support/expected-vat";
import { databaseLabel, openTestDatabase } from "./test-database";

const deps = { shop: { name: "Comptoir", email: "contact@comptoir.example", publicUrl: "https://comptoir.example" }, sellerEmail: "vendeur@comptoir.example" };
const BRUSSELS = { method: "home" as const, fullName: "Lucie Dubois", line1: "Rue Haute 12", postalCode: "1000", city: "Bruxelles", country: "BE" };

/**
 * The distance-sales threshold at checkout (docs/decisions/046), on real orders: the sales to other
 * member states counted excluding VAT, the order that takes the year past 10,000 € and every later
 * one taxed at the buyer's country's rates, two orders crossing at once decided one after the other.
 */
describe(`EU distance sales (OSS) on ${databaseLabel}`, () => {
  let database: Database;
  let provider: TestProvider;
  let toBelgium: { methodId: number; country: string };
  let ip = 0;
  const now = new Date();
  const ctx = (): CheckoutContext => ({ now, customer: null, clientIp: `198.51.100.${++ip}`, orderPrefix: "OSS", origin: "http://shop.test", reservationMinutes: 30 });

  async function product(values: Partial<typeof products.$inferInsert>) {
    const [row] = await database.db
      .insert(products)
      .values({ title: "Produit", priceCents: 1_000, stock: 10, category: "TCG", subCategory: "Scellés", ...values })
      .returning();
    return row!;
  }
  async function checkout(items: { productId: number; quantity: number }[], delivery = toBelgium) {
    await database.db.delete(rateLimits);
    const result = await startCheckout(database.db, provider, { items, insuranceSelected: false, delivery, email: "lucie@example.be" }, ctx());
    if (result.status !== 200) throw new Error(JSON.stringify(result.body));
    const [row] = await database.db.select().from(orders).where(eq(orders.number, result.body.orderNumber));
    return row!;
  }
  async function pay(order: typeof orders.$inferSelect) {
    const outcome = await handlePaymentEvent(
      database.db,
      provider,
      {
        id: `evt_${order.id}`,
        type: "session.completed",
        sessionId: order.providerSessionId,
        paid: true,
        paymentReference: `pi_${order.id}`,
        customerEmail: "lucie@example.be",
        customerName: BRUSSELS.fullName,
        shippingAddress: { ...BRUSSELS, country: order.shippingCountry ?? "BE" },
        amountTotalCents: order.totalCents,
      },
      deps,
    );
    expect(outcome).toBe("paid");
    const [row] = await database.db.select().from(orders).where(eq(orders.id, order.id));
    return row!;
  }
  const lines = (orderId: string) => database.db.select().from(orderItems).where(eq(orderItems.orderId, orderId));

  beforeAll(async () => {
    database = await openTestDatabase();
    provider = createTestProvider({ db: database.db, secret: "oss-secret" });
    const [method] = await database.db
      .insert(shippingMethods)
      .values({ name: "Colis UE offert", kind: "home", countries: ["BE", "FR"], bands: [{ upToGrams: null, fromSubtotalCents: 0, priceCents: 0 }], freeFromCents: null })
      .returning({ id: shippingMethods.id });
    toBelgium = { methodId: method!.id, country: "BE" };
  });
  afterAll(() => database.close());

  it("counts the year's paid sales to other member states excluding VAT, French ones left out", async () => {
    // 11 988,00 € TTC at 20 %: 9 990,00 € excluding VAT.
    const big = await product({ title: "Display Écarlate et Violet ×40", priceCents: 1_198_800 });
    const first = await pay(await checkout([{ productId: big.id, quantity: 1 }]));
    expect(first).toMatchObject({ vatCountry: "FR", vatBreakdown: [{ rateBp: 2000, baseCents: 999_000, vatCents: 199_800, totalCents: 1_198_800 }] });
    // A sale shipped in France is no distance sale.
    await pay(await checkout([{ productId: (await product({ priceCents: 6_000 })).id, quantity: 1 }], { ...toBelgium, country: "FR" }));
    expect(await ossCounter(database.db, now)).toMatchObject({ currentYearCents: 999_000, previousYearCents: 0, destinationVat: false });
  });

  it("two orders crossing at once: the one that reaches 10 000,00 € stays French, the one that passes it is taxed in Belgium, to the cent", async () => {
    // 12,00 € TTC at 20 %: 10,00 € excluding VAT each. 9 990 + 10 = 10 000,00 € is not past the threshold.
    const booster = await product({ title: "Booster Mascarade Crépusculaire", priceCents: 1_200 });
    const both = await Promise.all([checkout([{ productId: booster.id, quantity: 1 }]), checkout([{ productId: booster.id, quantity: 1 }])]);
    const [reaching, crossing] = both.sort((a, b) => a.vatCountry.localeCompare(b.vatCountry)).reverse();
    expect(reaching).toMatchObject({ vatCountry: "FR", totalCents: 1_200, vatBreakdown: [{ rateBp: 2000, baseCents: 1_000, vatCents: 200, totalCents: 1_200 }] });
    // The crossing order: the same 12,00 € TTC, split at Belgium's 21 %: 9,92 € + 2,08 €.
    expect(crossing).toMatchObject({ vatCountry: "BE", totalCents: 1_200, vatBreakdown: [{ rateBp: 2100, baseCents: 992, vatCents: 208, totalCents: 1_200 }] });
    expect((await lines(crossing!.id)).map((line) => [line.vatRateBp, line.vatCents])).toEqual([[2100, 208]]);
    await pay(reaching!);
    await pay(crossing!);
    expect(await ossCounter(database.db, now)).toMatchObject({ currentYearCents: 999_000 + 1_000 + 992, destinationVat: true });
  });

  it("taxes every later order in the buyer's country: 21 % on a card, 6 % on a manga, the delivery following them; the invoice says so", async () => {
    const [paidDelivery] = await database.db
      .insert(shippingMethods)
      .values({ name: "Colis UE", kind: "home", countries: ["BE"], bands: [{ upToGrams: null, fromSubtotalCents: 0, priceCents: 990 }], freeFromCents: null })
      .returning({ id: shippingMethods.id });
    const manga = await product({ title: "One Piece tome 1", priceCents: 690, category: "Gaming & Mangas", subCategory: "Manga" });
    const etb = await product({ title: "Coffret Dresseur d'élite", priceCents: 5_990 });
    const next = await pay(await checkout([{ productId: manga.id, quantity: 1 }, { productId: etb.id, quantity: 1 }], { methodId: paidDelivery!.id, country: "BE" }));
    expect(next.vatCountry).toBe("BE");
    expect(next.totalCents).toBe(690 + 5_990 + 990);
    expect(next.vatBreakdown).toEqual(expectedVatBreakdown([{ totalCents: 690, rateBp: 600 }, { totalCents: 5_990, rateBp: 2100 }], 990));
    expect((await lines(next.id)).map((line) => [line.name, line.vatRateBp]).sort()).toEqual([["Coffret Dresseur d'élite", 2100], ["One Piece tome 1", 600]]);

    // Issued in the paid transaction, from what the order stored.
    const [invoice] = await database.db.select().from(invoices).where(eq(invoices.orderId, next.id));
    expect(invoice!.snapshot.vatCountry).toBe("BE");
    expect(invoice!.snapshot.lines.map((line) => line.vatRateBp).sort()).toEqual([2100, 600]);
    expect(invoice!.snapshot.vatBreakdown).toEqual(next.vatBreakdown);
    expect(invoice!.snapshot.mentions).toContain("TVA de Belgique appliquée aux taux de ce pays : vente à distance intracommunautaire (art. 258 A et 259 B du CGI), déclarée au guichet unique (OSS).");
  });

  it("exports the quarter's OSS return by country and rate: the crossing order and the next, none of the French ones", async () => {
    const paid = await database.db.select().from(orders).where(eq(orders.vatCountry, "BE"));
    const byRate = (rateBp: number) =>
      paid.flatMap((order) => order.vatBreakdown.filter((row) => row.rateBp === rateBp)).reduce((sum, row) => ({ baseCents: sum.baseCents + row.baseCents, vatCents: sum.vatCents + row.vatCents }), { baseCents: 0, vatCents: 0 });
    const { year, month } = parisWallClock(now);
    const rows = await ossReturnOf(database.db, { year, quarter: (Math.floor((month - 1) / 3) + 1) as 1 | 2 | 3 | 4 });
    expect(rows).toEqual([
      { country: "BE", rateBp: 2100, ...byRate(2100) },
      { country: "BE", rateBp: 600, ...byRate(600) },
    ]);
    // 9,92 € of the crossing order and the card's and delivery's part of the next one.
    expect(rows[0]!.baseCents).toBeGreaterThan(992);
    expect(ossReturnCsv(rows).split("\r\n")[1]).toBe(`Belgique;BE;21;${csvAmount(rows[0]!.baseCents)};${csvAmount(rows[0]!.vatCents)}`);
  });

  it("applies the buyer's country's VAT from the first sale when the seller opts in", async () => {
    // A fresh year is not needed: the option alone decides, whatever the counter.
    await saveBillingSettings(database.db, { vatFranchise: false, ossOptIn: true });
    try {
      const toGermany = await database.db
        .insert(shippingMethods)
        .values({ name: "Colis Allemagne", kind: "home", countries: ["DE"], bands: [{ upToGrams: null, fromSubtotalCents: 0, priceCents: 0 }], freeFromCents: null })
        .returning({ id: shippingMethods.id });
      const manga = await product({ title: "Naruto tome 1", priceCents: 700, category: "Gaming & Mangas", subCategory: "Manga" });
      const order = await checkout([{ productId: manga.id, quantity: 1 }], { methodId: toGermany[0]!.id, country: "DE" });
      expect(order).toMatchObject({ vatCountry: "DE", vatBreakdown: [{ rateBp: 700, baseCents: 654, vatCents: 46, totalCents: 700 }] });
      expect((await ossCounter(database.db, now)).optedIn).toBe(true);
    } finally {
      await saveBillingSettings(database.db, { vatFranchise: false, ossOptIn: false });
    }
  });
});
