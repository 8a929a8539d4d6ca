import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { invoices, orders, products } from "~/db/schema";
import { ledgerCsvFor, ledgerSummary } from "~/services/accounting-export.server";
import { cancelAndRefundOrder } from "~/services/admin-orders.server";
import { saveBillingSettings } from "~/services/billing-settings.server";
import { startCheckout } from "~/services/checkout.server";
import { type WebhookDeps, receiveWebhook } from "~/services/payment-webhooks.server";
import { createTestProvider, type TestProvider, testWebhook } from "~/services/payments/test-provider.server";
import { saveMarginVatMode } from "~/services/margin-vat.server";
import { addPurchaseLot } from "~/services/purchase-lots.server";
import { createUserWithPassword } from "~/services/users.server";
import { type ExpectedLine, type ExpectedVatRow, expectedVatBreakdown } from "../support/expected-vat";
import { flatDelivery } from "./flat-delivery";
import { databaseLabel, openTestDatabase } from "./test-database";

/**
 * The receipts book (services/accounting-export.server.ts) against orders the test places and pays
 * at known instants around Paris midnights and both clock changes of 2026, one of them refunded
 * the next month: every line and every figure is what the test works out from its own orders,
 * their prices, rates and delivery (tests/support/expected-vat.ts), never from what the checkout
 * stored.
 */
const deps: WebhookDeps = { shop: { name: "Comptoir", email: "contact@comptoir.example", publicUrl: "https://comptoir.example" }, sellerEmail: "vendeur@comptoir.example" };
const address = { method: "home" as const, fullName: "Adresse Livraison", line1: "12 rue des Lilas", postalCode: "75011", city: "Paris", country: "FR", phone: "0612345678" };
const MINUTE = 60_000;
/** The delivery every order is charged (a method of the test's own, at one price). */
const DELIVERY_CENTS = 490;
/** 1234 → "12,34", written here apart from the module under test. */
const euros = (cents: number) => `${cents < 0 ? "-" : ""}${Math.floor(Math.abs(cents) / 100)},${String(Math.abs(cents) % 100).padStart(2, "0")}`;

/**
 * An order as the test priced it: its total, its VAT by rate (none under the franchise), its
 * margin-scheme goods, the VAT on their margin (per sale) and the price of those with no purchase price.
 */
type Placed = { number: string; customer: string; parisDay: string; totalCents: number; vat: ExpectedVatRow[]; marginCents: number; marginVatCents: number; unknownCostCents: number };
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const vatAt = (entry: Placed, rate: number) => entry.vat.find((row) => row.rateBp === rate)?.vatCents ?? 0;
const vatOf = (entry: Placed) => sum(entry.vat.map((row) => row.vatCents));

describe(`accounting export on ${databaseLabel}`, () => {
  let database: Database;
  let provider: TestProvider;
  let delivery: Awaited<ReturnType<typeof flatDelivery>>;
  let ip = 0;
  const placed: Placed[] = [];
  const at = (iso: string) => new Date(iso);

  /** A product, with the VAT rate the shop must charge for it (`rateBp`), as the test states it. */
  async function product(values: Partial<typeof products.$inferInsert>, rateBp: number) {
    const [row] = await database.db.insert(products).values({ title: `Produit ${values.priceCents}`, stock: 10, category: "TCG", subCategory: "Scellés", priceCents: 1_000, ...values }).returning();
    return { ...row!, rateBp };
  }

  type Item = { product: Awaited<ReturnType<typeof product>>; quantity: number };

  /** An order placed at `at` by the real checkout. */
  async function place(items: Item[], at: Date) {
    const result = await startCheckout(
      database.db,
      provider,
      { items: items.map((item) => ({ productId: item.product.id, quantity: item.quantity })), insuranceSelected: false, delivery },
      { now: at, customer: null, clientIp: `203.0.113.${++ip}`, orderPrefix: "CPT", origin: "http://shop.test", reservationMinutes: 30 },
    );
    if (result.status !== 200) throw new Error(JSON.stringify(result.body));
    return orderRow(result.body.orderNumber);
  }

  /** Its payment at `paidAt`, through the provider's webhook path: the outcome. */
  async function pay(order: typeof orders.$inferSelect, paidAt: Date, customer: string) {
    const { raw, headers } = testWebhook(provider, "checkout.session.completed", {
      sessionId: order.providerSessionId!,
      paid: true,
      paymentReference: `pi_${order.number}`,
      customerEmail: "client@example.com",
      customerName: customer,
      shippingAddress: address,
      amountTotalCents: order.totalCents,
    });
    return (await receiveWebhook(database.db, provider, raw, headers, { ...deps, now: () => paidAt })).body.outcome;
  }

  /** The franchise en base (no VAT at all) for the orders placed from now on. */
  let underFranchise = false;
  async function setFranchise(on: boolean) {
    await saveBillingSettings(database.db, { vatFranchise: on, ossOptIn: false });
    underFranchise = on;
  }

  /**
   * Placed ten minutes before it is paid at `paidAt` (Paris day `parisDay`); `margin` is what the
   * test worked out of its margin-scheme goods' purchase prices (none known by default).
   */
  async function placeAndPay(items: Item[], paidAt: Date, parisDay: string, customer: string, margin?: { vatCents: number; unknownCostCents: number }) {
    const order = await place(items, new Date(paidAt.getTime() - 10 * MINUTE));
    expect(await pay(order, paidAt, customer)).toBe("paid");
    const lines: ExpectedLine[] = items.map((item) => ({ totalCents: item.product.priceCents * item.quantity, rateBp: item.product.rateBp, margin: item.product.vatScheme === "margin" }));
    placed.push({
      number: order.number,
      customer,
      parisDay,
      totalCents: sum(lines.map((line) => line.totalCents)) + DELIVERY_CENTS,
      vat: underFranchise ? [] : expectedVatBreakdown(lines, DELIVERY_CENTS),
      marginCents: underFranchise ? 0 : sum(lines.filter((line) => line.margin).map((line) => line.totalCents)),
      marginVatCents: margin?.vatCents ?? 0,
      unknownCostCents: margin?.unknownCostCents ?? (underFranchise ? 0 : sum(lines.filter((line) => line.margin).map((line) => line.totalCents))),
    });
  }

  const orderRow = async (number: string) => (await database.db.select().from(orders).where(eq(orders.number, number)))[0]!;

  /**
   * One line as the test expects it, from the order it placed: its Paris day (or the refund's),
   * its invoice (or credit note) and payment reference as the shop numbered them, its amounts as
   * the test priced them, negated on a refund.
   */
  async function expectedLine(entry: Placed, columns: { rates: number[]; margin: boolean; unknownCost?: boolean }, refundDay?: string): Promise<string> {
    const order = await orderRow(entry.number);
    const documents = await database.db.select({ number: invoices.number, kind: invoices.kind }).from(invoices).where(eq(invoices.orderId, order.id));
    const document = documents.find((row) => row.kind === (refundDay ? "credit_note" : "invoice"))!.number;
    const sign = refundDay ? -1 : 1;
    return [
      refundDay ?? entry.parisDay,
      document,
      entry.number,
      entry.customer.startsWith("=") ? `'${entry.customer}` : entry.customer,
      euros(sign * entry.totalCents),
      euros(sign * (entry.totalCents - vatOf(entry))),
      ...columns.rates.map((rate) => euros(sign * vatAt(entry, rate))),
      ...(columns.margin ? [euros(sign * entry.marginCents), euros(sign * entry.marginVatCents)] : []),
      ...(columns.unknownCost ? [euros(sign * entry.unknownCostCents)] : []),
      "Carte bancaire (paiement de test)",
      refundDay ? order.refundReference! : `pi_${entry.number}`,
    ].join(";");
  }

  beforeAll(async () => {
    database = await openTestDatabase();
    provider = createTestProvider({ db: database.db, secret: "accounting-secret" });
    delivery = await flatDelivery(database.db, "Livraison comptable", DELIVERY_CENTS);
    const { id: adminId } = await createUserWithPassword(database.db, { email: "chef@comptoir.test", password: "chef-mot-de-passe-2026", name: "Chef", role: "admin", emailVerified: true });
    // A manga is a book (5,5 %); the rest at 20 %, the second-hand card under the margin scheme.
    const booster = await product({ title: "Booster", priceCents: 599 }, 2000);
    const display = await product({ title: "Display", priceCents: 14_990 }, 2000);
    const manga = await product({ title: "One Piece tome 1", priceCents: 690, category: "Gaming & Mangas", subCategory: "Manga" }, 550);
    const used = await product({ title: "Dracaufeu (occasion)", priceCents: 5_000, subCategory: "Cartes", vatScheme: "margin" }, 2000);
    // Paid in the order of their instants, as real payments come: invoice dates follow numbers.
    await placeAndPay([{ product: used, quantity: 1 }, { product: booster, quantity: 1 }], at("2026-03-15T12:00:00Z"), "15/03/2026", "Zoé Margin");
    // 01:30 in Paris on the night the clocks go forward (02:00 → 03:00).
    await placeAndPay([{ product: booster, quantity: 2 }, { product: manga, quantity: 1 }], at("2026-03-29T00:30:00Z"), "29/03/2026", "Marie Curie");
    await placeAndPay([{ product: manga, quantity: 3 }], at("2026-03-31T21:30:00Z"), "31/03/2026", "=1+1");
    // 00:30 on 1 April in Paris (summer time), though still 31 March in UTC.
    await placeAndPay([{ product: display, quantity: 1 }], at("2026-03-31T22:30:00Z"), "01/04/2026", "Jean Moulin");
    // The Marie Curie order is cancelled and refunded the next month: a negative line in April.
    expect(await cancelAndRefundOrder(database.db, provider, placed[1]!.number, adminId, { ...deps, now: () => at("2026-04-02T08:00:00Z") })).toMatchObject({ ok: true });
    // A payment that came after its reservation ended, its stock gone meanwhile: refunded without
    // ever being a sale (no paid_at, no invoice), it shows on neither side of April's book.
    const late = await place([{ product: booster, quantity: 1 }], at("2026-04-10T08:00:00Z"));
    await database.db.update(orders).set({ status: "expired", reservedUntil: null }).where(eq(orders.id, late.id));
    await database.db.update(products).set({ stock: 0 }).where(eq(products.id, booster.id));
    // The webhook gives the money back at once.
    expect(await pay(late, at("2026-04-10T09:00:00Z"), "Paiement Tardif")).toBe("refund-pending");
    expect(await orderRow(late.number)).toMatchObject({ status: "refunded", paidAt: null, refundedAt: at("2026-04-10T09:00:00Z") });
    await database.db.update(products).set({ stock: 10 }).where(eq(products.id, booster.id));
    // 02:30 in Paris, the first time: the clocks go back from 03:00 to 02:00 half an hour later.
    await placeAndPay([{ product: booster, quantity: 1 }], at("2026-10-25T00:30:00Z"), "25/10/2026", "Victor Hugo");
    // 00:30 on 1 November in Paris (winter time), under the franchise en base.
    await setFranchise(true);
    await placeAndPay([{ product: booster, quantity: 3 }], at("2026-10-31T23:30:00Z"), "01/11/2026", "Simone Veil");
    await setFranchise(false);
  });
  afterAll(() => database?.close());

  /** The export's lines under its header, without the BOM. */
  async function exported(year: number, month: number | null) {
    const csv = await ledgerCsvFor(database.db, { year, month });
    expect(csv.startsWith("\uFEFF")).toBe(true);
    const [header, ...lines] = csv.slice(1).split("\r\n").slice(0, -1);
    return { header: header!.split(";"), lines };
  }

  it("writes each month's lines, by Paris day across midnight and both clock changes, the refund in its own month", async () => {
    const [margin, curie, formula, moulin, hugo, veil] = placed as [Placed, Placed, Placed, Placed, Placed, Placed];
    const both = { rates: [2000, 550], margin: false };

    const march = await exported(2026, 3);
    expect(march.header).toEqual([
      "Date",
      "Pièce",
      "Commande",
      "Client",
      "Montant TTC",
      "Montant HT",
      "TVA 20 %",
      "TVA 5,5 %",
      "Biens d'occasion, régime de la marge (TTC)",
      "TVA sur la marge",
      "Dont prix d'achat inconnu, TVA sur la marge à calculer (TTC)",
      "Moyen de paiement",
      "Référence du paiement",
    ]);
    // The second-hand card has no purchase price: no margin VAT, its price flagged.
    const withMargin = { ...both, margin: true, unknownCost: true };
    expect(march.lines).toEqual([await expectedLine(margin, withMargin), await expectedLine(curie, withMargin), await expectedLine(formula, withMargin)]);
    expect(march.lines.map((line) => line.split(";")[1])).toEqual(["F-2026-000001", "F-2026-000002", "F-2026-000003"]);
    expect(march.lines[2]).toContain(";'=1+1;");

    const april = await exported(2026, 4);
    expect(april.header.slice(6, -2)).toEqual(["TVA 20 %", "TVA 5,5 %"]);
    expect(april.lines).toEqual([await expectedLine(moulin, both), await expectedLine(curie, both, "02/04/2026")]);
    const refund = april.lines[1]!.split(";");
    expect(refund[1]).toBe("A-2026-000001");
    // A negative amount stays a number: no apostrophe in front.
    expect(refund[4]).toMatch(/^-\d+,\d\d$/);

    const october = await exported(2026, 10);
    expect(october.header.slice(6, -2)).toEqual(["TVA 20 %"]);
    expect(october.lines).toEqual([await expectedLine(hugo, { rates: [2000], margin: false })]);

    // Under the franchise: no VAT column, HT = TTC.
    const november = await exported(2026, 11);
    expect(november.header.slice(6, -2)).toEqual([]);
    expect(november.lines).toEqual([await expectedLine(veil, { rates: [], margin: false })]);
    expect(november.lines[0]!.split(";")[4]).toBe(november.lines[0]!.split(";")[5]);

    expect((await exported(2026, 2)).lines).toEqual([]);
    expect((await exported(2026, 12)).lines).toEqual([]);
  });

  it("writes the year as every month's lines in order, and its figures to the cent", async () => {
    const [margin, curie, formula, moulin, hugo, veil] = placed as [Placed, Placed, Placed, Placed, Placed, Placed];
    const all = { rates: [2000, 550], margin: true, unknownCost: true };
    expect((await exported(2026, null)).lines).toEqual([
      await expectedLine(margin, all),
      await expectedLine(curie, all),
      await expectedLine(formula, all),
      await expectedLine(moulin, all),
      await expectedLine(curie, all, "02/04/2026"),
      await expectedLine(hugo, all),
      await expectedLine(veil, all),
    ]);
    expect((await exported(2025, null)).lines).toEqual([]);

    // The figures the page shows: the test's own sums over its orders, the refund taken off.
    const yearly = (figure: (entry: Placed) => number) => sum(placed.map(figure)) - figure(curie);
    const totalCents = yearly((entry) => entry.totalCents);
    expect(await ledgerSummary(database.db, { year: 2026, month: null })).toEqual({
      receipts: 6,
      refunds: 1,
      totalCents,
      exclVatCents: totalCents - yearly(vatOf),
      vat: [
        { rateBp: 2000, vatCents: yearly((entry) => vatAt(entry, 2000)) },
        { rateBp: 550, vatCents: yearly((entry) => vatAt(entry, 550)) },
      ],
      marginSchemeCents: yearly((entry) => entry.marginCents),
    });
    expect(await ledgerSummary(database.db, { year: 2026, month: 4 })).toMatchObject({ receipts: 1, refunds: 1, totalCents: moulin.totalCents - curie.totalCents });
  });

  it("shows the VAT due on the margin to the cent, per sale on its line, per period on the month's line", async () => {
    // December (after every document above: invoice dates follow numbers): three cards bought at
    // 12,34 € each, two sold at 35,00 € in one order.
    const pikachu = await product({ title: "Pikachu (occasion)", priceCents: 3_500, stock: 0, subCategory: "Cartes", vatScheme: "margin" }, 2000);
    await addPurchaseLot(database.db, { productId: pikachu.id, quantity: 3, unitCostCents: 1_234, source: "manual", receivedAt: at("2026-12-03T09:00:00Z") });
    // Per sale: margin 70,00 − 2 × 12,34 = 45,32 €, VAT 20/120 of it: 45,32 − 37,77 = 7,55 €.
    await placeAndPay([{ product: pikachu, quantity: 2 }], at("2026-12-15T10:00:00Z"), "15/12/2026", "Sacha Bourg", { vatCents: 755, unknownCostCents: 0 });
    const sacha = placed.at(-1)!;
    const december = await exported(2026, 12);
    expect(december.header.slice(6, -2)).toEqual(["TVA 20 %", "Biens d'occasion, régime de la marge (TTC)", "TVA sur la marge"]);
    expect(december.lines).toEqual([await expectedLine(sacha, { rates: [2000], margin: true })]);
    expect(december.lines[0]!.split(";")[8]).toBe("7,55");

    // Per period: December's margin-scheme sales 70,00 € less its purchases 37,02 € = 32,98 €, VAT 5,50 €
    // on a line of its own dated the month's last day; the sale's own cell stays empty.
    await saveMarginVatMode(database.db, "per_period");
    const perPeriod = await exported(2026, 12);
    expect(perPeriod.header).toEqual(december.header);
    expect(perPeriod.lines[0]!.split(";")[8]).toBe("");
    expect(perPeriod.lines.slice(1)).toEqual(["31/12/2026;;;TVA sur la marge de décembre 2026 (par période);;;;;5,50;;"]);
    // March: the 50,00 € card, no purchase that month nor before: VAT 8,33 € (50,00 − 41,67).
    const march = await exported(2026, 3);
    expect(march.lines.at(-1)).toBe("31/03/2026;;;TVA sur la marge de mars 2026 (par période);;;;;;8,33;;");
    await saveMarginVatMode(database.db, "per_sale");
  });
});
