import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, asc, eq, sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { outboxEmails, storeCreditAccounts, storeCreditMovements } from "~/db/schema";
import { creditExpiry } from "~/domain/store-credit";
import { formatEuros } from "~/domain/money";
import { formatParisDate } from "~/domain/paris-time";
import { type Auth, createAuth } from "~/lib/auth.server";
import type { AppContext } from "~/lib/context";
import * as settingsRoute from "~/routes/admin/shop-settings";
import * as userRoute from "~/routes/admin/user";
import { localDiskStore } from "~/services/storage.server";
import { expireStoreCredits, grantStoreCredit, setStoreCreditValidityMonths, startStoreCreditExpiryJob, storeCreditValidityMonths } from "~/services/store-credit-grants.server";
import { recordMovement, storeCreditBalance } from "~/services/store-credit.server";
import { createUserWithPassword } from "~/services/users.server";
import { installTestClock } from "../../server/test-clock";
import { signInAdminWithCode } from "./admin-second-factor";
import { outcome } from "./route-outcome";
import { databaseLabel, openTestDatabase } from "./test-database";

/**
 * The seller's side of store credit (issue 54 point 4, decision 055) on a real database: the
 * « Geste commercial » posted on a customer's admin page (a movement with its reason and author,
 * the e-mail with the validity), « Durée de validité des avoirs » in /admin/settings, and the
 * expiry job: the oldest credits spent first, what is left of a credit expired at its end date in
 * one movement, nothing expired twice when the round runs twice or on two connections at once.
 */
const ORIGIN = "http://shop.test";
const PASSWORD = "Ronflex-2026-secret";
const shop = { name: "Comptoir", email: "contact@comptoir.example", publicUrl: "https://comptoir.example" };
const DAY = 24 * 60 * 60 * 1000;

describe(`store credit grants and expiry on ${databaseLabel}`, () => {
  let database: Database;
  let auth: Auth;
  let context: AppContext;
  let privateDir: string;
  let adminId: string;
  let adminCookie: string;
  let customerId: string;
  const db = () => database.db;

  const post = (pathname: string, form: Record<string, string>) =>
    new Request(`${ORIGIN}${pathname}`, { method: "POST", headers: { cookie: adminCookie, origin: ORIGIN }, body: new URLSearchParams(form) });
  const goodwill = (form: Record<string, string>) =>
    outcome(() => userRoute.action({ request: post(`/admin/users/${customerId}`, { intent: "goodwill", ...form }), context, params: { id: customerId } } as unknown as Parameters<typeof userRoute.action>[0]));
  const saveValidity = (validityMonths: string) =>
    outcome(() => settingsRoute.action({ request: post("/admin/settings", { intent: "store-credit", validityMonths }), context, params: {} } as unknown as Parameters<typeof settingsRoute.action>[0]));
  const movementsOf = (email: string) =>
    db()
      .select({ amountCents: storeCreditMovements.amountCents, kind: storeCreditMovements.kind, reason: storeCreditMovements.reason, author: storeCreditMovements.author, expiresAt: storeCreditMovements.expiresAt })
      .from(storeCreditMovements)
      .where(eq(storeCreditMovements.email, email))
      .orderBy(asc(storeCreditMovements.id));
  const creditEmails = (to: string) => db().select({ subject: outboxEmails.subject, text: outboxEmails.text }).from(outboxEmails).where(and(eq(outboxEmails.kind, "store-credit"), eq(outboxEmails.to, to)));

  beforeAll(async () => {
    database = await openTestDatabase();
    privateDir = fs.mkdtempSync(path.join(os.tmpdir(), "comptoir-credit-private-"));
    const noMail = async () => {};
    auth = createAuth({ db: database.db, secret: "integration-secret-store-credit-0123456789", baseUrl: ORIGIN, mail: { verification: noMail, existingAccount: noMail, passwordReset: noMail } });
    context = {
      db: database.db,
      auth,
      publicUrl: ORIGIN,
      shop: { name: shop.name, email: shop.email },
      clientIp: "203.0.113.9",
      logger: pino({ level: "silent" }),
      privateFiles: localDiskStore(privateDir),
    } as unknown as AppContext;
    ({ id: adminId } = await createUserWithPassword(database.db, { name: "Chef", email: "chef@comptoir.test", password: PASSWORD, role: "admin", emailVerified: true }));
    ({ id: customerId } = await createUserWithPassword(database.db, { name: "Hortense Vasseur", email: "hortense@example.org", password: PASSWORD, role: "user", emailVerified: true }));
    adminCookie = await signInAdminWithCode(auth, "chef@comptoir.test", PASSWORD);
  });
  afterAll(async () => {
    await database?.close();
    fs.rmSync(privateDir, { recursive: true, force: true });
  });

  it("saves « Durée de validité des avoirs » and refuses an unreadable one with a French 400", async () => {
    expect(await storeCreditValidityMonths(db())).toBeNull();
    expect(await saveValidity("0")).toMatchObject({ status: 400, body: { ok: false, creditError: { message: "Indiquez un nombre de mois entre 1 et 120, ou laissez vide pour des avoirs sans fin de validité." } } });
    expect(await saveValidity("121")).toMatchObject({ status: 400 });
    expect(await storeCreditValidityMonths(db())).toBeNull();
    expect(await saveValidity("13")).toMatchObject({ status: 200, body: { ok: true } });
    expect(await storeCreditValidityMonths(db())).toBe(13);
  });

  it("credits a goodwill gesture with its reason, its author and the validity, announced by e-mail", async () => {
    const before = new Date();
    expect(await goodwill({ amount: "12,50", reason: "Carte abîmée à la livraison" })).toMatchObject({
      status: 200,
      body: { ok: true, toast: { title: "Avoir crédité", description: `${formatEuros(12_50)} crédités : nouveau solde ${formatEuros(12_50)}.` } },
    });
    const after = new Date();
    const [movement, ...others] = await movementsOf("hortense@example.org");
    expect(others).toEqual([]);
    expect(movement).toMatchObject({ amountCents: 12_50, kind: "goodwill", reason: "Carte abîmée à la livraison", author: `seller:${adminId}` });
    // 13 months from the moment it was credited.
    expect(movement!.expiresAt!.getTime()).toBeGreaterThanOrEqual(creditExpiry(before, 13)!.getTime());
    expect(movement!.expiresAt!.getTime()).toBeLessThanOrEqual(creditExpiry(after, 13)!.getTime());
    const [email] = await creditEmails("hortense@example.org");
    expect(email!.subject).toBe(`Un avoir de ${formatEuros(12_50)} vous attend – Comptoir`);
    expect(email!.text).toContain(`Nous avons crédité votre avoir de ${formatEuros(12_50)} (Carte abîmée à la livraison). Son solde est maintenant de ${formatEuros(12_50)}.`);
    expect(email!.text).toContain(`Cet avoir est valable jusqu'au ${formatParisDate(movement!.expiresAt!)} ; passé cette date, la partie non utilisée est perdue.`);
  });

  it("refuses a goodwill amount of 0, over 10 000 € or without a reason, writing nothing", async () => {
    expect(await goodwill({ amount: "0", reason: "Geste" })).toMatchObject({ status: 400, body: { toast: { description: "Indiquez un montant en euros supérieur à 0, par exemple 10 ou 12,50." } } });
    expect(await goodwill({ amount: "10000,01", reason: "Geste" })).toMatchObject({ status: 400, body: { toast: { description: "Un geste commercial ne peut pas dépasser 10 000,00 €." } } });
    expect(await goodwill({ amount: "5", reason: " " })).toMatchObject({ status: 400 });
    expect(await movementsOf("hortense@example.org")).toHaveLength(1);
    expect(await creditEmails("hortense@example.org")).toHaveLength(1);
  });

  it("gives a credit no end once the validity is emptied, and says so in the e-mail", async () => {
    expect(await saveValidity("")).toMatchObject({ status: 200 });
    expect(await storeCreditValidityMonths(db())).toBeNull();
    expect(await goodwill({ amount: "3", reason: "Retard de livraison" })).toMatchObject({ status: 200 });
    const movements = await movementsOf("hortense@example.org");
    expect(movements.at(-1)).toMatchObject({ amountCents: 3_00, expiresAt: null });
    const email = (await creditEmails("hortense@example.org")).find((e) => e.subject === `Un avoir de ${formatEuros(3_00)} vous attend – Comptoir`);
    expect(email!.text).toContain("Cet avoir n'a pas de date de fin de validité.");
    expect(await storeCreditBalance(db(), "hortense@example.org")).toBe(15_50);
  });

  it("expires what is left of the oldest credits at their end date, once, never below 0", async () => {
    const email = "collectionneur@example.fr";
    const t0 = new Date("2026-01-10T09:00:00Z");
    const grant = (amountCents: number, now: Date) => grantStoreCredit(db(), { email, name: "Léo", amountCents, kind: "buyback", reason: "Rachat", author: "seller:test" }, shop, now);
    await setStoreCreditValidityMonths(db(), 1);
    const first = await grant(30_00, t0);
    const second = await grant(20_00, new Date(t0.getTime() + 10 * DAY));
    await setStoreCreditValidityMonths(db(), null);
    await grant(5_00, new Date(t0.getTime() + 11 * DAY));
    // 40 € spent: the 30 € credit whole, then 10 € of the 20 € one.
    expect(await recordMovement(db(), { email, amountCents: -40_00, kind: "order", reason: "Commande", author: "customer" })).toMatchObject({ ok: true, balanceCents: 15_00 });

    expect(await expireStoreCredits(db(), new Date(first.expiresAt!.getTime() - 1))).toBe(0);
    // The first credit's end: nothing is left of it.
    expect(await expireStoreCredits(db(), first.expiresAt!)).toBe(0);
    // The second's: its 10 € left go, the credit without an end stays.
    expect(await expireStoreCredits(db(), second.expiresAt!)).toBe(10_00);
    expect(await storeCreditBalance(db(), email)).toBe(5_00);
    const expiries = (await movementsOf(email)).filter((m) => m.kind === "expiry");
    expect(expiries).toEqual([{ amountCents: -10_00, kind: "expiry", reason: "Fin de validité de l'avoir", author: "system", expiresAt: null }]);
    // Run again, later: nothing left to expire, nothing written.
    expect(await expireStoreCredits(db(), new Date(second.expiresAt!.getTime() + 400 * DAY))).toBe(0);
    expect((await movementsOf(email)).filter((m) => m.kind === "expiry")).toHaveLength(1);
    expect(await storeCreditBalance(db(), email)).toBe(5_00);
  });

  it("two rounds at once (two instances) expire a credit once", async () => {
    const emails = ["a@example.fr", "b@example.fr", "c@example.fr"];
    const t0 = new Date("2026-02-01T09:00:00Z");
    await setStoreCreditValidityMonths(db(), 2);
    const grants = await Promise.all(emails.map((email, i) => grantStoreCredit(db(), { email, name: "", amountCents: (i + 1) * 7_00, kind: "goodwill", reason: "Geste", author: "seller:test" }, shop, t0)));
    await setStoreCreditValidityMonths(db(), null);
    const at = grants[0]!.expiresAt!;
    const rounds = await Promise.all([expireStoreCredits(db(), at), expireStoreCredits(db(), at)]);
    expect(rounds[0]! + rounds[1]!).toBe(7_00 + 14_00 + 21_00);
    for (const email of emails) {
      expect((await movementsOf(email)).filter((m) => m.kind === "expiry")).toHaveLength(1);
      expect(await storeCreditBalance(db(), email)).toBe(0);
    }
    // Every account: its balance is its movements' sum, never negative.
    const accounts = await db()
      .select({ balance: storeCreditAccounts.balanceCents, sum: sql<number>`(select coalesce(sum(amount_cents), 0)::int from store_credit_movements m where m.email = store_credit_accounts.email)` })
      .from(storeCreditAccounts);
    for (const account of accounts) {
      expect(account.balance).toBe(account.sum);
      expect(account.balance).toBeGreaterThanOrEqual(0);
    }
  });

  it("the job expires a credit once the test clock passes its end", async () => {
    const RealDate = Date;
    const clock = installTestClock();
    const job = startStoreCreditExpiryJob({ db: db(), logger: pino({ level: "silent" }) });
    try {
      await setStoreCreditValidityMonths(db(), 1);
      const email = "horloge@example.fr";
      const granted = await grantStoreCredit(db(), { email, name: "", amountCents: 9_99, kind: "goodwill", reason: "Geste", author: "seller:test" }, shop);
      await setStoreCreditValidityMonths(db(), null);
      clock.advance(granted.expiresAt!.getTime() - Date.now() + 1_000);
      job.kick();
      await expect.poll(async () => storeCreditBalance(db(), email), { timeout: 10_000 }).toBe(0);
      expect((await movementsOf(email)).map((m) => [m.kind, m.amountCents])).toEqual([
        ["goodwill", 9_99],
        ["expiry", -9_99],
      ]);
    } finally {
      await job.stop();
      globalThis.Date = RealDate;
    }
  });
});
