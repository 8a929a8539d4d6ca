import { and, asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { orderEvents, orderRefunds, orders, outboxEmails, preorderAllocationOrders, preorderAllocations, products, rateLimits } from "~/db/schema";
import type { CheckoutContext } from "~/services/checkout.server";
import { createStripeProvider } from "~/services/payments/stripe.server";
import type { PaymentProvider } from "~/services/payments/types";
import { applyAllocation, preorderProductView, preordersToAllocate, previewProductAllocation, replayAllocation, submitAllocationForm } from "~/services/preorder-allocations.server";
import { type FakeStripe, startFakeStripe } from "../support/fake-stripe-server";
import { HOME_ADDRESS, checkoutAndPay } from "./paid-checkout";
import { insertPreorderProduct } from "./preorder-products";
import { databaseLabel, openTestDatabase } from "./test-database";

/**
 * Applying a pre-order allocation (issue 55, decision 061) on a real database, the refunds going
 * through the Stripe adapter against the fake Stripe server: 120 paid pre-orders (some of 2 or 3
 * units) cut to 50 units received, each refunded buyer refunded once (credit note, Stripe refund)
 * and e-mailed once; the draw replayed from its recorded seed; applied twice, or twice at once,
 * it allocates once.
 */
const DAY = 86_400_000;
// Checkouts run on the real clock: the release a week ahead, the allocation the day after it.
const releaseOn = new Date(Date.now() + 7 * DAY).toISOString().slice(0, 10);
const afterRelease = new Date(Date.now() + 9 * DAY);
const deps = { shop: { name: "Comptoir", email: "contact@comptoir.example", publicUrl: "https://comptoir.example" }, sellerEmail: "vendeur@comptoir.example", now: () => afterRelease };
const PRICE = 12_000;

describe(`pre-order allocation on ${databaseLabel}`, () => {
  let database: Database;
  let fake: FakeStripe;
  let stripe: PaymentProvider;
  let n = 0;
  const db = () => database.db;
  const ctx = (): CheckoutContext => ({ now: new Date(), customer: null, clientIp: `198.51.100.${++n % 250}`, orderPrefix: "CPT", origin: "http://shop.test", reservationMinutes: 30 });

  const preorderProduct = (perCustomerLimit = 3) => insertPreorderProduct(db(), { title: `Display Évolutions ${++n}`, priceCents: PRICE }, { releaseOn, quantity: 1_000, perCustomerLimit });

  /** `units[i]` units pre-ordered and paid by buyer i (own e-mail, own address): the orders in placement order. */
  async function paidPreorders(productId: number, units: number[], tag: string) {
    const placed = [];
    for (const [i, quantity] of units.entries()) {
      const email = `${tag}${i}@exemple.fr`;
      const address = { ...HOME_ADDRESS, fullName: `Client ${tag} ${i}`, line1: `${i + 1} rue des Précommandes` };
      placed.push(await checkoutAndPay(db(), stripe, [{ productId, quantity }], { ctx: ctx(), deps: { ...deps, now: undefined }, intent: `pi_${tag}_${i}`, email, name: address.fullName, address }));
    }
    return placed;
  }

  const stockOf = async (id: number) => (await db().select({ stock: products.stock }).from(products).where(eq(products.id, id)))[0]!.stock;
  const sharesOf = (allocationId: string) => db().select().from(preorderAllocationOrders).where(eq(preorderAllocationOrders.allocationId, allocationId));
  const refundsOf = (orderIds: string[]) => db().select().from(orderRefunds).where(inArray(orderRefunds.orderId, orderIds)).orderBy(asc(orderRefunds.seq));
  /** The allocation's e-mails to these buyers: the confirmation of the ones served in full, the apology of the others. */
  const outcomeMailsTo = (emails: string[]) =>
    db()
      .select({ to: outboxEmails.to, kind: outboxEmails.kind, subject: outboxEmails.subject, text: outboxEmails.text })
      .from(outboxEmails)
      .where(and(inArray(outboxEmails.to, emails), inArray(outboxEmails.kind, ["preorder-served", "preorder-shortage-refund", "preorder-partial-refund", "partial-refund"])));
  const apologiesTo = async (emails: string[]) => (await outcomeMailsTo(emails)).filter((email) => email.kind !== "preorder-served");

  beforeAll(async () => {
    database = await openTestDatabase();
    fake = await startFakeStripe();
    stripe = createStripeProvider({ secretKey: "sk_test_comptoir", webhookSecret: "whsec_test", apiBase: fake.url });
  });
  afterAll(async () => {
    fake.close();
    await database.close();
  });
  beforeEach(async () => {
    await db().delete(rateLimits);
  });

  it("cuts 120 pre-orders (some of 2–3 units) to 50 units by a draw: 50 allocated, every other buyer refunded once and e-mailed once, the draw replayed from its seed; applied again, nothing more", { timeout: 600_000 }, async () => {
    const productId = await preorderProduct();
    const units = Array.from({ length: 120 }, (_, i) => (i % 10 === 0 ? 3 : i % 7 === 0 ? 2 : 1));
    const placed = await paidPreorders(productId, units, "tirage");
    const orderedUnits = units.reduce((a, b) => a + b, 0);

    // Still open the day before its release: refused, nothing written.
    const early = await applyAllocation(db(), stripe, { productId, choice: { received: 50, rule: "order", seed: null }, actorId: null }, { ...deps, now: () => new Date() });
    expect(early).toMatchObject({ outcome: "refused", status: 409 });
    expect(await preordersToAllocate(db(), afterRelease)).toBeGreaterThanOrEqual(1);

    const preview = await previewProductAllocation(db(), productId, { received: 50, rule: "draw" }, afterRelease);
    if (preview.outcome !== "preview") throw new Error(preview.message);
    const { seed } = preview.allocation;
    expect(seed).toMatch(/^[0-9a-f]{64}$/);
    const applied = await applyAllocation(db(), stripe, { productId, choice: { received: 50, rule: "draw", seed }, actorId: null }, deps);
    if (applied.outcome === "refused") throw new Error(applied.message);
    expect(applied.outcome).toBe("applied");
    expect(applied.allocation).toMatchObject({ unitsReceived: 50, unitsAllocated: 50, unitsToStock: 0, rule: "draw", seed });

    const shares = await sharesOf(applied.allocation.id);
    expect(shares).toHaveLength(120);
    expect(shares.reduce((sum, share) => sum + share.allocated, 0)).toBe(50);
    expect(shares.reduce((sum, share) => sum + share.refunded, 0)).toBe(orderedUnits - 50);
    // What was applied is what was previewed, and the seed alone gives it back.
    const byOrder = (rows: { orderId: string; allocated: number }[]) => Object.fromEntries(rows.map((row) => [row.orderId, row.allocated]));
    expect(byOrder(shares)).toEqual(byOrder(preview.allocation.orders));
    expect(byOrder((await replayAllocation(db(), applied.allocation)).orders)).toEqual(byOrder(shares));
    // Another seed draws another cut (the seed decides, not the order of the rows).
    const replayed = await replayAllocation(db(), { ...applied.allocation, seed: "0".repeat(64) });
    expect(replayed.allocated).toBe(50);
    expect(byOrder(replayed.orders)).not.toEqual(byOrder(shares));
    // One unit per customer per round: 50 customers served one unit, nobody two.
    expect(shares.filter((share) => share.allocated === 1)).toHaveLength(50);

    const refundedIds = shares.filter((share) => share.refunded > 0).map((share) => share.orderId);
    expect(applied.refunds).toEqual({ refunded: refundedIds.length, failed: 0 });
    const refunds = await refundsOf(placed.map((order) => order.id));
    // Once each, a credit note each, the Stripe refund of its own payment for its amount.
    expect(refunds.map((refund) => refund.orderId).sort()).toEqual([...refundedIds].sort());
    for (const refund of refunds) {
      const order = placed.find((candidate) => candidate.id === refund.orderId)!;
      const share = shares.find((candidate) => candidate.orderId === refund.orderId)!;
      expect(refund).toMatchObject({ status: "refunded", creditNoteNumber: expect.any(String) });
      // Served nothing: the whole order, delivery included; else the missing units only.
      expect(refund.amountCents).toBe(share.allocated === 0 ? order.totalCents : share.refunded * PRICE);
      expect(fake.refunds.filter((stripeRefund) => stripeRefund.payment_intent === order.paymentReference)).toEqual([expect.objectContaining({ amount: refund.amountCents, id: refund.providerRefundId })]);
    }
    const after = await db().select({ id: orders.id, status: orders.status, refundReason: orders.refundReason }).from(orders).where(inArray(orders.id, placed.map((order) => order.id)));
    for (const order of after) {
      const share = shares.find((candidate) => candidate.orderId === order.id)!;
      // Served (in part or whole): still paid, ready to ship; served nothing: refunded for the shortage.
      expect(order).toMatchObject(share.allocated > 0 ? { status: "paid" } : { status: "refunded", refundReason: "preorder_shortage" });
    }
    // Every refunded buyer e-mailed once, with the apology and its reason; the others not at all.
    const emailOf = new Map(placed.map((order, i) => [order.id, `tirage${i}@exemple.fr`]));
    const refundedEmails = refundedIds.map((id) => emailOf.get(id)!);
    const apologies = await apologiesTo([...emailOf.values()]);
    expect(apologies.map((email) => email.to).sort()).toEqual([...refundedEmails].sort());
    for (const email of apologies) {
      expect(email.kind).not.toBe("partial-refund");
      expect(email.subject).toContain("précommande");
      expect(email.text).toContain("Toutes nos excuses");
      expect(email.text).toContain("Le distributeur ne nous a livré qu'une partie des exemplaires");
    }
    // The buyers served in full hear it too: every one of the 120 buyers e-mailed exactly once.
    const outcomes = await outcomeMailsTo([...emailOf.values()]);
    expect(outcomes.map((email) => email.to).sort()).toEqual([...emailOf.values()].sort());
    for (const email of outcomes.filter((mail) => mail.kind === "preorder-served")) {
      expect(email.subject).toContain("votre précommande est confirmée");
      expect(email.text).toContain("est servie en entier (1 exemplaire(s))");
    }
    expect(await db().select().from(orderEvents).where(and(inArray(orderEvents.orderId, placed.map((order) => order.id)), eq(orderEvents.type, "preorder_allocated")))).toHaveLength(120);
    expect(await preordersToAllocate(db(), afterRelease)).toBe(0);

    // Applied again (with another choice even): the first allocation, nothing refunded or sent again.
    const stripeRefunds = fake.refunds.length;
    const again = await applyAllocation(db(), stripe, { productId, choice: { received: 80, rule: "order", seed: null }, actorId: null }, deps);
    expect(again).toMatchObject({ outcome: "already", allocation: { id: applied.allocation.id, unitsAllocated: 50 }, refunds: { refunded: refundedIds.length, failed: 0 } });
    expect(fake.refunds.length).toBe(stripeRefunds);
    expect(await refundsOf(placed.map((order) => order.id))).toHaveLength(refunds.length);
    expect(await outcomeMailsTo([...emailOf.values()])).toHaveLength(120);
    expect(await stockOf(productId)).toBe(0);
    expect(await db().select().from(preorderAllocations).where(eq(preorderAllocations.productId, productId))).toHaveLength(1);

    // The seller's page: each pre-order's share, and the refunds issued.
    const view = (await preorderProductView(db(), productId))!;
    expect(view.preorders.reduce((sum, line) => sum + (line.allocated ?? 0), 0)).toBe(50);
    expect(view.refunds).toHaveLength(refunds.length);
    expect(view.allocation).toMatchObject({ seed, replayMatches: true });
  });

  it("applied twice at once allocates once; by order of pre-order an order served 2 of 3 gets its missing unit refunded, and units beyond the pre-orders go to stock", { timeout: 300_000 }, async () => {
    const productId = await preorderProduct();
    const placed = await paidPreorders(productId, [2, 1, 3, 2], "ordre");
    // 2 + 1 served whole, then 2 of the third's 3, the fourth nothing.
    const [first, second] = await Promise.all([
      applyAllocation(db(), stripe, { productId, choice: { received: 5, rule: "order", seed: null }, actorId: null }, deps),
      applyAllocation(db(), stripe, { productId, choice: { received: 5, rule: "order", seed: null }, actorId: null }, deps),
    ]);
    expect([first.outcome, second.outcome].sort()).toEqual(["already", "applied"]);
    const allocation = (await db().select().from(preorderAllocations).where(eq(preorderAllocations.productId, productId)))[0]!;
    expect((await sharesOf(allocation.id)).map((share) => [share.allocated, share.refunded]).sort()).toEqual([[0, 2], [1, 0], [2, 0], [2, 1]]);
    const refunds = await refundsOf(placed.map((order) => order.id));
    expect(refunds.map((refund) => [refund.orderId, refund.amountCents])).toEqual(
      expect.arrayContaining([
        [placed[2]!.id, PRICE],
        [placed[3]!.id, placed[3]!.totalCents],
      ]),
    );
    expect(refunds).toHaveLength(2);
    expect(fake.refunds.filter((refund) => refund.payment_intent === "pi_ordre_2")).toEqual([expect.objectContaining({ amount: PRICE })]);
    expect(fake.refunds.filter((refund) => refund.payment_intent === "pi_ordre_3")).toHaveLength(1);
    const emails = await outcomeMailsTo(["ordre0@exemple.fr", "ordre1@exemple.fr", "ordre2@exemple.fr", "ordre3@exemple.fr"]);
    expect(emails.map((email) => [email.to, email.kind]).sort()).toEqual([
      ["ordre0@exemple.fr", "preorder-served"],
      ["ordre1@exemple.fr", "preorder-served"],
      ["ordre2@exemple.fr", "preorder-partial-refund"],
      ["ordre3@exemple.fr", "preorder-shortage-refund"],
    ]);
    const partial = emails.find((email) => email.kind === "preorder-partial-refund")!;
    expect(partial.text).toContain("n'a pu être servie qu'en partie");
    expect(partial.text).toContain(`1 × ${(await db().select().from(products).where(eq(products.id, productId)))[0]!.title}`);

    // Everything covered: all confirmed, the rest to stock, nobody refunded.
    const covered = await preorderProduct();
    const coveredOrders = await paidPreorders(covered, [1, 3], "couvert");
    const applied = await applyAllocation(db(), stripe, { productId: covered, choice: { received: 10, rule: "draw", seed: "ab".repeat(32) }, actorId: null }, deps);
    expect(applied).toMatchObject({ outcome: "applied", allocation: { unitsAllocated: 4, unitsToStock: 6 }, refunds: { refunded: 0, failed: 0 } });
    expect(await stockOf(covered)).toBe(6);
    expect(await refundsOf(coveredOrders.map((order) => order.id))).toEqual([]);
  });

  it("checks the seller's form with its schema: French messages and a 4xx, nothing written", async () => {
    const productId = await preorderProduct();
    const submit = (form: Record<string, unknown>) => submitAllocationForm(db(), stripe, { productId, form, actorId: null }, deps);
    expect(await submit({ intent: "apply", received: "-3", rule: "order" })).toEqual({ ok: false, status: 400, errors: { received: "Le nombre d'exemplaires reçus doit être un nombre entier" } });
    expect(await submit({ intent: "apply", received: "10", rule: "draw" })).toEqual({ ok: false, status: 400, errors: { seed: "Prévisualisez le tirage avant de l'appliquer" } });
    expect(await submit({ intent: "apply", received: "10", rule: "hasard" })).toMatchObject({ ok: false, status: 400, errors: { rule: "Choisissez la règle de répartition" } });
    expect(await submitAllocationForm(db(), stripe, { productId: 999_999, form: { intent: "preview", received: "1", rule: "order" }, actorId: null }, deps)).toEqual({
      ok: false,
      status: 404,
      errors: { form: "Ce produit n'est pas en précommande." },
    });
    expect(await db().select().from(preorderAllocations).where(eq(preorderAllocations.productId, productId))).toEqual([]);
  });
});
