import { randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { invoices, orders, products } from "~/db/schema";
import type { BusinessPurchase } from "~/domain/business-purchase";
import type { DayFigures } from "~/domain/e-reporting";
import type { InvoiceSnapshot } from "~/domain/invoice";
import { type Auth, createAuth } from "~/lib/auth.server";
import type { AppContext } from "~/lib/context";
import * as csvRoute from "~/routes/admin/exports-e-reporting";
import * as apiRoute from "~/routes/api.e-reporting";
import { getAdminOrder, refundPartOfAdminOrder } from "~/services/admin-orders.server";
import type { CheckoutContext } from "~/services/checkout.server";
import { createTestProvider, type TestProvider } from "~/services/payments/test-provider.server";
import { createUserWithPassword } from "~/services/users.server";
import { signInAdminWithCode } from "./admin-second-factor";
import { checkoutAndPay } from "./paid-checkout";
import { databaseLabel, openTestDatabase } from "./test-database";

/**
 * E-reporting (docs/decisions/053) on a real database: a consumer's order and a professional
 * buyer's, paid the same Paris day, a second consumer order paid at 00:30 Paris the next day, the
 * first two each partly refunded two days later. The daily figures must be the consumer
 * documents' own (read here from the invoices table, summed by the test), the professional
 * buyer's never in them, each refund on its credit note's day; the JSON endpoint refuses without
 * an admin session or the token, and says what the CSV says.
 */
const ORIGIN = "http://shop.test";
const PASSWORD = "Ronflex-2026-secret";
const TOKEN = "e-reporting-token-of-the-platform-0123456789";
const ADMIN_EMAIL = "vendeuse@comptoir.test";
const deps = (at: string) => ({ shop: { name: "Comptoir", email: "contact@comptoir.example", publicUrl: "https://comptoir.example" }, sellerEmail: "vendeur@comptoir.example", now: () => new Date(at) });
const company: BusinessPurchase = { companyName: "Le Repaire du Joueur", siren: "732829320", vatNumber: "FR44732829320", country: "FR" };

/** What the test expects of one Paris day, summed from the documents themselves. */
type Expected = { documents: number; inclVatCents: number; marginSchemeCents: number; rates: Map<number, { exclVatCents: number; vatCents: number }> };

describe(`e-reporting on ${databaseLabel}`, () => {
  let database: Database;
  let provider: TestProvider;
  let auth: Auth;
  let context: AppContext;
  let adminId = "";
  let adminCookie = "";
  let customerCookie = "";
  let n = 0;
  const db = () => database.db;
  const ctx = (at: string): CheckoutContext => ({ now: new Date(at), customer: null, clientIp: `198.51.100.${++n}`, orderPrefix: "CPT", origin: ORIGIN, reservationMinutes: 45 });

  async function product(values: Partial<typeof products.$inferInsert>) {
    const [row] = await db().insert(products).values({ title: `Booster ${++n}`, priceCents: 650, stock: 10, category: "TCG", subCategory: "Scellés", ...values }).returning();
    return row!;
  }

  /** A booster (20 %), a manga (5,5 %) and a used card (margin scheme), paid at `paidAt`; a company's when `business`. */
  async function paidOrder(paidAt: string, business: boolean) {
    const booster = await product({ priceCents: 650 });
    const manga = await product({ title: `One Piece – Tome ${++n}`, priceCents: 715, category: "Gaming & Mangas", subCategory: "Manga" });
    const used = await product({ title: `Dracaufeu occasion ${++n}`, priceCents: 4_000, subCategory: "Cartes", vatScheme: "margin" });
    const items = [{ productId: booster.id, quantity: 3 }, { productId: manga.id, quantity: 1 }, { productId: used.id, quantity: 1 }];
    return checkoutAndPay(db(), provider, items, {
      ctx: ctx(paidAt),
      deps: deps(paidAt),
      intent: `pi_${randomUUID()}`,
      beforePayment: business ? (orderId) => db().update(orders).set({ businessBuyer: company }).where(eq(orders.id, orderId)).then(() => undefined) : undefined,
    });
  }

  /** Gives back `quantity` of the order's line named `prefix…` at `at`, through the admin's partial refund. */
  async function refundLine(number: string, prefix: string, quantity: number, at: string) {
    const line = (await getAdminOrder(db(), number))!.refundable.lines.find((candidate) => candidate.name.startsWith(prefix))!;
    const result = await refundPartOfAdminOrder(db(), provider, number, { intent: "partial-refund", requestKey: randomUUID(), [`qty:${line.id}`]: String(quantity) }, adminId, deps(at));
    expect(result).toMatchObject({ ok: true });
  }

  /** The test's own sum of the consumer documents of one kind issued on a Paris day (`issuedOn` gives each document's day). */
  async function expectedDay(day: string, kind: "invoice" | "credit_note", issuedOn: Map<string, string>): Promise<Expected> {
    const rows = await db().select({ number: invoices.number, kind: invoices.kind, snapshot: invoices.snapshot, business: orders.businessBuyer }).from(invoices).innerJoin(orders, eq(orders.id, invoices.orderId)).orderBy(asc(invoices.number));
    const expected: Expected = { documents: 0, inclVatCents: 0, marginSchemeCents: 0, rates: new Map() };
    for (const row of rows) {
      if (row.kind !== kind || row.business !== null || issuedOn.get(row.number) !== day) continue;
      const snapshot = row.snapshot as InvoiceSnapshot;
      expected.documents += 1;
      expected.inclVatCents += snapshot.totals.inclVatCents;
      expected.marginSchemeCents += snapshot.totals.marginSchemeCents;
      for (const vat of snapshot.vatBreakdown) {
        const rate = expected.rates.get(vat.rateBp) ?? { exclVatCents: 0, vatCents: 0 };
        expected.rates.set(vat.rateBp, { exclVatCents: rate.exclVatCents + vat.baseCents, vatCents: rate.vatCents + vat.vatCents });
      }
    }
    return expected;
  }

  const matches = (figures: DayFigures, expected: Expected) => {
    expect(figures.documents).toBe(expected.documents);
    expect(figures.inclVatCents).toBe(expected.inclVatCents);
    expect(figures.marginScheme.inclVatCents).toBe(expected.marginSchemeCents);
    expect(figures.frenchVat.rates).toEqual([...expected.rates].sort((a, b) => b[0] - a[0]).map(([rateBp, rate]) => ({ rateBp, ...rate })));
    expect(figures.frenchVat.exclVatCents + figures.frenchVat.vatCents + figures.marginScheme.inclVatCents).toBe(figures.inclVatCents);
  };

  const api = async (query: string, headers: Record<string, string>) => {
    const args = { request: new Request(`${ORIGIN}/api/e-reporting?${query}`, { headers }), context, params: {} } as unknown as Parameters<typeof apiRoute.loader>[0];
    try {
      return await apiRoute.loader(args);
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      // requireAdmin's refusals: data() with a status.
      const refusal = thrown as { type?: string; data: unknown; init: { status: number } };
      if (refusal.type === "DataWithResponseInit") return Response.json(refusal.data, { status: refusal.init.status });
      throw thrown;
    }
  };

  let consumer: typeof orders.$inferSelect;
  let business: typeof orders.$inferSelect;
  let lateConsumer: typeof orders.$inferSelect;
  /** Each document's Paris day, as the test dated it. */
  const issuedOn = new Map<string, string>();

  beforeAll(async () => {
    database = await openTestDatabase();
    provider = createTestProvider({ db: database.db, secret: "e-reporting-test-provider-secret" });
    const noMail = async () => {};
    auth = createAuth({ db: database.db, secret: "integration-secret-e-reporting-0123456789", baseUrl: ORIGIN, mail: { verification: noMail, existingAccount: noMail, passwordReset: noMail } });
    context = { db: database.db, auth, publicUrl: ORIGIN, clientIp: "203.0.113.9", logger: pino({ level: "silent" }), eReportingToken: TOKEN } as unknown as AppContext;
    ({ id: adminId } = await createUserWithPassword(database.db, { name: "Vendeuse", email: ADMIN_EMAIL, password: PASSWORD, role: "admin", emailVerified: true }));
    await createUserWithPassword(database.db, { name: "Client", email: "client@example.com", password: PASSWORD, role: "user", emailVerified: true });
    adminCookie = await signInAdminWithCode(auth, ADMIN_EMAIL, PASSWORD);
    const signedIn = await auth.api.signInEmail({ body: { email: "client@example.com", password: PASSWORD }, headers: new Headers(), returnHeaders: true });
    customerCookie = signedIn.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");

    // 3 November 2026 in Paris (UTC+1): the consumer at 11:00, the company at 12:00; another consumer at 00:30 on the 4th.
    consumer = await paidOrder("2026-11-03T10:00:00Z", false);
    business = await paidOrder("2026-11-03T11:00:00Z", true);
    lateConsumer = await paidOrder("2026-11-03T23:30:00Z", false);
    // The 5th: one booster of each of the first two comes back, then the consumer's used card.
    await refundLine(consumer.number, "Booster", 1, "2026-11-05T09:00:00Z");
    await refundLine(business.number, "Booster", 1, "2026-11-05T09:30:00Z");
    await refundLine(consumer.number, "Dracaufeu", 1, "2026-11-05T10:00:00Z");
    for (const document of await db().select({ number: invoices.number, issuedAt: invoices.issuedAt }).from(invoices)) {
      issuedOn.set(document.number, new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Paris" }).format(document.issuedAt));
    }
  });
  afterAll(async () => {
    await database?.close();
  });

  it("adds up each day's consumer invoices and credit notes as the documents say, the company's left out, refunds on their day", async () => {
    expect((await db().select({ businessBuyer: orders.businessBuyer }).from(orders).where(eq(orders.id, business.id)))[0]!.businessBuyer).toEqual(company);
    const answer = await api("from=2026-11-01&to=2026-11-30", { cookie: adminCookie });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Cache-Control")).toBe("no-store");
    const json = (await answer.json()) as { format: number; from: string; to: string; days: { date: string; sales: DayFigures; refunds: DayFigures }[] };
    expect(json).toMatchObject({ format: 1, from: "2026-11-01", to: "2026-11-30" });
    expect(json.days.map((day) => [day.date, day.sales.documents, day.refunds.documents])).toEqual([
      ["2026-11-03", 1, 0],
      ["2026-11-04", 1, 0],
      ["2026-11-05", 0, 2],
    ]);
    for (const day of json.days) {
      matches(day.sales, await expectedDay(day.date, "invoice", issuedOn));
      matches(day.refunds, await expectedDay(day.date, "credit_note", issuedOn));
    }
    // The 3rd is the consumer's invoice alone, to the cent: the company's, paid the same day, is not in it.
    const [consumerInvoice] = await db().select({ snapshot: invoices.snapshot }).from(invoices).where(eq(invoices.orderId, consumer.id)).orderBy(asc(invoices.sequence));
    const [businessInvoice] = await db().select({ snapshot: invoices.snapshot }).from(invoices).where(eq(invoices.orderId, business.id)).orderBy(asc(invoices.sequence));
    expect(businessInvoice!.snapshot.issuedAt.slice(0, 10)).toBe("2026-11-03");
    expect(json.days[0]!.sales.inclVatCents).toBe(consumerInvoice!.snapshot.totals.inclVatCents);
    expect(json.days[0]!.sales.inclVatCents).toBe(consumer.totalCents);
    expect(json.days[1]!.sales.inclVatCents).toBe(lateConsumer.totalCents);
    // The refunds of the 5th: the consumer's booster (20 %) and used card (margin scheme), negative; not the company's booster.
    const refunds = json.days[2]!.refunds;
    expect(refunds.marginScheme).toEqual({ documents: 1, inclVatCents: -4_000 });
    expect(refunds.inclVatCents).toBe(-650 - 4_000);
    expect(refunds.frenchVat.rates.map((rate) => rate.rateBp)).toEqual([2000]);
  });

  it("answers the same figures as the CSV of the month", async () => {
    const csvAnswer = (await csvRoute.loader({ request: new Request(`${ORIGIN}/admin/exports/e-reporting.csv?year=2026&month=11`, { headers: { cookie: adminCookie } }), context, params: {} } as unknown as Parameters<
      typeof csvRoute.loader
    >[0])) as Response;
    expect(csvAnswer.status).toBe(200);
    expect(csvAnswer.headers.get("Content-Disposition")).toBe('attachment; filename="e-reporting-comptoir-2026-11.csv"');
    const [header, ...lines] = (await csvAnswer.text()).replace(/^\uFEFF/, "").trim().split("\r\n").map((line) => line.split(";"));
    const json = (await (await api("from=2026-11-01&to=2026-11-30", { authorization: `Bearer ${TOKEN}` })).json()) as { days: { date: string; sales: DayFigures; refunds: DayFigures }[] };
    const cents = (text: string) => Math.round(Number(text.replace(",", ".")) * 100);
    const column = (name: string) => header!.indexOf(name);
    const expectedLines = json.days.flatMap((day) => [...(day.sales.documents ? [["Ventes", day.sales] as const] : []), ...(day.refunds.documents ? [["Remboursements", day.refunds] as const] : [])].map(([nature, figures]) => ({ date: day.date, nature, figures })));
    expect(lines).toHaveLength(expectedLines.length);
    expectedLines.forEach(({ date, nature, figures }, i) => {
      const line = lines[i]!;
      expect([line[0], line[1], Number(line[2])]).toEqual([date, nature, figures.documents]);
      expect(cents(line[column("Total TTC")]!)).toBe(figures.inclVatCents);
      expect(cents(line[column("Biens d'occasion, régime de la marge (TTC)")]!)).toBe(figures.marginScheme.inclVatCents);
      for (const [rateBp, label] of [[2000, "20"], [550, "5,5"]] as const) {
        const rate = figures.frenchVat.rates.find((candidate) => candidate.rateBp === rateBp);
        expect(cents(line[column(`Base HT ${label} %`)]!)).toBe(rate?.exclVatCents ?? 0);
        expect(cents(line[column(`TVA ${label} %`)]!)).toBe(rate?.vatCents ?? 0);
      }
    });
  });

  it("refuses without an admin session or the token, and a range it cannot read, in French", async () => {
    const query = "from=2026-11-01&to=2026-11-30";
    expect((await api(query, {})).status).toBe(401);
    expect((await api(query, { cookie: customerCookie })).status).toBe(403);
    const wrong = await api(query, { authorization: `Bearer ${TOKEN.slice(0, -1)}x` });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("WWW-Authenticate")).toBe('Bearer realm="e-reporting"');
    // A wrong token is refused even alongside an admin's session.
    expect((await api(query, { cookie: adminCookie, authorization: "Bearer nope" })).status).toBe(401);
    const bad = await api("from=2026-11-31&to=2026-12-01", { authorization: `Bearer ${TOKEN}` });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: "Date de début invalide : écrivez-la AAAA-MM-JJ, par exemple 2027-09-01." });
    // Without E_REPORTING_TOKEN configured, no token opens it.
    const untokened = { ...context, eReportingToken: null } as AppContext;
    const answer = await apiRoute.loader({ request: new Request(`${ORIGIN}/api/e-reporting?${query}`, { headers: { authorization: "Bearer " } }), context: untokened, params: {} } as unknown as Parameters<typeof apiRoute.loader>[0]).catch((thrown: Response) => thrown);
    expect(answer.status).toBe(401);
  });
});
