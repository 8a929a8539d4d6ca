import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { customerAddresses, products, rateLimits, shippingMethods } from "~/db/schema";
import { type AddressBookEntry, MAX_ADDRESSES_PER_KIND } from "~/domain/customer-addresses";
import type { AppContext } from "~/lib/context";
import * as addressesRoute from "~/routes/account-addresses";
import * as paymentRoute from "~/routes/payment-test";
import { type CheckoutContext, startCheckout } from "~/services/checkout.server";
import { addCustomerAddress, deleteCustomerAddress, listCustomerAddresses, setDefaultCustomerAddress, updateCustomerAddress } from "~/services/customer-addresses.server";
import { eraseUser, exportUserData } from "~/services/gdpr.server";
import { createTestProvider, type TestProvider } from "~/services/payments/test-provider.server";
import { createUserWithPassword } from "~/services/users.server";
import { outcome } from "./route-outcome";
import { databaseLabel, openTestDatabase } from "./test-database";
import { checkoutRouteContext, testAuth } from "./route-context";

/**
 * The address book (issue 56, point 1, docs/decisions/064) on a real database: CRUD through the
 * page's action with the checkout's schemas (French messages, 4xx, nothing written), one default
 * per kind even when two requests set it at once, another customer's id answered 404 and never
 * changed, and the payment page saving an address only when its box is ticked, by a signed-in
 * buyer, once.
 */
const ORIGIN = "http://shop.test";
const HOME = { fullName: "Marie Curie", line1: "12 rue de la Paix", postalCode: "75011", city: "Paris", country: "FR", phone: "06 12 34 56 78" };
const CARD = { cardNumber: "4242 4242 4242 4242", cardExpiry: "12/30", cardCvc: "123" };
const RELAY_POINT = { id: "020145", name: "Tabac du Centre", line1: "3 place de la Mairie", postalCode: "69001", city: "Lyon" };
const delivery = (address: Partial<typeof HOME> = {}): AddressBookEntry => ({ kind: "delivery", address: { ...HOME, ...address } });

describe(`address book on ${databaseLabel}`, () => {
  let database: Database;
  let provider: TestProvider;
  let context: AppContext;
  let homeMethod: number;
  let relayMethod: number;
  let n = 0;

  /** A confirmed customer and the cookie of their session. */
  async function customer() {
    const email = `client${++n}@example.com`;
    const password = "Mot-de-passe-solide-42";
    const { id } = await createUserWithPassword(database.db, { name: `Client ${n}`, email, password, role: "user", emailVerified: true });
    const signIn = await context.auth.api.signInEmail({ body: { email, password }, returnHeaders: true });
    return { id, email, cookie: signIn.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ") };
  }

  const post = (cookie: string, form: Record<string, string>, origin = ORIGIN) =>
    outcome(() =>
      addressesRoute.action({
        request: new Request(`${ORIGIN}/account/adresses`, { method: "POST", body: new URLSearchParams(form), headers: { origin, cookie } }),
        context,
        params: {},
      } as never),
    );
  const rowsOf = (userId: string) => database.db.select().from(customerAddresses).where(eq(customerAddresses.userId, userId));

  beforeAll(async () => {
    database = await openTestDatabase();
    provider = createTestProvider({ db: database.db, secret: "integration-secret" });
    const flat = [{ upToGrams: null, fromSubtotalCents: 0, priceCents: 490 }];
    const [home] = await database.db.insert(shippingMethods).values({ name: "Domicile test", kind: "home", countries: ["FR"], bands: flat, freeFromCents: null }).returning({ id: shippingMethods.id });
    const [relay] = await database.db.insert(shippingMethods).values({ name: "Point relais test", kind: "relay", countries: ["FR"], bands: flat, freeFromCents: null }).returning({ id: shippingMethods.id });
    [homeMethod, relayMethod] = [home!.id, relay!.id];
    context = checkoutRouteContext(database.db, ORIGIN, { payments: provider, auth: testAuth(database.db, ORIGIN) });
  });
  afterAll(() => database?.close());
  beforeEach(async () => {
    await database.db.delete(rateLimits);
  });

  it("adds, edits, deletes and sets the default through the page, with the checkout's French messages; a refused form writes nothing", async () => {
    const { id, cookie } = await customer();
    expect((await post(cookie, { intent: "add", kind: "delivery", ...HOME }, "https://evil.example")).status).toBe(403);

    const refused = await post(cookie, { intent: "add", kind: "delivery", ...HOME, postalCode: "750", phone: "" });
    expect(refused).toMatchObject({ status: 400, body: { kind: "delivery", errors: { postalCode: "Code postal invalide (5 chiffres)", phone: "Merci d'entrer un numéro de téléphone valide" } } });
    const badRelay = await post(cookie, { intent: "add", kind: "relay", ...RELAY_POINT, id: "", country: "FR" });
    expect(badRelay).toMatchObject({ status: 400, body: { errors: { id: "Indiquez l'identifiant du point relais" } } });
    expect(await rowsOf(id)).toHaveLength(0);

    expect(await post(cookie, { intent: "add", kind: "delivery", ...HOME })).toMatchObject({ status: 302, location: "/account/adresses?fait=ajout" });
    // The same place spelled otherwise: refused, 409.
    expect(await post(cookie, { intent: "add", kind: "delivery", ...HOME, line1: "12 r. de la paix" })).toMatchObject({ status: 409, body: { errors: { form: "Cette adresse est déjà dans votre carnet." } } });
    expect(await post(cookie, { intent: "add", kind: "delivery", ...HOME, line1: "8 avenue Foch", makeDefault: "on" })).toMatchObject({ status: 302 });
    expect(await post(cookie, { intent: "add", kind: "relay", ...RELAY_POINT, country: "FR" })).toMatchObject({ status: 302 });
    expect(await post(cookie, { intent: "add", kind: "billing", ...HOME, line1: "3 rue Cuvier" })).toMatchObject({ status: 302 });

    let book = await listCustomerAddresses(database.db, id);
    expect(book.map((entry) => [entry.kind, entry.address.line1, entry.isDefault])).toEqual([
      ["billing", "3 rue Cuvier", true],
      ["relay", "3 place de la Mairie", true],
      ["delivery", "8 avenue Foch", true],
      ["delivery", "12 rue de la Paix", false],
    ]);
    const paix = book.find((entry) => entry.address.line1 === "12 rue de la Paix")!;
    const foch = book.find((entry) => entry.address.line1 === "8 avenue Foch")!;

    expect(await post(cookie, { intent: "update", kind: "delivery", addressId: String(paix.id), ...HOME, line2: "Bât. B" })).toMatchObject({ status: 302, location: "/account/adresses?fait=modification" });
    expect(await post(cookie, { intent: "default", id: String(paix.id) })).toMatchObject({ status: 302 });
    book = await listCustomerAddresses(database.db, id, "delivery");
    expect(book.map((entry) => [("line2" in entry.address && entry.address.line2) || null, entry.isDefault])).toEqual([
      ["Bât. B", true],
      [null, false],
    ]);
    // Deleting the default: the one left takes its place.
    expect(await post(cookie, { intent: "delete", id: String(paix.id) })).toMatchObject({ status: 302, location: "/account/adresses?fait=suppression" });
    expect((await listCustomerAddresses(database.db, id, "delivery")).map((entry) => [entry.id, entry.isDefault])).toEqual([[foch.id, true]]);

    const page = await outcome(() => addressesRoute.loader({ request: new Request(`${ORIGIN}/account/adresses?modifier=${foch.id}`, { headers: { cookie } }), context, params: {} } as never));
    expect(page).toMatchObject({ status: 200, body: { editingId: foch.id } });
    const signedOut = await outcome(() => addressesRoute.loader({ request: new Request(`${ORIGIN}/account/adresses`), context, params: {} } as never));
    expect(signedOut).toMatchObject({ status: 302, location: "/login" });
  });

  it("refuses another customer's address: 404 for every action and the edit page, never changed", async () => {
    const owner = await customer();
    const other = await customer();
    const added = await addCustomerAddress(database.db, owner.id, delivery());
    const theirs = String((added as { id: number }).id);
    const before = await rowsOf(owner.id);
    for (const form of <Record<string, string>[]>[
      { intent: "update", kind: "delivery", addressId: theirs, ...HOME, city: "Lyon", postalCode: "69001" },
      { intent: "default", id: theirs },
      { intent: "delete", id: theirs },
      { intent: "delete", id: "abc" },
    ]) {
      expect((await post(other.cookie, form)).status).toBe(404);
    }
    const page = await outcome(() => addressesRoute.loader({ request: new Request(`${ORIGIN}/account/adresses?modifier=${theirs}`, { headers: { cookie: other.cookie } }), context, params: {} } as never));
    expect(page.status).toBe(404);
    expect(await rowsOf(owner.id)).toEqual(before);
    expect(await rowsOf(other.id)).toHaveLength(0);
  });

  it("keeps one default per kind when two requests set it at once, and caps a kind with a French message", async () => {
    const { id, cookie } = await customer();
    const ids: number[] = [];
    for (let i = 1; i <= MAX_ADDRESSES_PER_KIND; i++) {
      const change = await addCustomerAddress(database.db, id, delivery({ line1: `${i} rue de la Paix` }));
      ids.push((change as { id: number }).id);
    }
    await Promise.all(ids.slice(5, 15).map((addressId) => setDefaultCustomerAddress(database.db, id, addressId)));
    const defaults = (await rowsOf(id)).filter((row) => row.isDefault);
    expect(defaults).toHaveLength(1);

    const full = await post(cookie, { intent: "add", kind: "delivery", ...HOME, line1: "99 rue de la Paix" });
    expect(full).toMatchObject({ status: 400, body: { errors: { form: "Vous avez déjà 20 adresses de livraison : supprimez-en une pour en ajouter une autre." } } });
    // Two adds at once on a book one short of full: one is taken.
    await deleteCustomerAddress(database.db, id, ids[0]!);
    const both = await Promise.all([addCustomerAddress(database.db, id, delivery({ line1: "1 place Bellecour" })), addCustomerAddress(database.db, id, delivery({ line1: "2 place Bellecour" }))]);
    expect(both.filter((change) => change.ok)).toHaveLength(1);
    expect(await rowsOf(id)).toHaveLength(MAX_ADDRESSES_PER_KIND);
    // An edit that would duplicate another entry is refused.
    expect(await updateCustomerAddress(database.db, id, ids[1]!, delivery({ line1: "3 rue de la Paix" }))).toEqual({ ok: false, reason: "duplicate" });
  });

  it("lists the book in the account's data export, and erases it with the account", async () => {
    const { id } = await customer();
    await addCustomerAddress(database.db, id, delivery());
    await addCustomerAddress(database.db, id, { kind: "relay", address: { ...RELAY_POINT, country: "FR" } });
    const exported = await exportUserData(database.db, id);
    expect(exported!.addressBook.map((row) => [row.kind, row.address.line1, row.isDefault])).toEqual([
      ["delivery", HOME.line1, true],
      ["relay", RELAY_POINT.line1, true],
    ]);
    expect(await eraseUser(database.db, { actorId: "un-admin", targetId: id })).toMatchObject({ outcome: "erased" });
    expect(await rowsOf(id)).toHaveLength(0);
  });

  describe("the payment page", () => {
    async function checkout(buyer: { id: string; email: string } | null, shipping: { methodId: number; country: string; relayPoint?: typeof RELAY_POINT }) {
      const [product] = await database.db.insert(products).values({ title: `Display ${++n}`, priceCents: 14_999, stock: 5, category: "TCG", subCategory: "Scellés" }).returning();
      const result = await startCheckout(
        database.db,
        provider,
        { items: [{ productId: product!.id, quantity: 1 }], insuranceSelected: false, email: buyer ? undefined : "invite@example.com", delivery: shipping },
        { now: new Date(), customer: buyer ? { id: buyer.id, email: buyer.email } : null, clientIp: `198.51.100.${n}`, orderPrefix: "CPT", origin: ORIGIN, reservationMinutes: 30 } satisfies CheckoutContext,
      );
      if (result.status !== 200) throw new Error(`checkout refused: ${JSON.stringify(result.body)}`);
      return { sessionId: result.body.url.split("/paiement/")[1]! };
    }
    const pay = (sessionId: string, form: Record<string, string>, cookie = "") =>
      outcome(() =>
        paymentRoute.action({
          request: new Request(`${ORIGIN}/paiement/${sessionId}`, { method: "POST", body: new URLSearchParams({ intent: "pay", ...form }), headers: { cookie } }),
          context,
          params: { sessionId },
        } as never),
      );
    const page = (sessionId: string, cookie = "") => outcome(() => paymentRoute.loader({ request: new Request(`${ORIGIN}/paiement/${sessionId}`, { headers: { cookie } }), context, params: { sessionId } } as never));

    it("saves a typed home address and billing address only when ticked, once, and proposes them at the next order, the default first", async () => {
      const buyer = await customer();
      const unticked = await checkout(buyer, { methodId: homeMethod, country: "FR" });
      expect((await page(unticked.sessionId, buyer.cookie)).body).toMatchObject({ proposals: { delivery: [], billing: [], relaySaved: false } });
      expect((await pay(unticked.sessionId, { ...HOME, ...CARD, billingSame: "on" }, buyer.cookie)).status).toBe(302);
      expect(await rowsOf(buyer.id)).toHaveLength(0);

      const ticked = await checkout(buyer, { methodId: homeMethod, country: "FR" });
      const billing = { billingFullName: "Pierre Curie", billingLine1: "8 rue Cuvier", billingPostalCode: "75005", billingCity: "Paris", billingCountry: "FR" };
      // A refused card saves nothing: the order is not paid.
      const declined = await pay(ticked.sessionId, { ...HOME, ...CARD, ...billing, cardNumber: "4000 0000 0000 0002", saveDeliveryAddress: "on", saveBillingAddress: "on" }, buyer.cookie);
      expect(declined.status).toBe(400);
      expect(await rowsOf(buyer.id)).toHaveLength(0);
      expect((await pay(ticked.sessionId, { ...HOME, ...CARD, ...billing, saveDeliveryAddress: "on", saveBillingAddress: "on" }, buyer.cookie)).status).toBe(302);
      expect((await rowsOf(buyer.id)).map((row) => [row.kind, row.address, row.isDefault])).toEqual(
        expect.arrayContaining([
          ["delivery", HOME, true],
          ["billing", { fullName: "Pierre Curie", line1: "8 rue Cuvier", postalCode: "75005", city: "Paris", country: "FR" }, true],
        ]),
      );

      // The same address ticked again: not saved twice.
      const again = await checkout(buyer, { methodId: homeMethod, country: "FR" });
      const proposed = await page(again.sessionId, buyer.cookie);
      expect(proposed.body).toMatchObject({
        proposals: {
          delivery: [{ isDefault: true, label: "Marie Curie, 12 rue de la Paix, 75011 Paris", values: { ...HOME, line2: "" } }],
          billing: [{ isDefault: true, values: { ...billing, billingLine2: "" } }],
        },
      });
      expect((proposed.body as { session: object }).session).not.toHaveProperty("userId");
      expect((await pay(again.sessionId, { ...HOME, line1: "12, Rue de la Paix", ...CARD, billingSame: "on", saveDeliveryAddress: "on" }, buyer.cookie)).status).toBe(302);
      expect(await rowsOf(buyer.id)).toHaveLength(2);
    });

    it("saves the cart's relay point by its identifier; a guest, or another customer on the buyer's page, gets no proposals and saves nothing", async () => {
      const buyer = await customer();
      const relay = await checkout(buyer, { methodId: relayMethod, country: "FR", relayPoint: RELAY_POINT });
      const billing = { billingFullName: "Marie Curie", billingLine1: "8 rue Cuvier", billingPostalCode: "75005", billingCity: "Paris", billingCountry: "FR" };
      expect((await pay(relay.sessionId, { fullName: "Marie Curie", phone: HOME.phone, ...CARD, ...billing, saveRelayPoint: "on" }, buyer.cookie)).status).toBe(302);
      expect((await rowsOf(buyer.id)).map((row) => [row.kind, row.address])).toEqual([["relay", { ...RELAY_POINT, country: "FR" }]]);
      const next = await checkout(buyer, { methodId: relayMethod, country: "FR", relayPoint: RELAY_POINT });
      expect((await page(next.sessionId, buyer.cookie)).body).toMatchObject({ proposals: { relaySaved: true } });

      const guest = await checkout(null, { methodId: homeMethod, country: "FR" });
      expect((await page(guest.sessionId, buyer.cookie)).body).toMatchObject({ proposals: null });
      const stranger = await customer();
      const theirs = await checkout(buyer, { methodId: homeMethod, country: "FR" });
      expect((await page(theirs.sessionId, stranger.cookie)).body).toMatchObject({ proposals: null });
      expect((await pay(theirs.sessionId, { ...HOME, line1: "40 rue Neuve", ...CARD, billingSame: "on", saveDeliveryAddress: "on" }, stranger.cookie)).status).toBe(302);
      expect((await pay(guest.sessionId, { ...HOME, line1: "41 rue Neuve", ...CARD, email: "invite@example.com", billingSame: "on", saveDeliveryAddress: "on" })).status).toBe(302);
      expect(await rowsOf(stranger.id)).toHaveLength(0);
      expect((await database.db.select().from(customerAddresses).where(eq(customerAddresses.kind, "delivery"))).filter((row) => row.address.line1.endsWith("rue Neuve"))).toHaveLength(0);
    });
  });
});
