import { and, eq } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { products, users, wishlistItems } from "~/db/schema";
import { WISHLIST_PRICE_INVALID, WISHLIST_PRODUCT_UNKNOWN, WISHLIST_SIGNED_OUT } from "~/domain/wishlist";
import { WISHLIST_ALERT_CONSENT_TEXT } from "~/domain/wishlist-consent";
import type { AppContext } from "~/lib/context";
import * as listRoute from "~/routes/account-wishlist";
import * as apiRoute from "~/routes/api.wishlist";
import { setEmailChoice } from "~/services/email-choices.server";
import { eraseUser, exportUserData } from "~/services/gdpr.server";
import { createUserWithPassword } from "~/services/users.server";
import { WISHLIST_MAX_ITEMS, listWishlist } from "~/services/wishlist.server";
import { outcome } from "./route-outcome";
import { databaseLabel, openTestDatabase } from "./test-database";
import { testAuth } from "./route-context";

/**
 * The customer's wish list (issue 56, point 3) on a real database: the hearts' endpoint (signed
 * out, cross-site, bad input, unknown product), the list page with live price and stock, the
 * alert choices with the euro figure checked by the form's schema, and the GDPR export and erasure.
 */
const ORIGIN = "https://comptoir.example";
const PASSWORD = "Pikachu-2026-secret";

describe(`wish list on ${databaseLabel}`, () => {
  let database: Database;
  let context: AppContext;
  let n = 0;

  beforeAll(async () => {
    database = await openTestDatabase();
    context = {
      db: database.db,
      shop: { name: "Comptoir", email: "contact@comptoir.example", socials: [], legal: {} },
      publicUrl: ORIGIN,
      nonce: "",
      logger: pino({ level: "silent" }),
      storage: { publicBaseUrl: "/images" },
      auth: testAuth(database.db, ORIGIN),
      clientIp: "203.0.113.9",
    } as unknown as AppContext;
  });
  afterAll(() => database?.close());

  async function customer() {
    const email = `liste-${++n}@example.com`;
    const { id } = await createUserWithPassword(database.db, { name: `Collectionneur ${n}`, email, password: PASSWORD, role: "user", emailVerified: true });
    const signIn = await context.auth.api.signInEmail({ body: { email, password: PASSWORD }, headers: new Headers(), returnHeaders: true });
    return { id, email, cookie: signIn.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ") };
  }
  async function product(values: Partial<typeof products.$inferInsert> = {}) {
    const [row] = await database.db.insert(products).values({ title: `Carte guettée ${++n}`, priceCents: 4_990, stock: 0, category: "TCG", subCategory: "Cartes à l'unité", ...values }).returning();
    return row!;
  }
  /** A form of /account/liste, posted. */
  const post = (body: Record<string, string>, headers: Record<string, string>) =>
    outcome(() =>
      listRoute.action({
        request: new Request(`${ORIGIN}/account/liste`, { method: "POST", body: new URLSearchParams(body), headers: { "content-type": "application/x-www-form-urlencoded", ...headers } }),
        context,
        params: {},
      } as never),
    );
  /** POST /api/wishlist as the heart sends it; its Response. */
  const heart = (productId: number | string, intent: string, headers: Record<string, string>) =>
    apiRoute.action({
      request: new Request(`${ORIGIN}/api/wishlist`, { method: "POST", body: new URLSearchParams({ productId: String(productId), intent }), headers }),
      context,
      params: {},
    } as never) as Promise<Response>;
  const ids = async (cookie: string) => {
    const response = (await apiRoute.loader({ request: new Request(`${ORIGIN}/api/wishlist`, { headers: { cookie } }), context, params: {} } as never)) as Response;
    // One person's list: never kept by the page cache nor a shared proxy.
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    return { status: response.status, body: (await response.json()) as { productIds?: number[]; error?: string } };
  };

  it("adds and removes through the hearts' endpoint, and refuses what it must in French", async () => {
    const { cookie } = await customer();
    const soldOut = await product();
    const sameSite = { cookie, origin: ORIGIN };

    expect(await ids("")).toEqual({ status: 401, body: { error: WISHLIST_SIGNED_OUT } });
    expect((await heart(soldOut.id, "add", { origin: ORIGIN })).status).toBe(401);
    expect((await heart(soldOut.id, "add", { cookie, origin: "https://evil.example" })).status).toBe(403);

    expect((await heart(soldOut.id, "add", sameSite)).status).toBe(200);
    // Twice is once.
    expect((await heart(soldOut.id, "add", sameSite)).status).toBe(200);
    expect(await ids(cookie)).toEqual({ status: 200, body: { productIds: [soldOut.id] } });

    const bad = await heart("abc", "add", sameSite);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: WISHLIST_PRODUCT_UNKNOWN });
    const gone = await heart((await product({ status: "hors_ligne" })).id, "add", sameSite);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({ error: WISHLIST_PRODUCT_UNKNOWN });

    expect((await heart(soldOut.id, "remove", sameSite)).status).toBe(200);
    expect((await ids(cookie)).body.productIds).toEqual([]);
  });

  it("refuses a product past the list's limit, with a 409 in French", async () => {
    const { id, cookie } = await customer();
    const many = await database.db
      .insert(products)
      .values(Array.from({ length: WISHLIST_MAX_ITEMS }, (_, i) => ({ title: `Carte en série ${n}-${i}`, priceCents: 100, stock: 1, category: "TCG" as const, subCategory: "Cartes à l'unité" })))
      .returning({ id: products.id });
    await database.db.insert(wishlistItems).values(many.map((p) => ({ userId: id, productId: p.id })));
    const refused = await heart((await product()).id, "add", { cookie, origin: ORIGIN });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ error: `Votre liste compte déjà ${WISHLIST_MAX_ITEMS} produits : retirez-en un pour en ajouter un autre.` });
    // One already there is no new line: adding it again is not refused.
    expect((await heart(many[0]!.id, "add", { cookie, origin: ORIGIN })).status).toBe(200);
  });

  it("lists each product as it is now, and saves its alerts with the figure in euros", async () => {
    const { id, email, cookie } = await customer();
    const soldOut = await product({ priceCents: 12_000 });
    const inStock = await product({ stock: 4, priceCents: 2_500 });
    const coming = await product({ status: "a_venir", dropTime: new Date(Date.now() + 86_400_000) });
    for (const p of [soldOut, inStock, coming]) await database.db.insert(wishlistItems).values({ userId: id, productId: p.id });
    // The price the seller sets after the add is the one shown.
    await database.db.update(products).set({ priceCents: 9_900 }).where(eq(products.id, soldOut.id));

    const page = await outcome(() => listRoute.loader({ request: new Request(`${ORIGIN}/account/liste`, { headers: { cookie } }), context, params: {} } as never));
    const { items, alertsOn } = page.body as Awaited<ReturnType<typeof listRoute.loader>>;
    expect(alertsOn).toBe(true);
    const line = (productId: number) => items.find((item) => item.productId === productId);
    // Added, its alerts are off: the customer switches them on here, beside their wording.
    expect(line(soldOut.id)).toMatchObject({ priceCents: 9_900, state: "sold-out", alertRestock: false, alertDrop: false, priceBelowCents: null });
    expect(line(inStock.id)).toMatchObject({ state: "available", stock: 4 });
    expect(line(coming.id)).toMatchObject({ state: "coming" });
    expect((await outcome(() => listRoute.loader({ request: new Request(`${ORIGIN}/account/liste`), context, params: {} } as never))).location).toBe("/login");

    const sameSite = { cookie, origin: ORIGIN };
    const wrong = await post({ productId: String(soldOut.id), alertRestock: "on", priceBelow: "douze" }, sameSite);
    expect(wrong).toMatchObject({ status: 400, body: { errors: { priceBelow: WISHLIST_PRICE_INVALID } } });
    const stored = async () => (await listWishlist(database.db, id, { now: new Date(), imageBaseUrl: "" })).find((l) => l.productId === soldOut.id);
    expect(await stored()).toMatchObject({ alertRestock: false, priceBelowCents: null });
    const saved = await post({ productId: String(soldOut.id), alertRestock: "on", priceBelow: "85,50" }, sameSite);
    expect(saved).toMatchObject({ status: 200, body: { saved: true } });
    expect(await stored()).toMatchObject({ alertRestock: true, alertDrop: false, priceBelowCents: 8_550 });
    const [consent] = await database.db.select({ text: wishlistItems.consentText, at: wishlistItems.consentedAt }).from(wishlistItems).where(and(eq(wishlistItems.userId, id), eq(wishlistItems.productId, soldOut.id)));
    expect(consent).toEqual({ text: WISHLIST_ALERT_CONSENT_TEXT, at: expect.any(Date) });
    const notListed = await post({ productId: String(await product().then((p) => p.id)) }, sameSite);
    expect(notListed).toMatchObject({ status: 404, body: { errors: { form: WISHLIST_PRODUCT_UNKNOWN } } });
    expect((await post({ productId: String(soldOut.id) }, { cookie, origin: "https://evil.example" })).status).toBe(403);

    expect(await post({ productId: String(inStock.id), intent: "remove" }, sameSite)).toMatchObject({ status: 200 });
    expect((await listWishlist(database.db, id, { now: new Date(), imageBaseUrl: "" })).map((l) => l.productId).sort()).toEqual([soldOut.id, coming.id].sort());

    // Alerts switched off in /account/notifications: the page says so.
    await setEmailChoice(database.db, email, "stock-alerts", false);
    const off = await outcome(() => listRoute.loader({ request: new Request(`${ORIGIN}/account/liste`, { headers: { cookie } }), context, params: {} } as never));
    expect((off.body as { alertsOn: boolean }).alertsOn).toBe(false);
  });

  it("is in the account's data export, and gone after its erasure", async () => {
    const { id } = await customer();
    const [admin] = await database.db.insert(users).values({ id: `admin-liste-${++n}`, name: "Admin", email: `admin-liste-${n}@comptoir.test`, role: "admin", emailVerified: true }).returning();
    const wanted = await product({ title: "Dracaufeu guetté" });
    await database.db.insert(wishlistItems).values({ userId: id, productId: wanted.id, alertRestock: true, priceBelowCents: 30_000, consentText: "Je serai prévenu…", consentedAt: new Date() });

    const exported = await exportUserData(database.db, id);
    expect(exported?.wishlist).toEqual([expect.objectContaining({ product: "Dracaufeu guetté", alertRestock: true, alertDrop: false, priceBelowCents: 30_000, consentText: "Je serai prévenu…", consentedAt: expect.any(Date) })]);

    expect(await eraseUser(database.db, { actorId: admin!.id, targetId: id })).toMatchObject({ outcome: "erased" });
    expect(await database.db.select().from(wishlistItems).where(eq(wishlistItems.userId, id))).toEqual([]);
  });
});
