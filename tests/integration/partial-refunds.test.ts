import { randomUUID } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { invoices, orderRefunds, orders, outboxEmails, products, rateLimits } from "~/db/schema";
import type { InvoiceSnapshot } from "~/domain/invoice";
import { ledgerEntries } from "~/services/accounting-export.server";
import { parisWallClock } from "~/domain/paris-time";
import { getAdminOrder, refundPartOfAdminOrder, cancelAndRefundOrder } from "~/services/admin-orders.server";
import { type CheckoutContext, startCheckout } from "~/services/checkout.server";
import { handlePaymentEvent } from "~/services/payment-webhooks.server";
import { retryPendingPartialRefunds } from "~/services/partial-refunds.server";
import { createStripeProvider } from "~/services/payments/stripe.server";
import type { PaymentEvent, PaymentProvider } from "~/services/payments/types";
import { createUserWithPassword } from "~/services/users.server";
import { type FakeStripe, startFakeStripe } from "../support/fake-stripe-server";
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
const address = { method: "home" as const, fullName: "Marie Curie", line1: "12 rue des Lilas", postalCode: "75011", city: "Paris", country: "FR" };

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
  async function paidOrder(intent: string) {
    const booster = await product({ priceCents: 650 });
    const manga = await product({ title: `One Piece – Tome ${++n}`, priceCents: 715, category: "Gaming & Mangas", subCategory: "Manga" });
    const started = await startCheckout(db(), stripe, { items: [{ productId: booster.id, quantity: 3 }, { productId: manga.id, quantity: 1 }], insuranceSelected: false, email: "marie@example.com" }, ctx());
    if (started.status !== 200) throw new Error(`checkout refused: ${JSON.stringify(started.body)}`);
    const order = await orderOf(started.body.orderNumber);
    const paid: PaymentEvent = {
      id: `evt_${order.id}`,
      type: "session.completed",
      sessionId: order.providerSessionId,
      paid: true,
      paymentReference: intent,
      customerEmail: "marie@example.com",
      customerName: "Marie Curie",
      shippingAddress: address,
      amountTotalCents: order.totalCents,
    };
    expect(await handlePaymentEvent(db(), stripe, paid, deps)).toBe("paid");
    const detail = (await getAdminOrder(db(), order.number))!;
    const line = (name: string) => detail.refundable.lines.find((candidate) => candidate.name === name)!;
    return { order: await orderOf(order.number), booster, manga, boosterLine: line(booster.title), mangaLine: line(manga.title) };
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

  it("refunds in three steps, each through Stripe with its amount and key, a partial credit note and an e-mail; together they are the invoice, rate by rate", async () => {
    const { order, booster, boosterLine, mangaLine } = await paidOrder("pi_partial_1");
    expect(order.shippingCents).toBeGreaterThan(0);
    const stockBefore = await stockOf(booster.id);
    const [invoice] = await documentsOf(order.id, "invoice");
    const invoiceSnapshot = invoice!.snapshot as InvoiceSnapshot;

    // 1. One booster of three, back in stock: a third of the line's net (no discount here: 6,50 €).
    const first = await refundPartOfAdminOrder(db(), stripe, order.number, form({ [`qty:${boosterLine.id}`]: "1", [`restock:${boosterLine.id}`]: "on" }), adminId, deps);
    expect(first).toMatchObject({ ok: true, status: 200, title: "Remboursement effectué" });
    expect(await stockOf(booster.id)).toBe(stockBefore + 1);
    let refunds = await refundsOf(order.id);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ status: "refunded", amountCents: 650, closesOrder: false });
    expect(refunds[0]!.vatBreakdown).toEqual([{ rateBp: 2000, baseCents: 542, vatCents: 108, totalCents: 650 }]);
    expect(stripeRefundsOf("pi_partial_1")).toEqual([expect.objectContaining({ amount: 650, status: "succeeded" })]);
    const firstRequest = fake.requests.filter((request) => request.path === "/v1/refunds").at(-1)!;
    expect(firstRequest.headers["idempotency-key"]).toBe(`refund:${order.id}:${refunds[0]!.id}`);
    expect(firstRequest.body).toEqual({ payment_intent: "pi_partial_1", amount: "650" });
    expect(refunds[0]!.providerRefundId).toBe(stripeRefundsOf("pi_partial_1")[0]!.id);
    let notes = await documentsOf(order.id, "credit_note");
    expect(notes).toHaveLength(1);
    const firstNote = notes[0]!.snapshot as InvoiceSnapshot;
    expect(firstNote).toMatchObject({ kind: "credit_note", partial: true, cancelsInvoice: invoice!.number, totals: { inclVatCents: -650, vatCents: -108, exclVatCents: -542, marginSchemeCents: 0 } });
    expect(firstNote.lines).toEqual([expect.objectContaining({ name: booster.title, quantity: 1, totalCents: -650, vatRateBp: 2000, totalExclVatCents: -542 })]);
    expect(firstNote.mentions.some((mention) => mention.startsWith(`Avoir partiel sur la facture ${invoice!.number}`))).toBe(true);
    expect(refunds[0]!.creditNoteNumber).toBe(notes[0]!.number);
    expect((await orderOf(order.number)).status).toBe("paid");

    // 2. The delivery only, not restocked: its parts by rate follow the goods'.
    const delivery = (order.shippingCents / 100).toFixed(2).replace(".", ",");
    expect(await refundPartOfAdminOrder(db(), stripe, order.number, form({ shipping: delivery }), adminId, deps)).toMatchObject({ ok: true });
    refunds = await refundsOf(order.id);
    expect(refunds[1]).toMatchObject({ status: "refunded", amountCents: order.shippingCents, shippingCents: order.shippingCents, closesOrder: false });
    expect(await stockOf(booster.id)).toBe(stockBefore + 1);

    // More than what is left: refused, nothing written, nothing asked of Stripe.
    const stripeCalls = fake.requests.filter((request) => request.path === "/v1/refunds").length;
    const tooMany = await refundPartOfAdminOrder(db(), stripe, order.number, form({ [`qty:${boosterLine.id}`]: "3" }), adminId, deps);
    expect(tooMany).toMatchObject({ ok: false, status: 400, message: `Quantité trop élevée pour « ${booster.title} » : 2 au plus restent à rembourser.` });
    const moreDelivery = await refundPartOfAdminOrder(db(), stripe, order.number, form({ shipping: "0,01" }), adminId, deps);
    expect(moreDelivery).toMatchObject({ ok: false, status: 400, message: "La livraison : 0,00\u00a0€ au plus reste à rembourser." });
    const badAmount = await refundPartOfAdminOrder(db(), stripe, order.number, form({ shipping: "douze" }), adminId, deps);
    expect(badAmount).toMatchObject({ ok: false, status: 400, fieldErrors: { shipping: "Montant invalide (par exemple 4,90)." } });
    expect(await refundsOf(order.id)).toHaveLength(2);
    expect(fake.requests.filter((request) => request.path === "/v1/refunds")).toHaveLength(stripeCalls);

    // 3. The rest: two boosters and the manga, the goods' whole value, which closes the order.
    const third = await refundPartOfAdminOrder(db(), stripe, order.number, form({ [`qty:${boosterLine.id}`]: "2", [`qty:${mangaLine.id}`]: "1", [`restock:${mangaLine.id}`]: "on" }), adminId, deps);
    expect(third).toMatchObject({ ok: true, title: "Commande remboursée" });
    refunds = await refundsOf(order.id);
    expect(refunds.map((refund) => refund.closesOrder)).toEqual([false, false, true]);
    expect(refunds.reduce((sum, refund) => sum + refund.amountCents, 0)).toBe(order.totalCents);
    const after = await orderOf(order.number);
    expect(after).toMatchObject({ status: "refunded", refundReference: refunds[2]!.providerRefundId });
    expect(stripeRefundsOf("pi_partial_1").map((refund) => refund.amount)).toEqual(refunds.map((refund) => refund.amountCents));

    // The three credit notes: one sequence, dates in order, and together the invoice negated, rate by rate.
    notes = await documentsOf(order.id, "credit_note");
    expect(notes).toHaveLength(3);
    expect(notes.map((note) => note.sequence)).toEqual([notes[0]!.sequence, notes[0]!.sequence + 1, notes[0]!.sequence + 2]);
    expect(notes.reduce((sum, note) => sum + note.totalCents, 0)).toBe(-order.totalCents);
    for (const row of invoiceSnapshot.vatBreakdown) {
      const credited = notes.flatMap((note) => (note.snapshot as InvoiceSnapshot).vatBreakdown.filter((r) => r.rateBp === row.rateBp));
      expect({ rate: row.rateBp, base: credited.reduce((s, r) => s + r.baseCents, 0), vat: credited.reduce((s, r) => s + r.vatCents, 0), total: credited.reduce((s, r) => s + r.totalCents, 0) }).toEqual({
        rate: row.rateBp,
        base: -row.baseCents,
        vat: -row.vatCents,
        total: -row.totalCents,
      });
    }
    expect(invoiceSnapshot.vatBreakdown.map((row) => row.rateBp).sort()).toEqual([2000, 550].sort());

    // One e-mail per refund, each with its amount.
    const mails = await db().select().from(outboxEmails).where(and(eq(outboxEmails.kind, "partial-refund"), sql`${outboxEmails.subject} like ${`%${order.number}%`}`));
    expect(mails.map((mail) => mail.subject).sort()).toEqual(refunds.map((refund) => `Commande ${order.number} : remboursement de ${(refund.amountCents / 100).toFixed(2).replace(".", ",")}\u00a0€ – Comptoir`).sort());

    // The receipts book: the payment, then one refund line per refund, each with its own credit note, amount and VAT.
    const paidAt = after.paidAt!;
    const entries = (await ledgerEntries(db(), { year: parisWallClock(paidAt).year, month: null })).filter((entry) => entry.orderNumber === order.number);
    expect(entries.filter((entry) => entry.kind === "receipt").map((entry) => entry.totalCents)).toEqual([order.totalCents]);
    const refundLines = entries.filter((entry) => entry.kind === "refund").sort((a, b) => a.document.localeCompare(b.document));
    expect(refundLines.map((entry) => [entry.document, entry.totalCents, entry.reference])).toEqual(refunds.map((refund) => [refund.creditNoteNumber, -refund.amountCents, refund.providerRefundId]));
    expect(refundLines.map((entry) => entry.vat)).toEqual(refunds.map((refund) => refund.vatBreakdown.map((row) => ({ rateBp: row.rateBp, vatCents: -row.vatCents }))));

    // The order page lists them; nothing is left; the whole-order refund has nothing more to give.
    const detail = (await getAdminOrder(db(), order.number))!;
    expect(detail.refunds.map((refund) => refund.amountCents)).toEqual(refunds.map((refund) => refund.amountCents));
    expect(detail.refundable.totalCents).toBe(0);
    expect(await refundPartOfAdminOrder(db(), stripe, order.number, form({ [`qty:${mangaLine.id}`]: "1" }), adminId, deps)).toMatchObject({ ok: false, status: 409 });
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
