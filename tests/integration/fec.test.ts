import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { invoices, orderRefunds, orders, products } from "~/db/schema";
import type { BusinessPurchase } from "~/domain/business-purchase";
import { fecFile, toLatin9 } from "~/domain/fec";
import { DEFAULT_FEC_ACCOUNTS, type FecAccounts } from "~/domain/fec-accounts";
import type { InvoiceSnapshot } from "~/domain/invoice";
import { parisWallClock } from "~/domain/paris-time";
import { getAdminOrder, refundPartOfAdminOrder } from "~/services/admin-orders.server";
import type { CheckoutContext } from "~/services/checkout.server";
import { fecEntriesFor, getFecAccounts, saveFecAccounts } from "~/services/fec.server";
import { createStripeProvider } from "~/services/payments/stripe.server";
import type { PaymentProvider } from "~/services/payments/types";
import { createUserWithPassword } from "~/services/users.server";
import { type FakeStripe, startFakeStripe } from "../support/fake-stripe-server";
import { checkoutAndPay } from "./paid-checkout";
import { databaseLabel, openTestDatabase } from "./test-database";

/**
 * The FEC (docs/decisions/052) of real orders on a real database: a company's order and a
 * consumer's (with a second-hand card under the margin scheme), both paid through the Stripe
 * adapter and partly refunded. The file is read back by a parser written here from the layout of
 * LPF art. A47 A-1, and every document's and every payment's figures are looked for in it.
 */
const deps = { shop: { name: "Comptoir", email: "contact@comptoir.example", publicUrl: "https://comptoir.example" }, sellerEmail: "vendeur@comptoir.example" };
const COMPANY: BusinessPurchase = { companyName: "Le Repaire du Dragon SARL", siren: "732829320", vatNumber: "FR44732829320", country: "FR" };
/** One VAT account per rate, as an accountant would map them. */
const ACCOUNTS: FecAccounts = { ...DEFAULT_FEC_ACCOUNTS, vat: { 2000: "445711", 1000: "445712", 550: "445713", 210: "445714" } };
const HEADER = "JournalCode\tJournalLib\tEcritureNum\tEcritureDate\tCompteNum\tCompteLib\tCompAuxNum\tCompAuxLib\tPieceRef\tPieceDate\tEcritureLib\tDebit\tCredit\tEcritureLet\tDateLet\tValidDate\tMontantdevise\tIdevise";

type Row = {
  journal: string;
  num: number;
  date: string;
  account: string;
  accountLabel: string;
  aux: string;
  auxLabel: string;
  piece: string;
  label: string;
  debit: number;
  credit: number;
  letter: string;
  letterDate: string;
  validDate: string;
};

/** "1234,50" → 123450; anything else fails the test. */
function cents(text: string): number {
  const match = /^(\d+),(\d{2})$/.exec(text);
  if (!match) throw new Error(`not a FEC amount: ${JSON.stringify(text)}`);
  return Number(match[1]) * 100 + Number(match[2]);
}

/** A real calendar day AAAAMMJJ. */
function isDay(text: string): boolean {
  if (!/^\d{8}$/.test(text)) return false;
  const [y, m, d] = [Number(text.slice(0, 4)), Number(text.slice(4, 6)), Number(text.slice(6))];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** The flat file of A47 A-1: the fields' names, then 18 tab-separated fields a line, lines ended by CR LF. */
function parseFec(text: string): Row[] {
  const lines = text.split("\r\n");
  expect(lines.pop()).toBe("");
  expect(lines.shift()).toBe(HEADER);
  return lines.map((line) => {
    const f = line.split("\t");
    expect(f, line).toHaveLength(18);
    for (const day of [f[3]!, f[9]!, f[15]!]) expect(isDay(day), line).toBe(true);
    if (f[14]) expect(isDay(f[14]), line).toBe(true);
    expect(f[4], line).toMatch(/^\d{3,}$/);
    expect(f[16]).toBe("");
    expect(f[17]).toBe("");
    return {
      journal: f[0]!,
      num: Number(f[2]),
      date: f[3]!,
      account: f[4]!,
      accountLabel: f[5]!,
      aux: f[6]!,
      auxLabel: f[7]!,
      piece: f[8]!,
      label: f[10]!,
      debit: cents(f[11]!),
      credit: cents(f[12]!),
      letter: f[13]!,
      letterDate: f[14]!,
      validDate: f[15]!,
    };
  });
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const net = (rows: Row[]) => sum(rows.map((row) => row.debit - row.credit));
/** "20 %", "5,5 %": the rate as the file's labels write it. */
const rateText = (rateBp: number) => `${String(rateBp / 100).replace(".", ",")} %`;

describe(`the FEC on ${databaseLabel}`, () => {
  let database: Database;
  let fake: FakeStripe;
  let stripe: PaymentProvider;
  let adminId: string;
  let n = 0;
  const db = () => database.db;
  const ctx = (): CheckoutContext => ({ now: new Date(), customer: null, clientIp: `198.51.100.${++n % 250}`, orderPrefix: "CPT", origin: "http://shop.test", reservationMinutes: 45 });
  const form = (fields: Record<string, string>) => ({ intent: "partial-refund", requestKey: randomUUID(), ...fields });

  async function product(values: Partial<typeof products.$inferInsert>) {
    const [row] = await db().insert(products).values({ title: `Produit FEC ${++n}`, priceCents: 600, stock: 10, category: "TCG", subCategory: "Scellés", ...values }).returning();
    return row!;
  }

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

  it("keeps the seller's accounts", async () => {
    expect(await getFecAccounts(db())).toEqual(DEFAULT_FEC_ACCOUNTS);
    await saveFecAccounts(db(), ACCOUNTS);
    expect(await getFecAccounts(db())).toEqual(ACCOUNTS);
  });

  it("balances, and carries every document's and every payment's figures once", async () => {
    const booster = await product({ priceCents: 650 });
    const manga = await product({ title: "One Piece – Tome 105", priceCents: 715, category: "Gaming & Mangas", subCategory: "Manga" });
    const used = await product({ title: "Dracaufeu d'occasion", priceCents: 4_500, vatScheme: "margin" });

    // A company's order: it is set as the checkout sets it (issue 53), then a manga goes back.
    const b2b = await checkoutAndPay(db(), stripe, [{ productId: booster.id, quantity: 3 }, { productId: manga.id, quantity: 2 }], { ctx: ctx(), deps, intent: "pi_fec_b2b" });
    await db().update(orders).set({ businessBuyer: COMPANY }).where(eq(orders.id, b2b.id));
    const b2bLines = (await getAdminOrder(db(), b2b.number))!.refundable.lines;
    const mangaLine = b2bLines.find((line) => line.name === manga.title)!;
    expect(await refundPartOfAdminOrder(db(), stripe, b2b.number, form({ [`qty:${mangaLine.id}`]: "1" }), adminId, deps)).toMatchObject({ ok: true });

    // A consumer's order with a second-hand card: one booster and the delivery go back.
    const consumer = await checkoutAndPay(db(), stripe, [{ productId: booster.id, quantity: 2 }, { productId: used.id, quantity: 1 }], { ctx: ctx(), deps, intent: "pi_fec_consumer" });
    const boosterLine = (await getAdminOrder(db(), consumer.number))!.refundable.lines.find((line) => line.name === booster.title)!;
    const delivery = (consumer.shippingCents / 100).toFixed(2).replace(".", ",");
    expect(consumer.shippingCents).toBeGreaterThan(0);
    expect(await refundPartOfAdminOrder(db(), stripe, consumer.number, form({ [`qty:${boosterLine.id}`]: "1", shipping: delivery }), adminId, deps)).toMatchObject({ ok: true });

    const paidAt = (await db().select({ paidAt: orders.paidAt }).from(orders).where(eq(orders.id, b2b.id)))[0]!.paidAt!;
    const accounts = await getFecAccounts(db());
    const text = fecFile(await fecEntriesFor(db(), { year: parisWallClock(paidAt).year, month: null }, accounts), accounts);
    // Nothing in it that ISO 8859-15 cannot say: it decodes back to the same text.
    expect(new TextDecoder("iso-8859-15").decode(toLatin9(text))).toBe(text);
    const rows = parseFec(text);

    // Balanced overall and entry by entry; each journal numbered 1…n, each entry's lines together.
    expect(sum(rows.map((row) => row.debit))).toBe(sum(rows.map((row) => row.credit)));
    expect(sum(rows.map((row) => row.debit))).toBeGreaterThan(0);
    for (const journal of ["VE", "BQ"]) {
      const numbers = rows.filter((row) => row.journal === journal).map((row) => row.num);
      const distinct = [...new Set(numbers)];
      expect(distinct).toEqual(distinct.map((_, i) => i + 1));
      expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
      for (const num of distinct) expect(net(rows.filter((row) => row.journal === journal && row.num === num))).toBe(0);
    }
    // Every line is on one side only; an account has one label.
    for (const row of rows) expect(row.debit === 0 || row.credit === 0).toBe(true);
    for (const account of new Set(rows.map((row) => row.account))) expect(new Set(rows.filter((row) => row.account === account).map((row) => row.accountLabel)).size).toBe(1);

    // Every invoice and credit note: its TTC on the customer once, its VAT by rate once, its HT by rate over goods and delivery.
    const documents = await db().select().from(invoices);
    expect(documents.filter((d) => d.kind === "invoice")).toHaveLength(2);
    expect(documents.filter((d) => d.kind === "credit_note")).toHaveLength(2);
    for (const document of documents) {
      const snapshot = document.snapshot as InvoiceSnapshot;
      const entry = rows.filter((row) => row.journal === "VE" && row.piece === document.number);
      expect(new Set(entry.map((row) => row.num)).size).toBe(1);
      const customer = entry.filter((row) => row.account === "411");
      expect(customer.map((row) => row.debit - row.credit)).toEqual([snapshot.totals.inclVatCents]);
      const isB2b = document.orderId === b2b.id;
      expect(customer[0]).toMatchObject(isB2b ? { aux: COMPANY.siren, auxLabel: COMPANY.companyName } : { aux: "", auxLabel: "" });
      for (const row of snapshot.vatBreakdown) {
        const rate = row.rateBp as 2000 | 550;
        const vat = entry.filter((line) => line.account === ACCOUNTS.vat[rate]);
        expect(vat.map((line) => line.debit - line.credit)).toEqual([-row.vatCents]);
        const base = entry.filter((line) => line.account === ACCOUNTS.sales[rate] || (line.account === "7085" && line.label.endsWith(`TVA ${rateText(rate)}`)));
        expect(net(base) + row.baseCents).toBe(0);
      }
      const sales = entry.filter((row) => row.account.startsWith("70"));
      expect(net(sales) + snapshot.totals.exclVatCents + snapshot.totals.marginSchemeCents).toBe(0);
      const margin = entry.filter((row) => row.account === "7073");
      expect(net(margin) + snapshot.totals.marginSchemeCents).toBe(0);
      if (margin.length) expect(margin[0]!.label).toContain("TVA sur la marge à calculer");
    }
    // The consumer's invoice did carry a margin-scheme good.
    expect(rows.some((row) => row.account === "7073" && row.credit === 4_500)).toBe(true);

    // Every payment and every refund once, on Stripe's account, against the customer.
    const refunds = await db().select().from(orderRefunds);
    expect(refunds).toHaveLength(2);
    const bank = rows.filter((row) => row.journal === "BQ" && row.account === "467");
    expect(bank.map((row) => row.debit - row.credit).sort((a, b) => a - b)).toEqual(
      [b2b.totalCents, consumer.totalCents, ...refunds.map((refund) => -refund.amountCents)].sort((a, b) => a - b),
    );
    expect(rows.filter((row) => row.journal === "BQ" && row.account === "411" && row.aux === COMPANY.siren)).toHaveLength(2);

    // Every customer line is lettered (each document paid or refunded in the period), each letter's lines cancel out.
    const customerRows = rows.filter((row) => row.account === "411");
    expect(customerRows.every((row) => /^[A-Z]{3}$/.test(row.letter) && isDay(row.letterDate))).toBe(true);
    const letters = new Set(customerRows.map((row) => row.letter));
    expect(letters.size).toBe(4);
    for (const letter of letters) expect(net(customerRows.filter((row) => row.letter === letter))).toBe(0);
  });
});
