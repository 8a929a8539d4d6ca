import { eq } from "drizzle-orm";
import pino from "pino";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { siteSettings } from "~/db/schema";
import { IDENTITY_FIELDS, IDENTITY_KEYS, type LegalIdentity, frenchVatKey } from "~/domain/shop-identity";
import { type Auth, createAuth } from "~/lib/auth.server";
import type { AppContext } from "~/lib/context";
import { parseEnv, shopIdentity } from "~/lib/env.server";
import * as settingsRoute from "~/routes/admin/shop-settings";
import * as legalRoute from "~/routes/legal";
import { SHOP_IDENTITY_SETTING, getShopIdentity } from "~/services/shop-identity.server";
import { outboxEmails } from "~/db/schema";
import { SiteFooter } from "~/components/layout/site-footer";
import { capitalRequiredMessage } from "~/domain/shop-identity-schema";
import * as rootRoute from "~/root";
import { runOrderEmailTest } from "~/services/email-test.server";
import { sellerIdentity } from "~/services/invoices.server";
import { launchChecklist } from "~/services/launch-checklist.server";
import { createUserWithPassword } from "~/services/users.server";
import { databaseLabel, openTestDatabase } from "./test-database";
import { outcome } from "./route-outcome";
import { asPageText } from "../support/page-text";
import { signInAdminWithCode } from "./admin-second-factor";

/**
 * The shop's identity over a real database: the admin page (loader and action, called as the
 * server calls them, with real sessions) and the /legal page rendered from what was saved.
 */
const ORIGIN = "http://shop.test";
const PASSWORD = "Ronflex-2026-secret";
const SIREN = "123456782";

/** Every field given, as the seller types them (spacing, case), and as they come back. */
const TYPED: Record<keyof LegalIdentity, string> = {
  companyName: "Comptoir des Collectionneurs",
  legalForm: "SASU",
  shareCapital: "2500",
  rcsCity: "Lyon",
  rcsNumber: "b 123456782",
  siren: "123456782",
  vatNumber: `fr ${frenchVatKey(SIREN)} ${SIREN}`,
  address: "12 rue des Collectionneurs, 69002 Lyon",
  email: "Bonjour@Comptoir-Collection.fr",
  phone: "04 78 00 00 00",
  publicationDirector: "Camille Martin",
  hostName: "Hébergeur Exemple SAS",
  hostAddress: "2 rue de l'Hébergement, 59100 Roubaix",
  hostPhone: "09 72 00 00 00",
  mediatorName: "Médiation Exemple",
  mediatorUrl: "www.mediation-exemple.fr",
};
const SAVED: LegalIdentity = {
  ...TYPED,
  shareCapital: "2\u202f500\u00a0€",
  rcsNumber: "B 123 456 782",
  siren: "123 456 782",
  vatNumber: `FR${frenchVatKey(SIREN)}${SIREN}`,
  email: "bonjour@comptoir-collection.fr",
  mediatorUrl: "https://www.mediation-exemple.fr/",
};

/** How React writes a text into HTML. */

describe(`the shop's identity on ${databaseLabel}`, () => {
  let database: Database;
  let auth: Auth;
  let context: AppContext;
  let adminCookie = "";
  let customerCookie = "";
  // The configuration gives a few first values, and one example value left from .env.example.
  const env = parseEnv({ SHOP_NAME: "Comptoir", LEGAL_COMPANY_NAME: "Comptoir Config", LEGAL_SIREN: "000 000 000", LEGAL_RCS_CITY: "Paris" });

  const request = (pathname: string, cookie: string, form?: Record<string, string>) =>
    new Request(`${ORIGIN}${pathname}`, { method: form ? "POST" : "GET", headers: { cookie, origin: ORIGIN }, body: form ? new URLSearchParams(form) : undefined });
  const loadSettings = (cookie: string) =>
    outcome(() => settingsRoute.loader({ request: request("/admin/settings", cookie), context, params: {} } as unknown as Parameters<typeof settingsRoute.loader>[0]));
  const saveSettings = (cookie: string, form: Record<string, string>) =>
    outcome(() => settingsRoute.action({ request: request("/admin/settings", cookie, form), context, params: {} } as unknown as Parameters<typeof settingsRoute.action>[0]));
  const storedRow = async () => (await database.db.select().from(siteSettings).where(eq(siteSettings.key, SHOP_IDENTITY_SETTING)))[0];

  async function signIn(name: string, email: string, role: "user" | "admin") {
    await createUserWithPassword(database.db, { name, email, password: PASSWORD, role, emailVerified: true });
    if (role === "admin") return signInAdminWithCode(auth, email, PASSWORD);
    const result = await auth.api.signInEmail({ body: { email, password: PASSWORD }, headers: new Headers(), returnHeaders: true });
    return result.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  }

  /** /legal as the server renders it, from its loader's data. */
  async function renderLegal(): Promise<string> {
    const loaderData = await legalRoute.loader({ request: request("/legal", ""), context, params: {} } as unknown as Parameters<typeof legalRoute.loader>[0]);
    const Stub = createRoutesStub([{ path: "/legal", Component: () => createElement(legalRoute.default, { loaderData, params: {}, matches: [] } as never) }]);
    return renderToString(createElement(Stub, { initialEntries: ["/legal"] }));
  }

  async function renderSettings(): Promise<string> {
    const loaded = await loadSettings(adminCookie);
    const Stub = createRoutesStub([
      { path: "/admin/settings", Component: () => createElement(settingsRoute.default, { loaderData: loaded.body, params: {}, matches: [] } as never) },
    ]);
    return renderToString(createElement(Stub, { initialEntries: ["/admin/settings"] }));
  }

  beforeAll(async () => {
    database = await openTestDatabase();
    const noMail = async () => {};
    auth = createAuth({
      db: database.db,
      secret: "integration-secret-shop-identity-0123456789",
      baseUrl: ORIGIN,
      mail: { verification: noMail, existingAccount: noMail, passwordReset: noMail },
    });
    context = {
      db: database.db,
      auth,
      shop: shopIdentity(env),
      publicUrl: ORIGIN,
      clientIp: "203.0.113.9",
      logger: pino({ level: "silent" }),
      payments: { name: "stripe" },
    } as unknown as AppContext;
    adminCookie = await signIn("Vendeuse", "vendeuse@comptoir.test", "admin");
    customerCookie = await signIn("Client Curieux", "client.curieux@example.com", "user");
  });
  afterAll(async () => {
    await database?.close();
  });
  beforeEach(async () => {
    await database.db.delete(siteSettings).where(eq(siteSettings.key, SHOP_IDENTITY_SETTING));
  });

  it("starts from the configuration and warns about every field still to give, the example SIREN included", async () => {
    const loaded = await loadSettings(adminCookie);
    expect(loaded.status).toBe(200);
    const body = loaded.body as { identity: LegalIdentity; missing: string[]; updatedAt: string | null };
    expect(body.identity).toMatchObject({ companyName: "Comptoir Config", legalForm: "SASU", rcsCity: "Paris", siren: "" });
    expect(body.updatedAt).toBeNull();
    // Everything but the three given fields; SHOP_EMAIL's default is an example address too.
    expect(body.missing).toEqual(IDENTITY_KEYS.filter((key) => !["companyName", "legalForm", "rcsCity"].includes(key)));

    const html = await renderSettings();
    expect(html).toContain(`${IDENTITY_KEYS.length - 3} champs à compléter`);
    expect(html).toContain(`href="#identite-siren"`);
    expect(html).toContain(`>${IDENTITY_FIELDS.siren.label}</a>`);
    expect(html).toContain("Valeurs de départ issues de la configuration");
  });

  it("saves the form, writes the numbers one way, and reads it back with nothing missing", async () => {
    const saved = await saveSettings(adminCookie, TYPED);
    expect(saved).toMatchObject({ status: 200, body: { ok: true, toast: { title: "Identité enregistrée", description: "Les informations légales sont complètes." } } });
    expect((await storedRow())?.value).toEqual(SAVED);
    expect((await getShopIdentity(database.db, context.shop.legal)).identity).toEqual(SAVED);

    const loaded = (await loadSettings(adminCookie)).body as { missing: string[]; updatedAt: string | null };
    expect(loaded.missing).toEqual([]);
    expect(loaded.updatedAt).not.toBeNull();
    expect(await renderSettings()).toContain("Tous les champs sont renseignés");
  });

  it("keeps an emptied field empty (not back from the configuration) and counts it", async () => {
    const saved = await saveSettings(adminCookie, { ...TYPED, companyName: "", vatNumber: "  " });
    expect(saved).toMatchObject({ status: 200, body: { ok: true, toast: { description: "Il reste 2 champs à compléter." } } });
    const { identity } = await getShopIdentity(database.db, context.shop.legal);
    expect(identity.companyName).toBe("");
    expect((await loadSettings(adminCookie)).body).toMatchObject({ missing: ["companyName", "vatNumber"] });
  });

  it("refuses bad input with French messages, keeps what was typed, and writes nothing", async () => {
    await saveSettings(adminCookie, TYPED);
    const before = await storedRow();
    const refused = await saveSettings(adminCookie, { ...TYPED, siren: "123 456 789", mediatorUrl: "javascript:alert(1)", companyName: "Nouveau nom" });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      ok: false,
      fieldErrors: { siren: "Le SIREN compte 9 chiffres (ex. 123 456 789)\u00a0: vérifiez-le", mediatorUrl: "Adresse de site invalide (ex. https://www.mediateur.fr)" },
      values: { siren: "123 456 789", companyName: "Nouveau nom" },
    });
    expect(await storedRow()).toEqual(before);
  });

  it("refuses a customer's and a stranger's direct POST (403 / 401) and writes nothing", async () => {
    const customer = await saveSettings(customerCookie, TYPED);
    expect(customer.status).toBe(403);
    const stranger = await saveSettings("", TYPED);
    expect(stranger.status).toBe(401);
    expect(await storedRow()).toBeUndefined();
    // The page itself sends them away.
    expect(await loadSettings(customerCookie)).toMatchObject({ status: 302, location: "/admin/unauthorized" });
    expect(await loadSettings("")).toMatchObject({ status: 302, location: "/admin/login" });
  });

  it("publishes every field on /legal, and marks a missing one instead of leaving a blank", async () => {
    await saveSettings(adminCookie, TYPED);
    const html = await renderLegal();
    for (const key of IDENTITY_KEYS) {
      const value = key === "legalForm" ? "société par actions simplifiée unipersonnelle (SASU)" : SAVED[key];
      expect(html, key).toContain(asPageText(value));
    }
    expect(html).toContain(`href="mailto:${SAVED.email}"`);
    expect(html).toContain(`href="${SAVED.mediatorUrl}"`);
    expect(html).not.toContain("À compléter par le vendeur");
    // The sections, their anchors and the date.
    for (const id of ["mentions-legales", "cgv", "retractation", "garanties", "mediation", "confidentialite", "accessibilite"]) {
      expect(html, id).toContain(`id="${id}"`);
      expect(html, id).toContain(`href="#${id}"`);
    }
    expect(html).toContain('id="formulaire-retractation"');
    expect(html).toContain("Se rétracter du contrat ici");
    expect(html).toContain("Formulaire de rétractation");
    expect(html).toContain("Stripe Payments Europe");
    expect(html).toMatch(/Dernière mise à jour\u00a0:(<!-- -->)? <time (?:dateTime|datetime)="[^"]+"[^>]*>\d{1,2} \p{L}+ \d{4}<\/time>/u);

    await saveSettings(adminCookie, { ...TYPED, vatNumber: "", mediatorUrl: "" });
    const missing = await renderLegal();
    expect(missing).toContain('data-missing="vatNumber"');
    expect(missing).toContain('data-missing="mediatorUrl"');
    expect(missing).toContain("À compléter par le vendeur");
    expect(missing).not.toContain(SAVED.vatNumber);
  });

  it("shows markup typed into the identity as text, never as markup", async () => {
    const script = "<script>alert(1)</script>";
    const image = `Rue <img src=x onerror="alert(2)">`;
    const saved = await saveSettings(adminCookie, { ...TYPED, companyName: script, address: image, publicationDirector: "<b>Camille</b>" });
    expect(saved.status).toBe(200);
    for (const html of [await renderLegal(), await renderSettings()]) {
      expect(html).toContain(asPageText(script));
      expect(html).not.toContain(script);
      expect(html).not.toContain("<img src=x");
      expect(html).not.toMatch(/<img[^>]*onerror/);
      expect(html).not.toContain("<b>Camille</b>");
    }
  });

  // Issue 52: a micro-entrepreneur's identity, as the form posts it with EI chosen (no capital field).
  const { shareCapital: _capital, ...TYPED_WITHOUT_CAPITAL } = TYPED;
  const EI_TYPED = { ...TYPED_WITHOUT_CAPITAL, companyName: "Jeanne Martin", legalForm: "EI", rcsCity: "", rcsNumber: "", vatNumber: "" };
  const checklistOf = async () =>
    Object.fromEntries(
      (await launchChecklist(database.db, { legalDefaults: context.shop.legal, payments: "test", smtp: false, publicUrl: ORIGIN })).map((line) => [line.key, line]),
    );

  it("saves an entrepreneur individuel without capital or RCS, completes the checklist, and publishes « EI » on /legal", async () => {
    const saved = await saveSettings(adminCookie, { ...EI_TYPED, shareCapital: "1 000 €" });
    expect(saved).toMatchObject({ status: 200, body: { ok: true, toast: { description: "Les informations légales sont complètes." } } });
    // A capital posted with EI is not published.
    expect((await storedRow())?.value).toMatchObject({ legalForm: "EI", shareCapital: "", rcsNumber: "", vatNumber: "" });
    expect((await loadSettings(adminCookie)).body).toMatchObject({ missing: [] });
    const lines = await checklistOf();
    expect(lines.identity).toMatchObject({ done: true, state: "Complète" });
    expect(lines.contact).toMatchObject({ done: true, href: "/admin/settings", state: `${SAVED.email} · ${SAVED.address}` });

    const html = await renderLegal();
    expect(html).toContain("Jeanne Martin EI");
    expect(html).toContain("entrepreneur individuel (EI)");
    expect(html).toContain("Registre national des entreprises (RNE)");
    expect(html).not.toContain("Capital social");
    expect(html).not.toContain("au capital de");
    expect(html).not.toContain("À compléter par le vendeur");
    // The settings page asks no capital of an EI.
    const form = await renderSettings();
    expect(form).not.toContain('name="shareCapital"');
    expect(form).toContain("Nom de l&#x27;entrepreneur (nom ou nom d&#x27;usage)");
  });

  it("refuses a SAS with a capital of 0 € in French, and counts a SAS without capital as missing", async () => {
    await saveSettings(adminCookie, TYPED);
    const before = await storedRow();
    const refused = await saveSettings(adminCookie, { ...TYPED, legalForm: "SAS", shareCapital: "0 €" });
    expect(refused).toMatchObject({ status: 400, body: { ok: false, fieldErrors: { shareCapital: capitalRequiredMessage("SAS") } } });
    expect(capitalRequiredMessage("SAS")).toMatch(/^Une SAS a un capital social d'au moins 1/);
    expect(await storedRow()).toEqual(before);
    // Without a capital at all, the SAS is saved but the checklist waits for it.
    await saveSettings(adminCookie, { ...TYPED, legalForm: "SAS", shareCapital: "" });
    expect((await loadSettings(adminCookie)).body).toMatchObject({ missing: ["shareCapital"] });
    expect((await checklistOf()).identity).toMatchObject({ done: false, state: "1 champ à remplir" });
  });

  it("lists the shop's e-mail and postal address on the checklist until both are saved", async () => {
    await saveSettings(adminCookie, { ...TYPED, email: "", address: "" });
    expect((await checklistOf()).contact).toMatchObject({ done: false, state: "À renseigner\u00a0: E-mail de contact et Adresse du siège social" });
    await saveSettings(adminCookie, { ...TYPED, address: "" });
    expect((await checklistOf()).contact).toMatchObject({ done: false, state: "À renseigner\u00a0: Adresse du siège social" });
  });

  it("gives the footer and the e-mails the saved contact e-mail, never SHOP_EMAIL's once the seller saved one", async () => {
    const footerOf = async () => {
      const data = await rootRoute.loader({ request: request("/", ""), context, params: {} } as unknown as Parameters<typeof rootRoute.loader>[0]);
      const Stub = createRoutesStub([{ path: "/", Component: () => createElement(SiteFooter, { shop: data.shop, year: 2026 }) }]);
      return renderToString(createElement(Stub, { initialEntries: ["/"] }));
    };
    // The configuration's SHOP_EMAIL is the shipped example: neither the footer nor a document shows it.
    expect(context.shop.email).toBe("contact@comptoir.example");
    expect(await footerOf()).not.toContain("contact@comptoir.example");
    expect((await sellerIdentity(database.db, { legal: context.shop.legal, shop: context.shop })).email).toBe("");

    await saveSettings(adminCookie, TYPED);
    const footer = await footerOf();
    expect(footer).toContain(`href="mailto:${SAVED.email}"`);
    expect(footer).not.toContain("contact@comptoir.example");
    expect((await sellerIdentity(database.db, { legal: context.shop.legal, shop: context.shop })).email).toBe(SAVED.email);

    // The order confirmation (the e-mail test renders the real one) names the saved address only.
    await database.db.delete(outboxEmails);
    await runOrderEmailTest(database.db, {
      shop: { name: context.shop.name, email: context.shop.email, publicUrl: ORIGIN },
      sellerEmail: "vendeuse@comptoir.test",
      admin: { name: "Vendeuse", email: "vendeuse@comptoir.test" },
      sendNow: null,
      legal: context.shop.legal,
    });
    const [confirmation] = await database.db.select().from(outboxEmails).where(eq(outboxEmails.kind, "test-order-confirmation"));
    expect(confirmation?.text).toContain(`Écrivez-nous à ${SAVED.email}`);
    expect(confirmation?.text).toContain(`adresse électronique\u00a0: ${SAVED.email}`);
    expect(confirmation?.text).not.toContain("contact@comptoir.example");
    expect(confirmation?.text).not.toMatch(/,\s*,/);
  });

  it("leaves no empty field between commas in the model withdrawal form of an empty identity", async () => {
    await saveSettings(adminCookie, Object.fromEntries(IDENTITY_KEYS.map((key) => [key, ""])));
    const html = await renderLegal();
    const model = html.slice(html.indexOf("À l&#x27;attention de"), html.indexOf("Je/nous"));
    expect(model).toContain('data-missing="companyName"');
    expect(model).toContain('data-missing="address"');
    expect(model.replace(/<[^>]+>/g, "")).not.toMatch(/,\s*,/);
  });

  it("tells shared caches they may keep the page", () => {
    expect(new Headers(legalRoute.headers()).get("Cache-Control")).toBe("public, max-age=0, must-revalidate");
  });
});
