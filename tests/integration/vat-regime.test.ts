import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { invoices, orderItems, orders, products, rateLimits } from "~/db/schema";
import { EMPTY_IDENTITY } from "~/domain/shop-identity";
import { saveBillingSettings } from "~/services/billing-settings.server";
import {
  type CheckoutContext,
  startCheckout,
} from "~/services/checkout.server";
import { issueInvoice } from "~/services/invoices.server";
import {
  createTestProvider,
  type TestProvider,
} from "~/services/payments/test-provider.server";
import { expectedVat, expectedVatBreakdown } from "../support/expected-vat";
import { flatDelivery } from "./flat-delivery";
import { databaseLabel, openTestDatabase } from "./test-database";

/** The delivery every order of this file is charged, split over its rates like the goods. */
const DELIVERY_CENTS = 490;

/** The VAT an order stores, by rate, as the checkout computes it from the products' rates and schemes. */
describe(`VAT of an order on ${databaseLabel}`, () => {
  let database: Database;
  let provider: TestProvider;
  let delivery: Awaited<ReturnType<typeof flatDelivery>>;
  let ip = 0;
  const ctx = (): CheckoutContext => ({
    now: new Date(),
    customer: null,
    clientIp: `203.0.113.${++ip}`,
    orderPrefix: "CPT",
    origin: "http://shop.test",
    reservationMinutes: 30,
  });

  async function product(values: Partial<typeof products.$inferInsert>) {
    const [row] = await database.db
      .insert(products)
      .values({
        title: "Produit",
        priceCents: 1_000,
        stock: 10,
        category: "TCG",
        subCategory: "Scellés",
        ...values,
      })
      .returning();
    return row!;
  }
  async function order(items: { productId: number; quantity: number }[]) {
    await database.db.delete(rateLimits);
    const result = await startCheckout(
      database.db,
      provider,
      { items, insuranceSelected: false, delivery },
      ctx(),
    );
    if (result.status !== 200) throw new Error(JSON.stringify(result.body));
    const [row] = await database.db
      .select()
      .from(orders)
      .where(eq(orders.number, result.body.orderNumber));
    const lines = await database.db
      .select()
      .from(orderItems)
      .where(eq(orderItems.orderId, row!.id));
    return { row: row!, lines };
  }

  beforeAll(async () => {
    database = await openTestDatabase();
    provider = createTestProvider({ db: database.db, secret: "vat-secret" });
    delivery = await flatDelivery(database.db, "Livraison TVA", DELIVERY_CENTS);
  });
  afterAll(() => database.close());

  it("takes each rate out of its lines and splits the delivery over the rates pro rata", async () => {
    const manga = await product({
      title: "One Piece tome 1",
      priceCents: 690,
      category: "Gaming & Mangas",
      subCategory: "Manga",
    });
    const booster = await product({
      title: "Booster Flammes Obsidiennes",
      priceCents: 599,
      category: "TCG",
      subCategory: "Scellés",
    });
    const { row, lines } = await order([
      { productId: manga.id, quantity: 1 },
      { productId: booster.id, quantity: 1 },
    ]);
    expect(row.vatRegime).toBe("normal");
    expect(row.totalCents).toBe(690 + 599 + DELIVERY_CENTS);
    // The manga is a book (5,5 %), the booster at 20 %: each line's VAT is its part of its rate's,
    // worked out on the rate's total (its goods and its share of the delivery).
    const [mangaVat, boosterVat] = expectedVat(
      [
        { totalCents: 690, rateBp: 550 },
        { totalCents: 599, rateBp: 2000 },
      ],
      DELIVERY_CENTS,
    ).lineVatCents;
    expect(lines.map((line) => [line.name, line.vatRateBp, line.vatCents]).sort()).toEqual([
      ["Booster Flammes Obsidiennes", 2000, boosterVat],
      ["One Piece tome 1", 550, mangaVat],
    ]);
    // By rate, the goods and their share of the delivery (690 and 599 of 1 289), as the test
    // works them out (tests/support/expected-vat.ts): every cent of the order in one rate.
    expect(row.vatBreakdown).toEqual(
      expectedVatBreakdown(
        [
          { totalCents: 690, rateBp: 550 },
          { totalCents: 599, rateBp: 2000 },
        ],
        DELIVERY_CENTS,
      ),
    );
  });

  it("shows no VAT for a second-hand card under the margin scheme, and none at all under the franchise", async () => {
    const used = await product({
      title: "Dracaufeu 1re édition (occasion)",
      priceCents: 5_000,
      category: "TCG",
      subCategory: "Cartes",
      vatScheme: "margin",
    });
    const sealed = await product({
      title: "Coffret Dresseur d'élite",
      priceCents: 5_500,
    });
    const margin = await order([
      { productId: used.id, quantity: 1 },
      { productId: sealed.id, quantity: 1 },
    ]);
    expect(
      margin.lines.find((line) => line.name.includes("occasion")),
    ).toMatchObject({ vatScheme: "margin", vatCents: 0 });
    // Only the new goods (and all the delivery) are in the breakdown.
    expect(margin.row.vatBreakdown).toEqual(
      expectedVatBreakdown(
        [
          { totalCents: 5_000, rateBp: 2000, margin: true },
          { totalCents: 5_500, rateBp: 2000 },
        ],
        DELIVERY_CENTS,
      ),
    );

    await saveBillingSettings(database.db, { vatFranchise: true, ossOptIn: false });
    try {
      const franchise = await order([{ productId: sealed.id, quantity: 1 }]);
      expect(franchise.row).toMatchObject({
        vatRegime: "franchise",
        vatBreakdown: [],
      });
      expect(franchise.lines.every((line) => line.vatCents === 0)).toBe(true);
    } finally {
      await saveBillingSettings(database.db, { vatFranchise: false, ossOptIn: false });
    }
  });

  it("issues an invoice in layout 2 with the figures the order stored: each rate's VAT on its total, the lines' VAT, HT + TVA + occasion = TTC", async () => {
    // Three mangas of 3,10 € and one of 6,04 € at 5,5 %, a booster at 20 %, a second-hand card.
    const mangaA = await product({ title: "Manga A", priceCents: 310, category: "Gaming & Mangas", subCategory: "Manga" });
    const mangaB = await product({ title: "Manga B", priceCents: 604, category: "Gaming & Mangas", subCategory: "Manga" });
    const booster = await product({ title: "Booster C", priceCents: 599 });
    const card = await product({ title: "Carte D (occasion)", priceCents: 1_250, vatScheme: "margin" });
    const { row, lines } = await order([
      { productId: mangaA.id, quantity: 3 },
      { productId: mangaB.id, quantity: 1 },
      { productId: booster.id, quantity: 1 },
      { productId: card.id, quantity: 1 },
    ]);
    const goods = [
      { name: "Manga A", totalCents: 930, rateBp: 550 },
      { name: "Manga B", totalCents: 604, rateBp: 550 },
      { name: "Booster C", totalCents: 599, rateBp: 2000 },
      { name: "Carte D (occasion)", totalCents: 1_250, rateBp: 2000, margin: true },
    ];
    // The checkout's lines in the cart's order, as the test spreads the bases.
    const byName = (name: string) => lines.find((line) => line.name === name)!;
    const expected = expectedVat(goods, DELIVERY_CENTS);
    expect(row.vatBreakdown).toEqual(expected.rows);
    expect(goods.map((good) => byName(good.name).vatCents)).toEqual(expected.lineVatCents);

    const issued = await issueInvoice(database.db, row.id, { ...EMPTY_IDENTITY, companyName: "Comptoir" }, new Date());
    const [invoice] = await database.db.select().from(invoices).where(eq(invoices.id, issued.id));
    const snapshot = invoice!.snapshot;
    expect(snapshot.layout).toBe(2);
    expect(snapshot.vatBreakdown).toEqual(expected.rows);
    // Each line's VAT on the invoice is the one the order stored.
    for (const line of snapshot.lines) {
      if (line.vatScheme === "margin") expect([line.vatRateBp, line.totalExclVatCents]).toEqual([null, null]);
      else expect(line.totalCents - line.totalExclVatCents!).toBe(byName(line.name).vatCents);
    }
    const { totals } = snapshot;
    expect(totals.inclVatCents).toBe(row.totalCents);
    expect(totals.marginSchemeCents).toBe(1_250);
    expect(totals.exclVatCents + totals.vatCents + totals.marginSchemeCents).toBe(totals.inclVatCents);
    // The delivery, a line per rate, its bases the rest of each rate's.
    const [charge] = snapshot.charges;
    expect(charge!.parts!.reduce((sum, part) => sum + part.totalCents, 0)).toBe(DELIVERY_CENTS);
    for (const vatRow of expected.rows) {
      const linesBase = snapshot.lines.filter((line) => line.vatRateBp === vatRow.rateBp).reduce((sum, line) => sum + line.totalExclVatCents!, 0);
      expect(linesBase + charge!.parts!.find((part) => part.rateBp === vatRow.rateBp)!.exclVatCents).toBe(vatRow.baseCents);
    }
  });
});
