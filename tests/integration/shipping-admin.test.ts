import fs from "node:fs";
import path from "node:path";
import { asc, eq, sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { orders, shippingMethods } from "~/db/schema";
import { type Auth, createAuth } from "~/lib/auth.server";
import type { AppContext } from "~/lib/context";
import * as shippingRoute from "~/routes/admin/shipping";
import { deleteShippingMethod, listShippingMethods, moveShippingMethod, updateShippingMethod } from "~/services/shipping-admin.server";
import { activeShippingMethods } from "~/services/shipping.server";
import { shippingMethodFormSchema } from "~/domain/shipping-method-form";
import { quoteShipping } from "~/domain/shipping";
import { createUserWithPassword } from "~/services/users.server";
import { outcome } from "./route-outcome";
import { databaseLabel, openTestDatabase } from "./test-database";
import { signInAdminWithCode } from "./admin-second-factor";

/**
 * /admin/shipping over a real database, through its action as the server calls it (real
 * sessions): the four methods migration 0014 seeds, create, edit, refusals that write nothing,
 * activate, reorder, delete (or deactivate when orders chose it), and what checkout then reads
 * through activeShippingMethods.
 */
const ORIGIN = "http://shop.test";
const PASSWORD = "Ronflex-2026-secret";

/** A new method as the form posts it. */
const mondial = {
  intent: "save",
  name: "Mondial Relay",
  kind: "relay",
  "country.FR": "on",
  "country.BE": "on",
  "bands.0.upTo": "500",
  "bands.0.from": "",
  "bands.0.price": "3,50",
  "bands.1.upTo": "",
  "bands.1.from": "",
  "bands.1.price": "6,90",
  freeFrom: "49,90",
  deliveryTime: "3 à 4 jours ouvrés",
  active: "on",
};

describe(`/admin/shipping on ${databaseLabel}`, () => {
  let database: Database;
  let auth: Auth;
  let context: AppContext;
  let adminCookie = "";
  let customerCookie = "";

  async function signIn(email: string): Promise<string> {
    const result = await auth.api.signInEmail({ body: { email, password: PASSWORD }, headers: new Headers(), returnHeaders: true });
    return result.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  }

  type Args = Parameters<typeof shippingRoute.action>[0];
  const post = (cookie: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
    outcome(() =>
      shippingRoute.action({
        request: new Request(`${ORIGIN}/admin/shipping`, { method: "POST", headers: { cookie, origin: ORIGIN, ...headers }, body: new URLSearchParams(form) }),
        context,
        params: {},
      } as unknown as Args),
    );
  const load = (cookie: string) =>
    outcome(() =>
      shippingRoute.loader({ request: new Request(`${ORIGIN}/admin/shipping`, { headers: { cookie } }), context, params: {} } as unknown as Parameters<
        typeof shippingRoute.loader
      >[0]),
    );

  const rows = () => database.db.select().from(shippingMethods).orderBy(asc(shippingMethods.position), asc(shippingMethods.id));
  const byName = async (name: string) => (await rows()).find((row) => row.name === name);
  const activeNames = async () => (await activeShippingMethods(database.db)).map((method) => method.name);
  let orderNumber = 0;
  const orderWith = async (method: { id: number; name: string }) =>
    database.db
      .insert(orders)
      .values({
        number: `CPT-200000-${String(++orderNumber).padStart(4, "0")}`,
        subtotalCents: 3000,
        totalCents: 3399,
        paymentProvider: "test",
        status: "paid",
        shippingMethodId: method.id,
        shippingMethodName: method.name,
        shippingCents: 399,
      })
      .returning()
      .then(([row]) => row!);

  beforeAll(async () => {
    database = await openTestDatabase();
    const noMail = async () => {};
    auth = createAuth({
      db: database.db,
      secret: "integration-secret-shipping-admin-0123456789",
      baseUrl: ORIGIN,
      mail: { verification: noMail, existingAccount: noMail, passwordReset: noMail },
    });
    context = { db: database.db, auth, publicUrl: ORIGIN, clientIp: "203.0.113.9", logger: pino({ level: "silent" }) } as unknown as AppContext;
    await createUserWithPassword(database.db, { name: "Vendeur", email: "vendeur@comptoir.test", password: PASSWORD, role: "admin", emailVerified: true });
    await createUserWithPassword(database.db, { name: "Cliente", email: "cliente@example.com", password: PASSWORD, role: "user", emailVerified: true });
    adminCookie = await signInAdminWithCode(auth, "vendeur@comptoir.test", PASSWORD);
    customerCookie = await signIn("cliente@example.com");
  });
  afterAll(async () => {
    await database?.close();
  });

  it("lists the four seeded methods in their order, with the orders that chose each", async () => {
    const relay = (await byName("Point relais"))!;
    await orderWith(relay);
    const page = await load(adminCookie);
    expect(page.status).toBe(200);
    const { methods } = page.body as Awaited<ReturnType<typeof shippingRoute.loader>>;
    // Examples the seller has not checked yet (reviewedAt null: the launch checklist waits for them).
    expect(methods.map((method) => [method.name, method.kind, method.active, method.orderCount, method.reviewedAt])).toEqual([
      ["Lettre suivie", "letter", true, 0, null],
      ["Point relais", "relay", true, 1, null],
      ["Colissimo à domicile", "home", true, 0, null],
      ["Colissimo Europe", "home", true, 0, null],
    ]);
    expect(methods[1]).toMatchObject({ countries: ["FR", "BE", "LU", "NL", "ES"], freeFromCents: 6000, bands: expect.arrayContaining([{ upToGrams: 500, fromSubtotalCents: 0, priceCents: 399 }]) });
    expect(await activeNames()).toEqual(["Lettre suivie", "Point relais", "Colissimo à domicile", "Colissimo Europe"]);
  });

  it("creates a method from the form, last in the list, at once offered to checkout", async () => {
    const created = await post(adminCookie, mondial);
    expect(created).toMatchObject({ status: 200, body: { ok: true, saved: { how: "created" }, toast: { title: "Mode de livraison ajouté", description: "«\u00a0Mondial Relay\u00a0» est proposé aux clients." } } });
    const row = (await byName("Mondial Relay"))!;
    expect((created.body as { saved: { id: number } }).saved.id).toBe(row.id);
    // The seller's own method: reviewed as it is created.
    expect(row.reviewedAt).toEqual(row.createdAt);
    expect(row).toMatchObject({
      kind: "relay",
      countries: ["FR", "BE"],
      bands: [
        { upToGrams: 500, fromSubtotalCents: 0, priceCents: 350 },
        { upToGrams: null, fromSubtotalCents: 0, priceCents: 690 },
      ],
      freeFromCents: 4990,
      deliveryTime: "3 à 4 jours ouvrés",
      active: true,
    });
    expect((await rows()).at(-1)!.id).toBe(row.id);
    expect(row.position).toBeGreaterThan((await byName("Colissimo Europe"))!.position);

    const offered = (await activeShippingMethods(database.db)).find((method) => method.id === row.id)!;
    expect(quoteShipping(offered, { weightGrams: 2_000, goodsCents: 3_000, country: "BE" })).toMatchObject({ priceCents: 690, free: false });
    expect(quoteShipping(offered, { weightGrams: 300, goodsCents: 5_000, country: "FR" })).toMatchObject({ priceCents: 0, free: true });
    expect(quoteShipping(offered, { weightGrams: 300, goodsCents: 3_000, country: "DE" })).toBeNull();

    // Created inactive: kept, not offered.
    expect(await post(adminCookie, { ...mondial, name: "Relais en test", active: "" })).toMatchObject({
      status: 200,
      body: { ok: true, toast: { description: "«\u00a0Relais en test\u00a0» est enregistré, désactivé\u00a0: les clients ne le voient pas encore." } },
    });
    expect(await byName("Relais en test")).toMatchObject({ active: false });
    expect(await activeNames()).not.toContain("Relais en test");
  });

  it("edits the relay's price band and threshold; checkout reads the new figures, its past order keeps its own", async () => {
    const relay = (await byName("Point relais"))!;
    const [order] = await database.db.select().from(orders).where(eq(orders.shippingMethodId, relay.id));
    const form = {
      intent: "save",
      id: String(relay.id),
      name: "Point relais",
      kind: "relay",
      "country.FR": "on",
      "country.BE": "on",
      "country.LU": "on",
      "country.NL": "on",
      "country.ES": "on",
      "bands.0.upTo": "500",
      "bands.0.price": "4,20",
      "bands.1.upTo": "1000",
      "bands.1.price": "4,49",
      "bands.2.upTo": "3000",
      "bands.2.price": "5,99",
      "bands.3.upTo": "10000",
      "bands.3.price": "8,99",
      freeFrom: "50",
      deliveryTime: "3 à 5 jours ouvrés",
      active: "on",
    };
    expect(await post(adminCookie, form)).toMatchObject({
      status: 200,
      body: { ok: true, saved: { id: relay.id, how: "updated" }, toast: { title: "Mode de livraison mis à jour" } },
    });
    const after = (await byName("Point relais"))!;
    expect(after).toMatchObject({ id: relay.id, position: relay.position, freeFromCents: 5000 });
    expect(after.bands[0]).toEqual({ upToGrams: 500, fromSubtotalCents: 0, priceCents: 420 });
    expect(after.updatedAt.getTime()).toBeGreaterThanOrEqual(relay.updatedAt.getTime());
    // An example saved from the form is the seller's from now on.
    expect(relay.reviewedAt).toBeNull();
    expect(after.reviewedAt).toEqual(after.updatedAt);

    const offered = (await activeShippingMethods(database.db)).find((method) => method.id === relay.id)!;
    expect(quoteShipping(offered, { weightGrams: 500, goodsCents: 3_000, country: "FR" })).toMatchObject({ priceCents: 420 });
    expect(quoteShipping(offered, { weightGrams: 500, goodsCents: 5_000, country: "FR" })).toMatchObject({ priceCents: 0, free: true });
    const [kept] = await database.db.select().from(orders).where(eq(orders.id, order!.id));
    expect(kept).toMatchObject({ shippingMethodId: relay.id, shippingMethodName: "Point relais", shippingCents: 399 });
  });

  it("refuses bad input with French messages beside the fields, and writes nothing", async () => {
    const before = await rows();
    const relay = before.find((row) => row.name === "Point relais")!;
    const bad: [Record<string, string>, Record<string, string>][] = [
      [{ name: "" }, { name: "Le nom est obligatoire." }],
      [{ name: "X" }, { name: "Le nom doit faire de 2 à 80 caractères." }],
      [{ kind: "pigeon" }, { kind: "Choisissez le type de livraison." }],
      [{ "country.FR": "", "country.BE": "" }, { countries: "Choisissez au moins un pays de livraison." }],
      [{ "country.US": "on" }, { countries: "La boutique ne livre pas ce pays\u00a0: US." }],
      [{ "bands.0.price": "trois" }, { "bands.0.price": "Indiquez un prix en euros, par exemple 4,99." }],
      [{ "bands.0.price": "-2" }, { "bands.0.price": "Indiquez un prix en euros, par exemple 4,99." }],
      [{ "bands.1.upTo": "500" }, { "bands.1.upTo": expect.stringContaining("Une autre tranche a déjà ce poids maximal (500\u00a0g)") }],
      [{ "bands.0.upTo": "", "bands.0.price": "", "bands.1.price": "" }, { bands: "Ajoutez au moins une tranche de prix." }],
      [{ freeFrom: "cinquante" }, { freeFrom: "Indiquez un montant en euros, par exemple 60 ou 49,90, ou laissez vide." }],
      [{ deliveryTime: "x".repeat(81) }, { deliveryTime: "Le délai fait 80 caractères au plus." }],
    ];
    for (const [change, errors] of bad) {
      for (const id of [undefined, String(relay.id)]) {
        const form = { ...mondial, ...(id ? { id } : {}), ...change };
        const answer = await post(adminCookie, form);
        expect(answer, JSON.stringify(change)).toMatchObject({
          status: 400,
          body: { ok: false, errors, toast: { title: "Formulaire incomplet", description: "Veuillez corriger les erreurs dans le formulaire." } },
        });
      }
    }
    const forged: Record<string, string>[] = [
      { intent: "nope" },
      { intent: "save", id: "abc", ...without(mondial, "intent") },
      { intent: "toggle", id: String(relay.id), active: "peut-être" },
      { intent: "toggle", active: "false" },
      { intent: "move", id: String(relay.id), direction: "sideways" },
      { intent: "delete", id: "0" },
      { intent: "delete", id: "99999999999" },
    ];
    for (const form of forged) {
      expect(await post(adminCookie, form), JSON.stringify(form)).toMatchObject({ status: 400, body: { ok: false, toast: { title: "Erreur", description: "Requête invalide." } } });
    }
    const gone: Record<string, string>[] = [
      { intent: "toggle", id: "424242", active: "false" },
      { intent: "delete", id: "424242" },
      { intent: "move", id: "424242", direction: "up" },
      { ...mondial, id: "424242" },
    ];
    for (const form of gone) {
      expect(await post(adminCookie, form), JSON.stringify(form)).toMatchObject({ status: 404, body: { ok: false, toast: { description: expect.stringContaining("n'existe plus") } } });
    }
    expect(await rows()).toEqual(before);
  });

  it("refuses a customer's and a stranger's posts (403, 401) and a cross-site post, writing nothing", async () => {
    const before = await rows();
    const relay = before.find((row) => row.name === "Point relais")!;
    const attempts: Record<string, string>[] = [
      mondial,
      { ...mondial, id: String(relay.id) },
      { intent: "toggle", id: String(relay.id), active: "false" },
      { intent: "move", id: String(relay.id), direction: "up" },
      { intent: "delete", id: String(relay.id) },
    ];
    for (const form of attempts) {
      expect(await post(customerCookie, form), `customer ${form.intent}`).toMatchObject({ status: 403, body: { error: "Accès refusé." } });
      expect(await post("", form), `stranger ${form.intent}`).toMatchObject({ status: 401 });
      expect(await post(adminCookie, form, { origin: "https://evil.example" }), `cross-site ${form.intent}`).toMatchObject({ status: 403 });
    }
    expect(await load(customerCookie)).toMatchObject({ status: 302, location: "/admin/unauthorized" });
    expect(await load("")).toMatchObject({ status: 302, location: "/admin/login" });
    expect(await rows()).toEqual(before);
  });

  it("deactivates and activates a method: checkout stops and starts offering it", async () => {
    const letter = (await byName("Lettre suivie"))!;
    expect(await post(adminCookie, { intent: "toggle", id: String(letter.id), active: "false" })).toMatchObject({
      status: 200,
      body: { ok: true, toast: { title: "Mode de livraison désactivé" } },
    });
    expect(await activeNames()).not.toContain("Lettre suivie");
    expect(await post(adminCookie, { intent: "toggle", id: String(letter.id), active: "true" })).toMatchObject({ status: 200, body: { toast: { title: "Mode de livraison activé" } } });
    expect(await activeNames()).toContain("Lettre suivie");
    // Switched off and on, an example is still one: its rates were never checked.
    expect(await byName("Lettre suivie")).toMatchObject({ reviewedAt: null });
  });

  it("moves a method up and down; the ends stay put; checkout reads the new order", async () => {
    const names = async () => (await rows()).map((row) => row.name);
    const start = await names();
    expect(start.slice(0, 4)).toEqual(["Lettre suivie", "Point relais", "Colissimo à domicile", "Colissimo Europe"]);
    const home = (await byName("Colissimo à domicile"))!;

    expect(await post(adminCookie, { intent: "move", id: String(home.id), direction: "up" })).toMatchObject({
      status: 200,
      body: { ok: true, intent: "move", announce: `«\u00a0Colissimo à domicile\u00a0» est en position 2 sur ${start.length}.` },
    });
    expect((await names()).slice(0, 3)).toEqual(["Lettre suivie", "Colissimo à domicile", "Point relais"]);
    await post(adminCookie, { intent: "move", id: String(home.id), direction: "up" });
    expect((await names()).slice(0, 3)).toEqual(["Colissimo à domicile", "Lettre suivie", "Point relais"]);
    // Already first: nothing moves.
    expect(await moveShippingMethod(database.db, home.id, "up")).toMatchObject({ outcome: "unchanged" });
    expect((await names()).slice(0, 3)).toEqual(["Colissimo à domicile", "Lettre suivie", "Point relais"]);
    expect((await activeShippingMethods(database.db))[0]!.name).toBe("Colissimo à domicile");

    const last = (await rows()).at(-1)!;
    expect(await moveShippingMethod(database.db, last.id, "down")).toMatchObject({ outcome: "unchanged" });
    await post(adminCookie, { intent: "move", id: String(home.id), direction: "down" });
    expect((await names()).slice(0, 3)).toEqual(["Lettre suivie", "Colissimo à domicile", "Point relais"]);
    // Positions are 1, 2, 3… afterwards, even from equal ones.
    await database.db.update(shippingMethods).set({ position: 7 });
    const tied = await names(); // equal positions: by id
    await moveShippingMethod(database.db, last.id, "up");
    const after = await rows();
    expect(after.map((row) => row.position)).toEqual(after.map((_, index) => index + 1));
    expect(after.map((row) => row.name)).toEqual([...tied.slice(0, -2), tied.at(-1), tied.at(-2)]);
  });

  it("deletes a method no order chose; one that orders chose is deactivated instead, its orders untouched", async () => {
    const trial = (await byName("Relais en test"))!;
    expect(await post(adminCookie, { intent: "delete", id: String(trial.id) })).toMatchObject({
      status: 200,
      body: { ok: true, toast: { title: "Mode de livraison supprimé", description: "«\u00a0Relais en test\u00a0» a été supprimé." } },
    });
    expect(await byName("Relais en test")).toBeUndefined();

    const mondialRow = (await byName("Mondial Relay"))!;
    const order = await orderWith(mondialRow);
    await orderWith(mondialRow);
    expect(await post(adminCookie, { intent: "delete", id: String(mondialRow.id) })).toMatchObject({
      status: 200,
      body: {
        ok: true,
        toast: { title: "Mode de livraison désactivé", description: "«\u00a0Mondial Relay\u00a0» a servi pour 2 commandes\u00a0: il reste dans la liste pour leur historique, désactivé." },
      },
    });
    expect(await byName("Mondial Relay")).toMatchObject({ id: mondialRow.id, active: false });
    expect(await activeNames()).not.toContain("Mondial Relay");
    const [kept] = await database.db.select().from(orders).where(eq(orders.id, order.id));
    expect(kept).toMatchObject({ shippingMethodId: mondialRow.id, shippingMethodName: "Mondial Relay" });
    expect((await listShippingMethods(database.db)).find((row) => row.id === mondialRow.id)).toMatchObject({ orderCount: 2, active: false });
    // Again: still there, still inactive.
    expect(await deleteShippingMethod(database.db, mondialRow.id)).toMatchObject({ outcome: "deactivated", orderCount: 2 });
    expect(await deleteShippingMethod(database.db, 987_654)).toEqual({ outcome: "missing" });
  });

  it("saves the values the schema gives as they are (service level), and says when the method is gone", async () => {
    const values = shippingMethodFormSchema.parse({ ...mondial, name: "Lettre verte", kind: "letter", "bands.1.price": "", "bands.1.upTo": "" });
    const letter = (await byName("Lettre suivie"))!;
    const saved = await updateShippingMethod(database.db, letter.id, values);
    expect(saved).toMatchObject({ id: letter.id, name: "Lettre verte", kind: "letter", bands: [{ upToGrams: 500, fromSubtotalCents: 0, priceCents: 350 }] });
    expect(await updateShippingMethod(database.db, 987_654, values)).toBeNull();
  });

  it("migration 0031 counts as checked, in a shop that already runs, every method but the examples left as they came", async () => {
    const [, backfill] = fs.readFileSync(path.join(import.meta.dirname, "../../drizzle/0031_shipping_methods_reviewed.sql"), "utf8").split("--> statement-breakpoint");
    const seededAt = new Date("2026-01-05T10:00:00Z");
    const later = new Date("2026-02-01T09:00:00Z");
    // The table as it stood before 0031: every method as 0014 or the seller made it, no reviewed_at.
    await database.db.update(shippingMethods).set({ createdAt: seededAt, updatedAt: seededAt, reviewedAt: null });
    await database.db.update(shippingMethods).set({ updatedAt: later }).where(eq(shippingMethods.name, "Point relais")); // an example edited since
    // A method the seller added (never edited since).
    await database.db
      .insert(shippingMethods)
      .values({ name: "Retrait en boutique", kind: "home", countries: ["FR"], bands: [{ upToGrams: null, fromSubtotalCents: 0, priceCents: 0 }], createdAt: later, updatedAt: later });
    await database.db.execute(sql.raw(backfill!));
    const reviewed = Object.fromEntries((await rows()).map((row) => [row.name, row.reviewedAt]));
    // Two examples never touched wait; one edited, one renamed (« Lettre verte ») and the seller's own are checked.
    expect(reviewed).toEqual({
      "Colissimo à domicile": null,
      "Colissimo Europe": null,
      "Point relais": later,
      "Lettre verte": seededAt,
      "Mondial Relay": seededAt,
      "Retrait en boutique": later,
    });
  });
});

function without(input: Record<string, string>, ...keys: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(input).filter(([key]) => !keys.includes(key)));
}
