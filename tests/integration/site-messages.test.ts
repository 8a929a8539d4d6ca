import { count, eq } from "drizzle-orm";
import pino from "pino";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SiteMessages } from "~/components/layout/site-messages";
import type { Database } from "~/db/client.server";
import { siteMessages, siteSettings } from "~/db/schema";
import { dismissKey } from "~/domain/site-messages";
import { type Auth, createAuth } from "~/lib/auth.server";
import type { AppContext } from "~/lib/context";
import * as messagesRoute from "~/routes/admin/site-messages";
import { createSiteMessage, listActiveSiteMessages, listSiteMessages, seedSiteMessages } from "~/services/site-messages.server";
import { createUserWithPassword } from "~/services/users.server";
import { databaseLabel, openTestDatabase } from "./test-database";
import { outcome } from "./route-outcome";
import { asPageText } from "../support/page-text";
import { signInAdminWithCode } from "./admin-second-factor";

/**
 * Site messages over a real database: the examples seeded once, the admin page's actions as the
 * server calls them (real sessions), the refusals that write nothing, what the root loader gives
 * the pages, and markup in a message rendered as text.
 */
const ORIGIN = "http://shop.test";
const PASSWORD = "Ronflex-2026-secret";
const MARKUP = '<img src=x onerror=alert(1)> <script>alert("x")</script> [clic](javascript:alert(1))';

describe(`site messages on ${databaseLabel}`, () => {
  let database: Database;
  let auth: Auth;
  let context: AppContext;
  let adminCookie = "";
  let customerCookie = "";

  async function signIn(email: string): Promise<string> {
    const result = await auth.api.signInEmail({ body: { email, password: PASSWORD }, headers: new Headers(), returnHeaders: true });
    return result.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  }

  type Args = Parameters<typeof messagesRoute.action>[0];
  const post = (cookie: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
    messagesRoute.action({
      request: new Request(`${ORIGIN}/admin/messages`, { method: "POST", headers: { cookie, origin: ORIGIN, ...headers }, body: new URLSearchParams(form) }),
      context,
      params: {},
    } as unknown as Args);
  const load = (cookie: string, search = "") =>
    messagesRoute.loader({ request: new Request(`${ORIGIN}/admin/messages${search}`, { headers: { cookie } }), context, params: {} } as unknown as Parameters<
      typeof messagesRoute.loader
    >[0]);

  const rows = () => database.db.select().from(siteMessages).orderBy(siteMessages.createdAt);
  const rowCount = async () => (await database.db.select({ n: count() }).from(siteMessages))[0]!.n;

  beforeAll(async () => {
    database = await openTestDatabase();
    const noMail = async () => {};
    auth = createAuth({
      db: database.db,
      secret: "integration-secret-site-messages-0123456789",
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

  describe("the seeded examples", () => {
    it("are written once, inactive, and never come back once deleted", async () => {
      // Two instances starting together: one seeds.
      const results = await Promise.all([seedSiteMessages(database.db), seedSiteMessages(database.db)]);
      expect(results.map((r) => r.inserted).sort()).toEqual([0, 2]);
      const seeded = await rows();
      expect(seeded.map((r) => [r.location, r.isActive])).toEqual([
        ["global", false],
        ["checkout", false],
      ]);
      expect(await listActiveSiteMessages(database.db)).toEqual([]);
      const [marker] = await database.db.select().from(siteSettings).where(eq(siteSettings.key, "seed.site_messages"));
      expect(marker?.value).toMatchObject({ count: 2 });

      await database.db.delete(siteMessages);
      expect(await seedSiteMessages(database.db)).toEqual({ inserted: 0 });
      expect(await rowCount()).toBe(0);
    });
  });

  describe("the admin page's actions", () => {
    beforeEach(async () => {
      await database.db.delete(siteMessages);
    });

    it("adds, edits, deactivates, activates and deletes with SPEC.md's toasts", async () => {
      const added = await outcome(() => post(adminCookie, { intent: "save", title: "  Arrivage Écarlate et Violet ", content: "Les displays sont là : /catalog", location: "catalog" }));
      expect(added).toMatchObject({ status: 200, body: { ok: true, intent: "save", toast: { title: "Message ajouté" } } });
      const [row] = await rows();
      expect(row).toMatchObject({ title: "Arrivage Écarlate et Violet", content: "Les displays sont là : /catalog", location: "catalog", isActive: true });
      expect((added.body as { id: string }).id).toBe(row!.id);

      // The page loads it into the form with ?edit=<id>.
      const page = await load(adminCookie, `?edit=${row!.id}`);
      expect(page.editing?.id).toBe(row!.id);
      expect((await load(adminCookie, "?edit=pas-un-uuid")).editing).toBeNull();

      const updated = await outcome(() => post(adminCookie, { intent: "save", id: row!.id, title: "Arrivage du vendredi", content: "Nouveautés", location: "home" }));
      expect(updated).toMatchObject({ status: 200, body: { ok: true, toast: { title: "Message mis à jour" } } });
      expect(await rows()).toMatchObject([{ id: row!.id, title: "Arrivage du vendredi", content: "Nouveautés", location: "home", isActive: true }]);

      // Twice "Désactiver": the message stays inactive (the state asked for, not a flip).
      for (let i = 0; i < 2; i++) {
        expect(await outcome(() => post(adminCookie, { intent: "toggle", id: row!.id, active: "false" }))).toMatchObject({
          status: 200,
          body: { ok: true, toast: { title: "Message désactivé" } },
        });
        expect((await rows())[0]!.isActive).toBe(false);
      }
      expect(await outcome(() => post(adminCookie, { intent: "toggle", id: row!.id, active: "true" }))).toMatchObject({
        body: { ok: true, toast: { title: "Message activé" } },
      });
      expect((await rows())[0]!.isActive).toBe(true);

      expect(await outcome(() => post(adminCookie, { intent: "delete", id: row!.id }))).toMatchObject({ status: 200, body: { ok: true, toast: { title: "Message supprimé" } } });
      expect(await rowCount()).toBe(0);
      // Already gone (another tab): a French 404, not a 500.
      const later: Record<string, string>[] = [{ intent: "delete" }, { intent: "toggle", active: "true" }, { intent: "save", title: "T", content: "C", location: "global" }];
      for (const form of later) {
        const gone = await outcome(() => post(adminCookie, { ...form, id: row!.id }));
        expect(gone, form.intent).toMatchObject({ status: 404, body: { ok: false, toast: { description: expect.stringContaining("n'existe plus") } } });
      }
      expect(await rowCount()).toBe(0);
    });

    it("refuses a form without title or content with « Champs requis », keeping what was typed, and writes nothing", async () => {
      const forms: Record<string, string>[] = [
        { title: "", content: "", location: "global" },
        { title: "   ", content: "Un contenu", location: "home" },
        { title: "Un titre", content: "\n\t ", location: "home" },
        { location: "home" },
      ];
      for (const form of forms) {
        const refused = await outcome(() => post(adminCookie, { intent: "save", ...form }));
        expect(refused, JSON.stringify(form)).toMatchObject({
          status: 400,
          body: { ok: false, toast: { title: "Champs requis", description: "Le titre et le contenu sont obligatoires." } },
        });
        expect((refused.body as { values: { location: string } }).values.location).toBe(form.location);
      }
      const tooLong = await outcome(() => post(adminCookie, { intent: "save", title: "T", content: "x".repeat(1001), location: "global" }));
      expect(tooLong).toMatchObject({ status: 400, body: { fieldErrors: { content: "Le contenu doit contenir au plus 1000 caractères" } } });
      const badLocation = await outcome(() => post(adminCookie, { intent: "save", title: "T", content: "C", location: "admin" }));
      expect(badLocation).toMatchObject({ status: 400, body: { fieldErrors: { location: "Choisissez un emplacement dans la liste" } } });
      expect(await rowCount()).toBe(0);
    });

    it("answers 400 to a forged id, intent or state, and 413 to an oversized post", async () => {
      const message = await createSiteMessage(database.db, { title: "Intact", content: "Intact", location: "global" });
      const forged: Record<string, string>[] = [
        { intent: "delete", id: "1 or 1=1" },
        { intent: "delete" },
        { intent: "toggle", id: message.id, active: "peut-être" },
        { intent: "purge", id: message.id },
        { intent: "save", id: "../../etc", title: "T", content: "C", location: "global" },
      ];
      for (const form of forged) {
        expect(await outcome(() => post(adminCookie, form)), JSON.stringify(form)).toMatchObject({ status: 400, body: { ok: false, toast: { title: "Erreur" } } });
      }
      const huge = await outcome(() => post(adminCookie, { intent: "save", title: "T", content: "x".repeat(40_000), location: "global" }));
      expect(huge.status).toBe(413);
      expect(await rows()).toMatchObject([{ id: message.id, title: "Intact", isActive: true }]);
    });

    it("refuses a customer's and a stranger's direct posts (403, 401) and a cross-site post, writing nothing", async () => {
      const message = await createSiteMessage(database.db, { title: "Intact", content: "Intact", location: "global" });
      const attempts: Record<string, string>[] = [
        { intent: "save", title: "Intrus", content: "Écrit par un client", location: "global" },
        { intent: "save", id: message.id, title: "Intrus", content: "Écrit par un client", location: "global" },
        { intent: "toggle", id: message.id, active: "false" },
        { intent: "delete", id: message.id },
      ];
      for (const form of attempts) {
        expect(await outcome(() => post(customerCookie, form)), `customer ${form.intent}`).toMatchObject({ status: 403, body: { error: "Accès refusé." } });
        expect(await outcome(() => post("", form)), `stranger ${form.intent}`).toMatchObject({ status: 401 });
        expect(await outcome(() => post(adminCookie, form, { origin: "https://evil.example" })), `cross-site ${form.intent}`).toMatchObject({ status: 403 });
      }
      expect(await outcome(() => load(customerCookie))).toMatchObject({ status: 302, location: "/admin/unauthorized" });
      expect(await rows()).toMatchObject([{ id: message.id, title: "Intact", content: "Intact", isActive: true }]);
    });
  });

  describe("what the pages get", () => {
    beforeEach(async () => {
      await database.db.delete(siteMessages);
    });

    it("lists the active messages only, oldest first, each with a key that changes when it is edited", async () => {
      // PGlite's clock counts milliseconds: messages made within one would tie on created_at,
      // and the seller's list (newest first) would then order them by their random ids.
      const nextMillisecond = () => new Promise((resolve) => setTimeout(resolve, 2));
      const first = await createSiteMessage(database.db, { title: "Un", content: "Premier", location: "global" });
      await nextMillisecond();
      const second = await createSiteMessage(database.db, { title: "Deux", content: "Second", location: "catalog" });
      await nextMillisecond();
      const off = await createSiteMessage(database.db, { title: "Trois", content: "Éteint", location: "home" });
      await post(adminCookie, { intent: "toggle", id: off.id, active: "false" });
      const active = await listActiveSiteMessages(database.db);
      expect(active).toEqual([
        { id: first.id, title: "Un", content: "Premier", location: "global", key: dismissKey(first) },
        { id: second.id, title: "Deux", content: "Second", location: "catalog", key: dismissKey(second) },
      ]);
      await post(adminCookie, { intent: "save", id: second.id, title: "Deux", content: "Second, corrigé", location: "catalog" });
      const [, edited] = await listActiveSiteMessages(database.db);
      expect(edited!.key).not.toBe(active[1]!.key);
      expect((await listSiteMessages(database.db)).map((m) => m.title)).toEqual(["Trois", "Deux", "Un"]);
    });

    it("renders markup in a message as text, and an unsafe link as text, on the page of its location only", async () => {
      await createSiteMessage(database.db, { title: "<b>Titre</b>", content: MARKUP, location: "catalog" });
      await createSiteMessage(database.db, { title: "Partout", content: "Voir [le catalogue](/catalog) et https://www.instagram.com/comptoir", location: "global" });
      const siteMessagesData = await listActiveSiteMessages(database.db);
      const render = (pathname: string) => {
        const Stub = createRoutesStub([{ id: "root", path: "*", Component: SiteMessages, loader: () => null }]);
        return renderToString(createElement(Stub, { initialEntries: [pathname], hydrationData: { loaderData: { root: { siteMessages: siteMessagesData } } } }));
      };

      const catalog = render("/catalog");
      expect(catalog).toContain(asPageText("<img src=x onerror=alert(1)>"));
      expect(catalog).toContain(asPageText('<script>alert("x")</script>'));
      expect(catalog).toContain(asPageText("<b>Titre</b>"));
      expect(catalog).toContain("[clic](javascript:alert(1))");
      expect(catalog).not.toMatch(/<img|<b>|href="javascript/i);
      expect(catalog).toContain('href="/catalog"');
      expect(catalog).toContain('href="https://www.instagram.com/comptoir" target="_blank" rel="noopener noreferrer"');
      // The one <script> is the component's own (hiding dismissed messages before hydration).
      expect(catalog.match(/<script/g)).toHaveLength(1);

      const home = render("/");
      expect(home).toContain("Partout");
      expect(home).not.toContain("Titre");
      expect(render("/admin/messages")).toBe("");
    });
  });
});
