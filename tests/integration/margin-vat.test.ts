import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { asc, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { invoices, orderItemCosts, orderItems, orders, outboxEmails, products, purchaseLots } from "~/db/schema";
import { MARGIN_VAT_FLAG } from "~/domain/fec";
import { DEFAULT_FEC_ACCOUNTS } from "~/domain/fec-accounts";
import { parisWallClock } from "~/domain/paris-time";
import { getAdminOrder, refundPartOfAdminOrder } from "~/services/admin-orders.server";
import type { CheckoutContext } from "~/services/checkout.server";
import { fecEntriesFor } from "~/services/fec.server";
import { documentPdf } from "~/services/invoices.server";
import { marginVatSummary, saveMarginVatMode } from "~/services/margin-vat.server";
import { createStripeProvider } from "~/services/payments/stripe.server";
import type { PaymentProvider } from "~/services/payments/types";
import { addPurchaseLot } from "~/services/purchase-lots.server";
import { createUserWithPassword } from "~/services/users.server";
import { type FakeStripe, startFakeStripe } from "../support/fake-stripe-server";
import { checkoutAndPay, payOrder, startGuestCheckout } from "./paid-checkout";
import { databaseLabel, openTestDatabase } from "./test-database";

/**
 * Margin VAT on FIFO purchase prices (docs/decisions/057) on a real database: three lots bought
 * at different prices, orders paid at once taking units across the lots' boundaries, the margin
 * VAT to the cent, units with no lot flagged, a refund's units back in their lot, the FEC.
 */
const deps = { shop: { name: "Comptoir", email: "contact@comptoir.example", publicUrl: "https://comptoir.example" }, sellerEmail: "vendeur@comptoir.example" };
const ACCOUNTS = DEFAULT_FEC_ACCOUNTS;

describe(`margin VAT on FIFO purchase prices on ${databaseLabel}`, () => {
  let database: Database;
  let fake: FakeStripe;
  let stripe: PaymentProvider;
  let adminId: string;
  let productId: number;
  let lotIds: number[];
  const orderIds: string[] = [];
  let n = 0;
  const db = () => database.db;
  const ctx = (): CheckoutContext => ({ now: new Date(), customer: null, clientIp: `198.51.100.${++n % 250}`, orderPrefix: "CPT", origin: "http://shop.test", reservationMinutes: 45 });
  const month = () => ({ year: parisWallClock(new Date()).year, month: parisWallClock(new Date()).month });

  /** Each order's units by lot (null: no lot), as costed. */
  async function costsOf(orderId: string) {
    return db()
      .select({ lotId: orderItemCosts.lotId, quantity: orderItemCosts.quantity, unitCostCents: orderItemCosts.unitCostCents })
      .from(orderItemCosts)
      .innerJoin(orderItems, eq(orderItems.id, orderItemCosts.orderItemId))
      .where(eq(orderItems.orderId, orderId))
      .orderBy(asc(orderItemCosts.id));
  }
  const remaining = async () => (await db().select({ remaining: purchaseLots.remaining }).from(purchaseLots).where(inArray(purchaseLots.id, lotIds)).orderBy(asc(purchaseLots.receivedAt))).map((lot) => lot.remaining);

  beforeAll(async () => {
    database = await openTestDatabase();
    fake = await startFakeStripe();
    stripe = createStripeProvider({ secretKey: "sk_test_comptoir", webhookSecret: "whsec_test", apiBase: fake.url });
    ({ id: adminId } = await createUserWithPassword(database.db, { email: "chef@comptoir.test", password: "chef-mot-de-passe-2026", name: "Chef", role: "admin", emailVerified: true }));
    const [product] = await db().insert(products).values({ title: "Dracaufeu d'occasion", priceCents: 2_000, stock: 0, category: "TCG", subCategory: "Cartes à l'unité", vatScheme: "margin" }).returning();
    productId = product!.id;
    const now = Date.now();
    // Bought in this order; the lot received last is inserted first, so FIFO must read the dates.
    const lots = [
      { quantity: 3, unitCostCents: 1_200, at: now - 1_000 },
      { quantity: 2, unitCostCents: 500, at: now - 3_000 },
      { quantity: 2, unitCostCents: 800, at: now - 2_000 },
    ];
    const ids = [];
    for (const lot of lots) ids.push((await addPurchaseLot(db(), { productId, quantity: lot.quantity, unitCostCents: lot.unitCostCents, source: "manual", receivedAt: new Date(lot.at) })).lotId);
    lotIds = [ids[1]!, ids[2]!, ids[0]!];
  });
  afterAll(async () => {
    fake.close();
    await database.close();
  });

  it("costs two orders paid at once from the oldest lots, never the same unit twice", async () => {
    expect((await db().select({ stock: products.stock }).from(products).where(eq(products.id, productId)))[0]!.stock).toBe(7);
    const first = await startGuestCheckout(db(), stripe, [{ productId, quantity: 3 }], { ctx: ctx() });
    const second = await startGuestCheckout(db(), stripe, [{ productId, quantity: 3 }], { ctx: ctx() });
    const outcomes = await Promise.all([payOrder(db(), stripe, first, { deps, intent: "pi_margin_1" }), payOrder(db(), stripe, second, { deps, intent: "pi_margin_2" })]);
    expect(outcomes).toEqual(["paid", "paid"]);
    orderIds.push(first.id, second.id);

    const costs = [await costsOf(first.id), await costsOf(second.id)];
    for (const rows of costs) expect(rows.reduce((sum, row) => sum + row.quantity, 0)).toBe(3);
    // Taken together: both units of the 5 € lot, both of the 8 € lot, two of the 12 € lot.
    const taken = new Map<number, number>();
    for (const row of costs.flat()) taken.set(row.lotId!, (taken.get(row.lotId!) ?? 0) + row.quantity);
    expect(lotIds.map((id) => taken.get(id) ?? 0)).toEqual([2, 2, 2]);
    expect(await remaining()).toEqual([0, 0, 1]);
    // Whichever was paid first took 5 €, 5 €, 8 €; the other 8 €, 12 €, 12 €.
    const spent = costs.map((rows) => rows.reduce((sum, row) => sum + row.quantity * row.unitCostCents!, 0)).sort((a, b) => a - b);
    expect(spent).toEqual([1_800, 3_200]);
  });

  it("flags the units no lot has left, and gives the margin VAT to the cent", async () => {
    // A unit in stock from before purchase prices: no lot behind it.
    await db().update(products).set({ stock: sql`${products.stock} + 1` }).where(eq(products.id, productId));
    const third = await checkoutAndPay(db(), stripe, [{ productId, quantity: 2 }], { ctx: ctx(), deps, intent: "pi_margin_3" });
    orderIds.push(third.id);
    expect(await costsOf(third.id)).toEqual([
      { lotId: lotIds[2], quantity: 1, unitCostCents: 1_200 },
      { lotId: null, quantity: 1, unitCostCents: null },
    ]);
    // Margins 60 − 18 = 42 € (VAT 7,00 €), 60 − 32 = 28 € (4,67 €), and 20 − 12 = 8 € on the unit with a cost (1,33 €).
    const summary = await marginVatSummary(db(), month());
    expect(summary).toEqual({ mode: "per_sale", vatCents: 700 + 467 + 133, unknownUnits: 1 });
  });

  it("never shows the margin VAT to the buyer: not in the invoice (snapshot, PDF text) nor in the e-mails", async () => {
    const [third] = await db().select({ id: invoices.id, number: invoices.number, snapshot: invoices.snapshot }).from(invoices).where(eq(invoices.orderId, orderIds[2]!));
    expect(JSON.stringify(third!.snapshot)).not.toMatch(/marge|purchase|cost/i);
    const pdf = (await documentPdf(db(), orderIds[2]!, third!.number))!.pdf;
    const file = path.join(os.tmpdir(), `comptoir-margin-${randomUUID()}.pdf`);
    fs.writeFileSync(file, pdf);
    const text = execFileSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
    fs.rmSync(file);
    // The margin-scheme line is there, TTC, with its mention; no margin, no VAT on it (1,33 €), no purchase price (12,00 €).
    expect(text).toContain("Régime particulier – Biens d'occasion");
    expect(text).toContain("40,00 €");
    // Its only "marge": the mention that the VAT on the margin is not shown (art. 297 E).
    expect(text).toContain("TVA sur la marge non apparente (art. 297 E du CGI)");
    expect(text.replace("TVA sur la marge non apparente", "")).not.toMatch(/marge|1,33|12,00|prix d'achat/i);
    const emails = await db().select({ html: outboxEmails.html, text: outboxEmails.text }).from(outboxEmails).where(eq(outboxEmails.kind, "order-confirmation"));
    expect(emails).toHaveLength(3);
    // (The legal guarantee's "réduction du prix d'achat" is the buyer's price: the purchase prices are amounts here.)
    for (const email of emails) expect(`${email.html} ${email.text}`.replaceAll("TVA sur la marge non apparente", "")).not.toMatch(/marge|1,33|12,00/i);
  });

  it("credits the margin-scheme sales less their margin VAT, the VAT to 44571, and flags only the unknown cost, balanced", async () => {
    const entries = await fecEntriesFor(db(), { ...month(), month: month().month }, ACCOUNTS);
    const sales = entries.filter((entry) => entry.journal === "VE");
    expect(sales).toHaveLength(3);
    for (const entry of entries) expect(entry.lines.reduce((sum, line) => sum + line.cents, 0)).toBe(0);
    const lines = sales.flatMap((entry) => entry.lines);
    const marginVat = lines.filter((line) => line.account === "44571" && line.label.endsWith("TVA sur la marge"));
    expect(marginVat.map((line) => -line.cents).sort((a, b) => a - b)).toEqual([133, 467, 700]);
    const flagged = lines.filter((line) => line.label.includes(MARGIN_VAT_FLAG));
    expect(flagged.map((line) => line.cents)).toEqual([-2_000]);
    // Sales TTC 160 €: 7073 gets it less the margin VAT, flagged part included.
    expect(-lines.filter((line) => line.account === "7073").reduce((sum, line) => sum + line.cents, 0)).toBe(16_000 - 1_300);
  });

  it("puts refunded units back in their lot, and the credit note gives back the margin VAT", async () => {
    const [{ number }] = (await db().select({ number: orders.number }).from(orders).where(eq(orders.id, orderIds[0]!))) as [{ number: string }];
    const line = (await getAdminOrder(db(), number))!.refundable.lines[0]!;
    const costs = await costsOf(orderIds[0]!);
    const result = await refundPartOfAdminOrder(db(), stripe, number, { intent: "partial-refund", requestKey: randomUUID(), [`qty:${line.id}`]: "1", [`restock:${line.id}`]: "on" }, adminId, deps);
    expect(result).toMatchObject({ ok: true });
    // The newest unit taken comes back to its lot.
    const newest = costs.at(-1)!;
    const after = await costsOf(orderIds[0]!);
    expect(after.at(-1)).toEqual({ lotId: newest.lotId, quantity: -1, unitCostCents: newest.unitCostCents });
    const back = lotIds.indexOf(newest.lotId!);
    const expected = [0, 0, 0];
    expected[back] = 1;
    expect(await remaining()).toEqual(expected);

    const entries = await fecEntriesFor(db(), month(), ACCOUNTS);
    for (const entry of entries) expect(entry.lines.reduce((sum, l) => sum + l.cents, 0)).toBe(0);
    const marginVat = entries.flatMap((entry) => entry.lines).filter((l) => l.account === "44571" && l.label.endsWith("TVA sur la marge"));
    // The order that had cost 18 € (7,00 €) keeps 40 − 10 = 30 € (5,00 €); the one at 32 € keeps 40 − 20 = 20 € (3,33 €).
    const kept = newest.unitCostCents === 800 ? 500 : 333;
    expect(-marginVat.reduce((sum, l) => sum + l.cents, 0)).toBe(kept + (kept === 500 ? 467 : 700) + 133);
  });

  it("per period: the month's sales less its purchases, in one OD entry", async () => {
    await saveMarginVatMode(db(), "per_period");
    const entries = await fecEntriesFor(db(), month(), ACCOUNTS);
    for (const entry of entries) expect(entry.lines.reduce((sum, l) => sum + l.cents, 0)).toBe(0);
    const od = entries.filter((entry) => entry.journal === "OD");
    expect(od).toHaveLength(1);
    // Sales 160 € less the 20 € credit note, purchases 62 €: margin 78 €, VAT 13,00 €.
    expect(od[0]!.lines.map((l) => [l.account, l.cents])).toEqual([
      ["7073", 1_300],
      ["44571", -1_300],
    ]);
    expect(entries.flatMap((entry) => entry.lines).some((l) => l.label.includes(MARGIN_VAT_FLAG))).toBe(false);
    expect((await marginVatSummary(db(), month())).vatCents).toBe(1_300);
  });
});
