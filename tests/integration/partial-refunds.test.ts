import { randomUUID } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { invoices, orderRefunds, orders, outboxEmails, products, rateLimits } from "~/db/schema";
import type { InvoiceSnapshot } from "~/domain/invoice";
import { ledgerEntries } from "~/services/accounting-export.server";
import { parisWallClock } from "~/domain/paris-time";
import { getAdminOrder, refundPartOfAdminOrder, cancelAndRefundOrder } from "~/services/admin-orders.server";
import type { CheckoutContext } from "~/services/checkout.server";
import { checkoutAndPay } from "./paid-checkout";
import { retryPendingPartialRefunds } from "~/services/partial-refunds.server";
import { createStripeProvider } from "~/services/payments/stripe.server";
import type { PaymentProvider } from "~/services/payments/types";
import { createUserWithPassword } from "~/services/users.server";
import { type FakeStripe, startFakeStripe } from "../support/fake-stripe-server";
import { baseIncluded, expectedVatBreakdown, vatIncluded } from "../support/expected-vat";
import { databaseLabel, openTestDatabase } from "./test-database";

/**
 * Partial refunds (issue 51) on a real database, through the Stripe adapter against the fake
 * Stripe server: an order of boosters at 20 % and a manga at 5,5 % refunded in three steps (one
 * booster put back in stock, then the delivery, then the rest with a goodwill amount), each a
 * Stripe refund of its own amount under its own key, a partial credit note from the credit notes'
 * sequence and an e-mail; the three add up to the invoice, rate by rate. Then what must not
 * happen: more than what is left, the same form twice, a Stripe outage.
 */
const deps = { shop: { name: "Comptoir", email: "contact@comptoir.example", publicUrl: "https://comptoir.example" }, sellerEmail: "vendeur@comptoir.example" };

describe(`partial refunds on ${databaseLabel}`, () => {
  let database: Database;
  let fake: FakeStripe;
  let stripe: PaymentProvider;
  let adminId: string;
  let n = 0;
  const db = () => database.db;
  const ctx = (): CheckoutContext => ({ now: new Date(), customer: null, clientIp: `198.51.100.${++n % 250}`, orderPrefix: "CPT", origin: "http://shop.test", reservationMinutes: 45 });
  const orderOf = async (number: string) => (await db().select().from(orders).where(eq(orders.number, number)))[0]!;
  const stockOf = async (id: number) => (await db().select({ stock: products.stock }).from(products).where(eq(products.id, id)))[0]!.stock;
  const refundsOf = (orderId: string) => db().select().from(orderRefunds).where(eq(orderRefunds.orderId, orderId)).orderBy(asc(orderRefunds.seq));
  const documentsOf = (orderId: string, kind: "invoice" | "credit_note") =>
    db().select().from(invoices).where(and(eq(invoices.orderId, orderId), eq(invoices.kind, kind))).orderBy(asc(invoices.sequence));
  const stripeRefundsOf = (intent: string) => fake.refunds.filter((refund) => refund.payment_intent === intent);

  async function product(values: Partial<typeof products.$inferInsert>) {
    const [row] = await db().insert(products).values({ title: `Booster test ${++n}`, priceCents: 600, stock: 10, category: "TCG", subCategory: "Scellés", ...values }).returning();
    return row!;
  }

  /** A real checkout through the Stripe adapter, paid through the webhook path. */
  async function paidOrder(intent: string, options: { display?: boolean } = {}) {
    const booster = await product({ priceCents: 650 });
    const manga = await product({ title: `One Piece – Tome ${++n}`, priceCents: 715, category: "Gaming & Mangas", subCategory: "Manga" });
    const display = options.display ? [{ productId: (await product({ title: `Display test ${++n}`, priceCents: 4_990 })).id, quantity: 1 }] : [];
    const order = await checkoutAndPay(db(), stripe, [{ productId: booster.id, quantity: 3 }, { productId: manga.id, quantity: 1 }, ...display], { ctx: ctx(), deps, intent });
    const detail = (await getAdminOrder(db(), order.number))!;
    const line = (name: string) => detail.refundable.lines.find((candidate) => candidate.name === name)!;
    return { order, booster, manga, boosterLine: line(booster.title), mangaLine: line(manga.title) };
  }

  const form = (fields: Record<string, string>) => ({ intent: "partial-refund", requestKey: randomUUID(), ...fields });

  beforeAll(async () => {
    database = await openTestDatabase();
    fake = await startFakeStripe();
    stripe = createStripeProvider({ secretKey: "sk_test_comptoir", webhookSecret: "whsec_test", apiBase: fake.url });
    ({ id: adminId } = await createUserWithPassword(database.db, { email: "chef@comptoir.test", password: "chef-mot-de-passe-2026", name: "Chef", role: "admin", emailVerified: true }));
  });
  afterAll(async () => {
    fake.close();
    await database.close();
  });
  beforeEach(async () => {
    await db().delete(rateLimits);
    fake.failNext(500, 0);
  });

  it("refunds an order of three lines at two rates plus delivery in three steps (one line, then a deduction, then the rest), each credit note as the test computes it; a fourth is refused", async () => {
    const { order, booster, manga, boosterLine, mangaLine } = await paidOrder("pi_partial_1", { display: true });
    expect(order.shippingCents).toBeGreaterThan(0);
    const displayLine = (await getAdminOrder(db(), order.number))!.refundable.lines.find((line) => line.name.startsWith("Display test"))!;
    const boosterStock = await stockOf(booster.id);
    const mangaStock = await stockOf(manga.id);
    const [invoice] = await documentsOf(order.id, "invoice");
    const invoiceSnapshot = invoice!.snapshot as InvoiceSnapshot;
    // The invoice, as the test computes it: 3 × 6,50 € and 49,90 € at 20 %, 7,15 € at 5,5 %, the delivery over both.
    const invoiceRows = expectedVatBreakdown([{ totalCents: 1_950, rateBp: 2000 }, { totalCents: 4_990, rateBp: 2000 }, { totalCents: 715, rateBp: 550 }], order.shippingCents);
    expect(invoiceSnapshot.vatBreakdown).toEqual(invoiceRows);
    const row = (rateBp: number, totalCents: number) => ({ rateBp, baseCents: baseIncluded(totalCents, rateBp), vatCents: vatIncluded(totalCents, rateBp), totalCents });
    const negated = (rows: readonly { rateBp: number; baseCents: number; vatCents: number; totalCents: number }[]) => rows.map((r) => ({ rateBp: r.rateBp, baseCents: -r.baseCents, vatCents: -r.vatCents, totalCents: -r.totalCents }));
    const stripeCalls = () => fake.requests.filter((request) => request.path === "/v1/refunds").length;

    // 1. One line: the manga, back in stock.
    const first = await refundPartOfAdminOrder(db(), stripe, order.number, form({ [`qty:${mangaLine.id}`]: "1", [`restock:${mangaLine.id}`]: "on" }), adminId, deps);
    expect(first).toMatchObject({ ok: true, status: 200, title: "Remboursement effectué" });
    expect(await stockOf(manga.id)).toBe(mangaStock + 1);
    let refunds = await refundsOf(order.id);
    expect(refunds[0]).toMatchObject({ status: "refunded", amountCents: 715, closesOrder: false });
    expect(refunds[0]!.vatBreakdown).toEqual([row(550, 715)]);
    const firstRequest = fake.requests.filter((request) => request.path === "/v1/refunds").at(-1)!;
    expect(firstRequest.headers["idempotency-key"]).toBe(`refund:${order.id}:${refunds[0]!.id}`);
    expect(firstRequest.body).toEqual({ payment_intent: "pi_partial_1", amount: "715" });
    expect(refunds[0]!.providerRefundId).toBe(stripeRefundsOf("pi_partial_1")[0]!.id);
    let notes = await documentsOf(order.id, "credit_note");
    expect(notes).toHaveLength(1);
    const firstNote = notes[0]!.snapshot as InvoiceSnapshot;
    expect(firstNote).toMatchObject({ kind: "credit_note", partial: true, cancelsInvoice: invoice!.number });
    expect(firstNote.vatBreakdown).toEqual(negated([row(550, 715)]));
    expect(firstNote.totals).toEqual({ inclVatCents: -715, vatCents: -vatIncluded(715, 550), exclVatCents: -baseIncluded(715, 550), marginSchemeCents: 0 });
    expect(firstNote.lines).toEqual([expect.objectContaining({ name: manga.title, quantity: 1, totalCents: -715, vatRateBp: 550, totalExclVatCents: -baseIncluded(715, 550) })]);
    expect(firstNote.mentions.some((mention) => mention.startsWith(`Avoir partiel sur la facture ${invoice!.number}`))).toBe(true);
    expect(refunds[0]!.creditNoteNumber).toBe(notes[0]!.number);
    expect((await orderOf(order.number)).status).toBe("paid");

    // 2. Two boosters come back, one with a bent corner: 13,00 € less a 1,50 € deduction, not restocked.
    const second = await refundPartOfAdminOrder(
      db(),
      stripe,
      order.number,
      form({ [`qty:${boosterLine.id}`]: "2", adjustmentKind: "depreciation", adjustmentAmount: "1,50", reason: "Coin plié" }),
      adminId,
      deps,
    );
    expect(second).toMatchObject({ ok: true });
    refunds = await refundsOf(order.id);
    expect(refunds[1]).toMatchObject({ status: "refunded", amountCents: 1_150, adjustmentKind: "depreciation", adjustmentCents: -150, closesOrder: false });
    expect(refunds[1]!.vatBreakdown).toEqual([row(2000, 1_150)]);
    notes = await documentsOf(order.id, "credit_note");
    const secondNote = notes[1]!.snapshot as InvoiceSnapshot;
    expect(secondNote.vatBreakdown).toEqual(negated([row(2000, 1_150)]));
    expect(secondNote.charges).toEqual([expect.objectContaining({ label: "Déduction pour dépréciation : Coin plié", totalCents: 150 })]);
    expect(await stockOf(booster.id)).toBe(boosterStock);

    // More than what is left: refused, nothing written, nothing asked of Stripe.
    const calls = stripeCalls();
    const tooMany = await refundPartOfAdminOrder(db(), stripe, order.number, form({ [`qty:${boosterLine.id}`]: "2" }), adminId, deps);
    expect(tooMany).toMatchObject({ ok: false, status: 400, message: `Quantité trop élevée pour « ${booster.title} » : 1 au plus reste à rembourser.` });
    const moreDelivery = await refundPartOfAdminOrder(db(), stripe, order.number, form({ shipping: "100" }), adminId, deps);
    expect(moreDelivery).toMatchObject({ ok: false, status: 400 });
    const badAmount = await refundPartOfAdminOrder(db(), stripe, order.number, form({ shipping: "douze" }), adminId, deps);
    expect(badAmount).toMatchObject({ ok: false, status: 400, fieldErrors: { shipping: "Montant invalide (par exemple 4,90)." } });
    expect(await refundsOf(order.id)).toHaveLength(2);
    expect(stripeCalls()).toBe(calls);

    // 3. The rest: the last booster, the display, the delivery and, after all, the 1,50 € kept:
    // it closes the order at what is left of each rate.
    const delivery = (order.shippingCents / 100).toFixed(2).replace(".", ",");
    const third = await refundPartOfAdminOrder(
      db(),
      stripe,
      order.number,
      form({ [`qty:${boosterLine.id}`]: "1", [`qty:${displayLine.id}`]: "1", shipping: delivery, adjustmentKind: "goodwill", adjustmentAmount: "1,50", reason: "Déduction rendue" }),
      adminId,
      deps,
    );
    expect(third).toMatchObject({ ok: true, title: "Commande remboursée" });
    refunds = await refundsOf(order.id);
    const restCents = order.totalCents - 715 - 1_150;
    expect(refunds[2]).toMatchObject({ amountCents: restCents, closesOrder: true });
    // What is left of each rate, as the test computes it: the invoice's rows less the first two refunds'.
    const at20 = invoiceRows.find((r) => r.rateBp === 2000)!;
    const at55 = invoiceRows.find((r) => r.rateBp === 550)!;
    const given20 = row(2000, 1_150);
    const given55 = row(550, 715);
    const expectedRest = [
      { rateBp: 2000, baseCents: at20.baseCents - given20.baseCents, vatCents: at20.vatCents - given20.vatCents, totalCents: at20.totalCents - given20.totalCents },
      { rateBp: 550, baseCents: at55.baseCents - given55.baseCents, vatCents: at55.vatCents - given55.vatCents, totalCents: at55.totalCents - given55.totalCents },
    ].filter((r) => r.totalCents !== 0 || r.baseCents !== 0 || r.vatCents !== 0);
    expect(refunds[2]!.vatBreakdown).toEqual(expectedRest);
    expect(refunds.reduce((sum, refund) => sum + refund.amountCents, 0)).toBe(order.totalCents);
    const after = await orderOf(order.number);
    expect(after).toMatchObject({ status: "refunded", refundReference: refunds[2]!.providerRefundId });
    expect(stripeRefundsOf("pi_partial_1").map((refund) => refund.amount)).toEqual(refunds.map((refund) => refund.amountCents));

    // The three credit notes: one sequence, together the order's refunds, rate by rate.
    notes = await documentsOf(order.id, "credit_note");
    expect(notes).toHaveLength(3);
    expect(notes.map((note) => note.sequence)).toEqual([notes[0]!.sequence, notes[0]!.sequence + 1, notes[0]!.sequence + 2]);
    expect(notes.map((note) => note.totalCents)).toEqual([-715, -1_150, -restCents]);
    expect((notes[2]!.snapshot as InvoiceSnapshot).vatBreakdown).toEqual(negated(expectedRest));

    // One e-mail per refund, each with its amount.
    const mails = await db().select().from(outboxEmails).where(and(eq(outboxEmails.kind, "partial-refund"), sql`${outboxEmails.subject} like ${`%${order.number}%`}`));
    expect(mails.map((mail) => mail.subject).sort()).toEqual(refunds.map((refund) => `Commande ${order.number} : remboursement de ${(refund.amountCents / 100).toFixed(2).replace(".", ",")}\u00a0€ – Comptoir`).sort());

    // The receipts book: the payment, then one refund line per refund, each with its own credit note, amount and VAT.
    const paidAt = after.paidAt!;
    const entries = (await ledgerEntries(db(), { year: parisWallClock(paidAt).year, month: null })).filter((entry) => entry.orderNumber === order.number);
    expect(entries.filter((entry) => entry.kind === "receipt").map((entry) => entry.totalCents)).toEqual([order.totalCents]);
    const refundLines = entries.filter((entry) => entry.kind === "refund").sort((x, y) => x.document.localeCompare(y.document));
    expect(refundLines.map((entry) => [entry.document, entry.totalCents, entry.reference])).toEqual(refunds.map((refund) => [refund.creditNoteNumber, -refund.amountCents, refund.providerRefundId]));
    expect(refundLines.map((entry) => entry.vat)).toEqual(refunds.map((refund) => refund.vatBreakdown.map((r) => ({ rateBp: r.rateBp, vatCents: -r.vatCents }))));

    // The order page lists them; nothing is left; a fourth refund is refused.
    const detail = (await getAdminOrder(db(), order.number))!;
    expect(detail.refunds.map((refund) => refund.amountCents)).toEqual(refunds.map((refund) => refund.amountCents));
    expect(detail.refundable.totalCents).toBe(0);
    expect(await refundPartOfAdminOrder(db(), stripe, order.number, form({ adjustmentKind: "goodwill", adjustmentAmount: "1", reason: "Encore" }), adminId, deps)).toMatchObject({ ok: false, status: 409 });
    expect(stripeRefundsOf("pi_partial_1")).toHaveLength(3);
  });

  it("the same form sent twice is one refund; a goodwill amount needs its reason; a deduction is taken from the articles", async () => {
    const { order, boosterLine } = await paidOrder("pi_partial_2");
    const once = form({ [`qty:${boosterLine.id}`]: "1", adjustmentKind: "depreciation", adjustmentAmount: "1,50", reason: "Coin plié" });
    const [a, b] = await Promise.all([refundPartOfAdminOrder(db(), stripe, order.number, once, adminId, deps), refundPartOfAdminOrder(db(), stripe, order.number, once, adminId, deps)]);
    expect([a.ok, b.ok]).toEqual([true, true]);
    const refunds = await refundsOf(order.id);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ amountCents: 500, adjustmentKind: "depreciation", adjustmentCents: -150, reason: "Coin plié" });
    expect(stripeRefundsOf("pi_partial_2")).toEqual([expect.objectContaining({ amount: 500 })]);
    expect(await documentsOf(order.id, "credit_note")).toHaveLength(1);

    const noReason = await refundPartOfAdminOrder(db(), stripe, order.number, form({ adjustmentKind: "goodwill", adjustmentAmount: "5" }), adminId, deps);
    expect(noReason).toMatchObject({ status: 400, fieldErrors: { reason: "Indiquez le motif du geste commercial." } });
    const goodwill = await refundPartOfAdminOrder(db(), stripe, order.number, form({ adjustmentKind: "goodwill", adjustmentAmount: "5", reason: "Retard de livraison" }), adminId, deps);
    expect(goodwill).toMatchObject({ ok: true });
    expect((await refundsOf(order.id))[1]).toMatchObject({ amountCents: 500, adjustmentKind: "goodwill", adjustmentCents: 500 });

    // Cancelling now gives back exactly what is left and puts back only the units not refunded.
    const left = order.totalCents - 1_000;
    expect(await cancelAndRefundOrder(db(), stripe, order.number, adminId, deps)).toMatchObject({ ok: true });
    const all = await refundsOf(order.id);
    expect(all[2]).toMatchObject({ requestKey: "whole", amountCents: left, closesOrder: true, status: "refunded" });
    expect(stripeRefundsOf("pi_partial_2").map((refund) => refund.amount)).toEqual([500, 500, left]);
    expect((await orderOf(order.number)).status).toBe("refunded");
    const notes = await documentsOf(order.id, "credit_note");
    expect(notes.reduce((sum, note) => sum + note.totalCents, 0)).toBe(-order.totalCents);
  });

  it("a Stripe outage leaves the refund pending; the sweeper finishes it with the same key, once", async () => {
    const { order, boosterLine } = await paidOrder("pi_partial_3");
    fake.failNext(500, 3); // the first try and the SDK's two retries
    const failed = await refundPartOfAdminOrder(db(), stripe, order.number, form({ [`qty:${boosterLine.id}`]: "2" }), adminId, deps);
    expect(failed).toMatchObject({ ok: false, status: 502 });
    const [pending] = await refundsOf(order.id);
    expect(pending).toMatchObject({ status: "pending", amountCents: 1_300 });
    expect(stripeRefundsOf("pi_partial_3")).toHaveLength(0);
    // What is pending counts as given: no second refund of the same units meanwhile.
    expect(await refundPartOfAdminOrder(db(), stripe, order.number, form({ [`qty:${boosterLine.id}`]: "2" }), adminId, deps)).toMatchObject({ status: 400 });

    expect(await retryPendingPartialRefunds(db(), stripe, deps)).toBeGreaterThanOrEqual(1);
    expect(await retryPendingPartialRefunds(db(), stripe, deps)).toBe(0);
    expect((await refundsOf(order.id))[0]).toMatchObject({ status: "refunded" });
    expect(stripeRefundsOf("pi_partial_3")).toEqual([expect.objectContaining({ amount: 1_300 })]);
    const keys = fake.requests.filter((request) => request.path === "/v1/refunds" && request.body.payment_intent === "pi_partial_3").map((request) => request.headers["idempotency-key"]);
    expect(new Set(keys)).toEqual(new Set([`refund:${order.id}:${pending!.id}`]));
  });
});
