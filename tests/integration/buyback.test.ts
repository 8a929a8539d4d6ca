import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "~/db/client.server";
import { buybackOffers, documentSequences, inboxEvents, inboxMessages, outboxEmails, products, purchaseLots, purchaseRegisterEntries, storeCreditMovements } from "~/db/schema";
import type { Db } from "~/db/types";
import type { OfferLine } from "~/domain/buyback-offer";
import { FORGED_LINK, answerOffer, completePurchase, markReceived, offerLinkToken, readOfferLink, saveBuybackSettings, sendOffer, adjustOffer } from "~/services/buyback.server";
import { dashboardBuyback } from "~/services/buyback-dashboard.server";
import { correctRegisterEntry, registerEntries } from "~/services/purchase-register.server";
import { storeCreditBalance } from "~/services/store-credit.server";
import { createUserWithPassword } from "~/services/users.server";
import { databaseLabel, openTestDatabase } from "./test-database";

/**
 * Buy-back offers from the e-mail link to the register (services/buyback.server.ts) on a real
 * database: the link refused when forged (403), expired or replaced (410); the completion
 * writes the register entries, the credit and the lots in one transaction or nothing; and the
 * register's numbers stay gap-free and unique over two instances (on PostgreSQL two pools on one
 * database; on PGlite one handle shared, the same code without real parallelism).
 */
const shop = { name: "Comptoir", email: "contact@comptoir.example", publicUrl: "https://comptoir.example" };
const SECRET = "buyback-test-secret";
const ADDRESS = "12 rue des Lilas, 69001 Lyon";
const RECEPTION = { idType: "cni" as const, idNumber: "X1234567", idAuthority: "Préfecture du Rhône", idIssuedOn: "2020-03-14", address: ADDRESS };
const LINES: OfferLine[] = [
  { description: "Dracaufeu holo", condition: "near-mint", quantity: 1, unitPriceCents: 8000 },
  { description: "Pikachu promo", condition: "good", quantity: 3, unitPriceCents: 250 },
  { description: "Tortank", condition: "excellent", quantity: 2, unitPriceCents: 1200 },
];

describe(`buy-back offers and the register (${databaseLabel})`, () => {
  let database: Database;
  let secondary: Database | null = null;
  let other: Database;
  let adminId: string;
  let n = 0;
  const deps = () => ({ db: database.db, shop, secret: SECRET });

  beforeAll(async () => {
    database = await openTestDatabase();
    other = database;
    if (database.pool) {
      secondary = await openDatabase({ kind: "postgres", url: database.pool.options.connectionString!, poolSize: 5 });
      other = secondary;
    }
    ({ id: adminId } = await createUserWithPassword(database.db, { email: "vendeuse@comptoir.test", password: "mot-de-passe-admin", name: "Vendeuse", role: "admin", emailVerified: true }));
    await saveBuybackSettings(database.db, { creditBonusPercent: 10 });
  }, 60_000);

  afterAll(async () => {
    await secondary?.close();
    await database?.close();
  });

  async function request(status: "en_estimation" = "en_estimation"): Promise<{ id: string; email: string }> {
    const email = `collection${++n}@example.com`;
    const [row] = await database.db
      .insert(inboxMessages)
      .values({ kind: "rachat", lastName: "Dupont", firstName: "Marie", email, message: "Ma collection", status })
      .returning({ id: inboxMessages.id });
    return { id: row!.id, email };
  }

  /** The token of the link in the last offer e-mail to `email`. */
  async function linkToken(email: string): Promise<string> {
    const [mail] = await database.db.select().from(outboxEmails).where(eq(outboxEmails.to, email)).orderBy(sql`${outboxEmails.seq} desc`).limit(1);
    return /\/rachat\/offre\/([\w.-]+)/.exec(mail!.text)![1]!;
  }

  /** A request taken to « Cartes reçues », accepted with `means`. */
  async function received(means: "credit" | "transfer", lines = LINES) {
    const req = await request();
    expect(await sendOffer(deps(), { id: req.id, lines, note: "", actorId: adminId })).toMatchObject({ ok: true });
    const token = await linkToken(req.email);
    const transfer = means === "transfer" ? { accountHolder: "Marie Dupont", iban: "FR7630006000011234567890189" } : null;
    expect(await answerOffer(deps(), token, { kind: "accept", input: { means, address: ADDRESS, transfer } })).toMatchObject({ ok: true });
    expect(await markReceived(database.db, { id: req.id, reception: RECEPTION, actorId: adminId })).toMatchObject({ ok: true });
    return { ...req, token };
  }

  const skipAll = (lines: readonly unknown[]) => lines.map(() => ({ mode: "skip" as const }));

  describe("the customer's link", () => {
    it("shows the offer to whoever holds the link, and refuses a forged one with 403", async () => {
      const req = await request();
      await sendOffer(deps(), { id: req.id, lines: LINES, note: "", actorId: adminId });
      const token = await linkToken(req.email);
      const shown = await readOfferLink(database.db, SECRET, token);
      expect(shown).toMatchObject({ ok: true, view: { firstName: "Marie", open: true, bonusPercent: 10, lines: LINES } });

      const [body, mac] = token.split(".");
      const edited = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body!, "base64url").toString()), v: 2 })).toString("base64url");
      for (const forged of [`${edited}.${mac}`, offerLinkToken("another-secret", req.id, 1, new Date(Date.now() + 60_000)), "n'importe quoi"]) {
        expect(await readOfferLink(database.db, SECRET, forged)).toEqual({ ok: false, status: 403, message: FORGED_LINK });
        expect(await answerOffer(deps(), forged, { kind: "decline" })).toMatchObject({ ok: false, status: 403 });
      }
      expect((await database.db.select().from(inboxMessages).where(eq(inboxMessages.id, req.id)))[0]!.status).toBe("offre_envoyee");
    });

    it("refuses an expired link with 410 and says when it expired, and changes nothing", async () => {
      const req = await request();
      await sendOffer(deps(), { id: req.id, lines: LINES, note: "", actorId: adminId, now: new Date("2026-11-01T10:00:00.000Z") });
      const token = await linkToken(req.email);
      const late = new Date("2026-11-15T10:00:01.000Z");
      expect(await readOfferLink(database.db, SECRET, token, late)).toEqual({ ok: false, status: 410, message: "Ce lien a expiré le 15 novembre 2026. Écrivez-nous pour recevoir une nouvelle offre." });
      expect(await answerOffer(deps(), token, { kind: "accept", input: { means: "credit", address: ADDRESS, transfer: null } }, late)).toMatchObject({ ok: false, status: 410 });
      expect((await database.db.select().from(inboxMessages).where(eq(inboxMessages.id, req.id)))[0]!.status).toBe("offre_envoyee");
    });

    it("takes an answer once: the same answer twice is accepted once, the other answer afterwards refused", async () => {
      const req = await request();
      await sendOffer(deps(), { id: req.id, lines: LINES, note: "", actorId: adminId });
      const token = await linkToken(req.email);
      const accept = { kind: "accept" as const, input: { means: "credit" as const, address: ADDRESS, transfer: null } };
      const answers = await Promise.all([answerOffer(deps(), token, accept), answerOffer({ ...deps(), db: other.db }, token, accept)]);
      expect(answers.every((answer) => answer.ok)).toBe(true);
      expect(await answerOffer(deps(), token, { kind: "decline" })).toEqual({ ok: false, status: 409, message: "Vous avez déjà répondu à cette offre." });
      const events = await database.db.select().from(inboxEvents).where(eq(inboxEvents.messageId, req.id));
      expect(events.filter((event) => event.type === "accepted")).toHaveLength(1);
      const [offer] = await database.db.select().from(buybackOffers).where(eq(buybackOffers.messageId, req.id));
      expect(offer).toMatchObject({ paymentMeans: "credit", acceptedTotalCents: 11_150, sellerAddress: ADDRESS });
    });

    it("replaces the accepted lines only when the customer accepts an adjustment; the old link is then refused (410)", async () => {
      const req = await received("credit");
      const adjusted = LINES.map((line, i) => (i === 0 ? { ...line, condition: "played" as const, unitPriceCents: 5000 } : line));
      expect(await adjustOffer(deps(), { id: req.id, lines: adjusted, note: "Pli sur la carte", actorId: adminId })).toMatchObject({ ok: true });
      expect(await completePurchase(database.db, { id: req.id, stock: skipAll(LINES), actorId: adminId, shop })).toMatchObject({ ok: false, status: 409 });
      expect(await readOfferLink(database.db, SECRET, req.token)).toMatchObject({ ok: false, status: 410 });
      const newToken = await linkToken(req.email);
      expect(await readOfferLink(database.db, SECRET, newToken)).toMatchObject({ ok: true, view: { adjusted: true, open: true } });
      let [offer] = await database.db.select().from(buybackOffers).where(eq(buybackOffers.messageId, req.id));
      expect(offer!.acceptedTotalCents).toBe(11_150);
      await answerOffer(deps(), newToken, { kind: "accept", input: { means: "credit", address: ADDRESS, transfer: null } });
      [offer] = await database.db.select().from(buybackOffers).where(eq(buybackOffers.messageId, req.id));
      expect(offer).toMatchObject({ acceptedTotalCents: 8150, pendingLines: null, lines: adjusted });
      const done = await completePurchase(database.db, { id: req.id, stock: skipAll(LINES), actorId: adminId, shop });
      expect(done).toMatchObject({ ok: true });
      // 81,50 € + 10 % = 89,65 €.
      expect(await storeCreditBalance(database.db, req.email)).toBe(8965);
    });
  });

  describe("completion", () => {
    it("refuses to complete without the identity document", async () => {
      const req = await request();
      await sendOffer(deps(), { id: req.id, lines: LINES, note: "", actorId: adminId });
      await answerOffer(deps(), await linkToken(req.email), { kind: "accept", input: { means: "credit", address: ADDRESS, transfer: null } });
      // Not received: the identity document was never entered.
      expect(await completePurchase(database.db, { id: req.id, stock: skipAll(LINES), actorId: adminId, shop })).toMatchObject({ ok: false, status: 409 });
      expect(await database.db.select().from(purchaseRegisterEntries).where(eq(purchaseRegisterEntries.messageId, req.id))).toEqual([]);
    });

    it("writes the register entries, the credit with its bonus and the lots together; a failure midway writes none of them", async () => {
      const req = await received("credit");
      const [sequenceBefore] = await database.db.select().from(documentSequences).where(eq(documentSequences.kind, "purchase_register"));
      const [existing] = await database.db
        .insert(products)
        .values({ title: "Tortank (occasion)", description: "", priceCents: 2500, stock: 1, category: "TCG", vatScheme: "margin", searchText: "tortank", searchTitle: "tortank" } as never)
        .returning({ id: products.id });

      // The third line adds to a product that does not exist: the lot fails after the entries and the credit.
      const failing = [{ mode: "new" as const, title: "Dracaufeu holo", category: "TCG" as const, priceCents: 12_000, publish: false }, { mode: "skip" as const }, { mode: "existing" as const, productId: 999_999 }];
      await expect(completePurchase(database.db, { id: req.id, stock: failing, actorId: adminId, shop })).rejects.toThrow();
      expect(await database.db.select().from(purchaseRegisterEntries).where(eq(purchaseRegisterEntries.messageId, req.id))).toEqual([]);
      expect(await database.db.select().from(storeCreditMovements).where(eq(storeCreditMovements.sourceRef, `rachat:${req.id}`))).toEqual([]);
      expect(await database.db.select().from(products).where(eq(products.title, "Dracaufeu holo"))).toEqual([]);
      expect((await database.db.select().from(inboxMessages).where(eq(inboxMessages.id, req.id)))[0]!.status).toBe("recue");
      const [sequenceAfterFailure] = await database.db.select().from(documentSequences).where(eq(documentSequences.kind, "purchase_register"));
      expect(sequenceAfterFailure!.lastValue).toBe(sequenceBefore!.lastValue);

      const stock = [{ mode: "new" as const, title: "Dracaufeu holo", category: "TCG" as const, priceCents: 12_000, publish: false }, { mode: "skip" as const }, { mode: "existing" as const, productId: existing!.id }];
      const done = await completePurchase(database.db, { id: req.id, stock, actorId: adminId, shop });
      expect(done).toMatchObject({ ok: true, entryNumbers: [sequenceBefore!.lastValue + 1, sequenceBefore!.lastValue + 2, sequenceBefore!.lastValue + 3] });
      expect(await completePurchase(database.db, { id: req.id, stock, actorId: adminId, shop })).toMatchObject({ ok: false, status: 409 });

      const entries = await database.db.select().from(purchaseRegisterEntries).where(eq(purchaseRegisterEntries.messageId, req.id)).orderBy(asc(purchaseRegisterEntries.number));
      expect(entries.map((entry) => [entry.description, entry.quantity, entry.unitPriceCents, entry.totalCents, entry.paymentMeans, entry.idNumber, entry.sellerName])).toEqual([
        ["Dracaufeu holo", 1, 8000, 8000, "credit", "X1234567", "Marie Dupont"],
        ["Pikachu promo", 3, 250, 750, "credit", "X1234567", "Marie Dupont"],
        ["Tortank", 2, 1200, 2400, "credit", "X1234567", "Marie Dupont"],
      ]);
      // 111,50 € + 10 % (11,15 €) = 122,65 €, once.
      expect(await storeCreditBalance(database.db, req.email)).toBe(12_265);
      const [movement] = await database.db.select().from(storeCreditMovements).where(eq(storeCreditMovements.sourceRef, `rachat:${req.id}`));
      expect(movement).toMatchObject({ kind: "buyback", amountCents: 12_265, author: `seller:${adminId}` });

      const [created] = await database.db.select().from(products).where(eq(products.title, "Dracaufeu holo"));
      expect(created).toMatchObject({ stock: 1, vatScheme: "margin", condition: "near-mint", status: "hors_ligne", priceCents: 12_000 });
      const lots = await database.db.select().from(purchaseLots).orderBy(asc(purchaseLots.id));
      expect(lots.filter((lot) => lot.productId === created!.id)).toEqual([expect.objectContaining({ quantity: 1, unitCostCents: 8000, source: "buyback" })]);
      expect(lots.filter((lot) => lot.productId === existing!.id)).toEqual([expect.objectContaining({ quantity: 2, unitCostCents: 1200, source: "buyback" })]);
      expect((await database.db.select({ stock: products.stock }).from(products).where(eq(products.id, existing!.id)))[0]!.stock).toBe(3);
      expect((await database.db.select().from(inboxMessages).where(eq(inboxMessages.id, req.id)))[0]!.status).toBe("payee");
    });

    it("records a transfer as to make, then paid", async () => {
      const req = await received("transfer", LINES.slice(0, 1));
      expect(await completePurchase(database.db, { id: req.id, stock: [{ mode: "skip" }], actorId: adminId, shop })).toMatchObject({ ok: true, request: { status: "a_virer" } });
      expect(await storeCreditBalance(database.db, req.email)).toBe(0);
      const [offer] = await database.db.select().from(buybackOffers).where(eq(buybackOffers.messageId, req.id));
      expect(offer).toMatchObject({ paidCents: 8000, iban: "FR7630006000011234567890189", transferPaidAt: null });
    });
  });

  describe("the register", () => {
    it("never changes an entry: UPDATE and DELETE are refused; a correction is a new entry naming the old one", async () => {
      const req = await received("credit", LINES.slice(1, 2));
      const done = await completePurchase(database.db, { id: req.id, stock: [{ mode: "skip" }], actorId: adminId, shop });
      if (!done.ok) throw new Error(done.message);
      const number = done.entryNumbers[0]!;
      await expect(database.db.update(purchaseRegisterEntries).set({ quantity: 9 }).where(eq(purchaseRegisterEntries.number, number))).rejects.toThrow();
      await expect(database.db.delete(purchaseRegisterEntries).where(eq(purchaseRegisterEntries.number, number))).rejects.toThrow();
      const corrected = await correctRegisterEntry(database.db, { correctsNumber: number, description: "Pikachu promo (3 cartes)", quantity: 2, unitPrice: 250, reason: "Une carte rendue au vendeur", actorId: adminId });
      expect(corrected).toEqual({ ok: true, number: number + 1 });
      const [entry] = await database.db.select().from(purchaseRegisterEntries).where(eq(purchaseRegisterEntries.number, number + 1));
      expect(entry).toMatchObject({ correctsNumber: number, quantity: 2, totalCents: 500, idNumber: "X1234567", sellerAddress: ADDRESS });
      expect(await correctRegisterEntry(database.db, { correctsNumber: 999_999, description: "x", quantity: 1, unitPrice: 1, reason: "aucune", actorId: adminId })).toMatchObject({ ok: false, status: 404 });
    });

    it(`numbers entries without gap or duplicate over two instances (${databaseLabel === "PostgreSQL" ? "two pools" : "one shared handle"})`, async () => {
      const requests = await Promise.all(Array.from({ length: 8 }, () => received("credit", LINES)));
      const outcomes = await Promise.all(
        requests.map((req, i) => completePurchase((i % 2 === 0 ? database : other).db as Db, { id: req.id, stock: skipAll(LINES), actorId: adminId, shop })),
      );
      expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
      const numbers = (await database.db.select({ number: purchaseRegisterEntries.number, recordedAt: purchaseRegisterEntries.recordedAt }).from(purchaseRegisterEntries).orderBy(asc(purchaseRegisterEntries.number)));
      expect(numbers.map((row) => row.number)).toEqual(numbers.map((_, i) => i + 1));
      // Chronological: a later number never carries an earlier date.
      for (let i = 1; i < numbers.length; i++) expect(numbers[i]!.recordedAt.getTime()).toBeGreaterThanOrEqual(numbers[i - 1]!.recordedAt.getTime());
      const now = new Date();
      const listed = await registerEntries(database.db, { year: Number(now.toISOString().slice(0, 4)), month: null });
      expect(listed.length).toBe(numbers.length);
    });

    it("counts the buy-backs on the dashboard", async () => {
      const figures = await dashboardBuyback(database.db, new Date());
      expect(figures.offersSent).toBeGreaterThanOrEqual(14);
      expect(figures.paidTransfer).toEqual({ count: 1, cents: 8000 });
      expect(figures.unitsAdded).toBe(3);
      const [total] = await database.db.select({ cents: sql<number>`sum(balance_cents)`.mapWith(Number) }).from(sql`store_credit_accounts`);
      expect(figures.creditOutstandingCents).toBe(total!.cents);
      expect(figures.paidCredit.count).toBeGreaterThanOrEqual(10);
    });
  });
});
