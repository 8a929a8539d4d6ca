import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAdmin } from "./http-accounts";
import { ensureBuild, type RunningServer, startServer } from "./server-process";
import { databaseLabel, suiteServerDataDir, suiteServerDatabase } from "./test-database";

/**
 * The product page's "Sécurité du produit" (GPSR art. 19) and its price "TTC", over HTTP against
 * the built server as a visitor gets them; a brand profile changed at /admin/product-safety shows
 * on the cached page at once (the profile's trigger purges the page cache).
 */
const ADMIN = { email: "admin-securite@comptoir.test", password: "admin-securite-mot-de-passe" };
const NBSP = "\u00a0";
/** Page text without tags or React's markers, entities read back. */
const textOf = (html: string) =>
  html
    .replace(/<!-- -->/g, "")
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/&nbsp;/g, NBSP)
    .replace(/[ \t\n]+/g, " ");

describe(`the product page's safety information over HTTP on ${databaseLabel}`, () => {
  const dataDir = suiteServerDataDir("comptoir-safety-page-");
  const database = suiteServerDatabase("comptoir_safety_page");
  let server: RunningServer;
  let adminCookie = "";
  const get = (pathname: string, cookie = "") => fetch(`${server.url}${pathname}`, { headers: cookie ? { cookie } : {}, redirect: "manual" });

  beforeAll(async () => {
    ensureBuild();
    server = await startServer({ DATA_DIR: dataDir, ...database, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
    adminCookie = await signInAdmin(server.url, ADMIN);
  }, 120_000);

  afterAll(async () => {
    // 0: stopped at once. An answer left unread holds its connection: forced out after 10 s, with 1.
    if (server) expect(await server.stop()).toBe(0);
  });

  const productPath = async (slug: string) => {
    const path = new RegExp(`href="(/product/(\\d+)-${slug})"`).exec(await (await get("/catalog")).text());
    expect(path, slug).toBeTruthy();
    return { path: path![1]!, id: path![2]! };
  };

  it("shows the price TTC and the brand's manufacturer, address and warnings, the shop's reference without an EAN", async () => {
    const { path, id } = await productPath("booster-de-jeu-magic-the-gathering");
    const response = await get(path);
    expect(response.status).toBe(200);
    const html = await response.text();
    const text = textOf(html);
    expect(text).toContain(`6,99${NBSP}€ TTC`);
    expect(html).toMatch(/<details[^>]*><summary[^>]*>Sécurité du produit/);
    expect(text).toContain("Fabricant Wizards of the Coast LLC");
    expect(text).toContain("Adresse postale PO Box 707 Renton, WA 98057-0707 États-Unis");
    expect(text).toContain("E-mail Non renseigné");
    expect(text).toContain(`Identifiant Référence : ${id}`);
    expect(text).toContain("Avertissements Ne convient pas aux enfants de moins de 3 ans.");
    // No former price was set: nothing struck through.
    expect(html).not.toContain("<del");
  });

  it("says what nobody gave for a product of no brand", async () => {
    const { path } = await productPath("classeur-9-cases-360-cartes");
    const text = textOf(await (await get(path)).text());
    expect(text).toContain("Fabricant Non renseigné");
    expect(text).toContain("Avertissements Aucun avertissement particulier");
  });

  it("shows a brand's new e-mail on its cached product pages as soon as the admin saves it", async () => {
    const { path } = await productPath("monkey-d-luffy-leader-one-piece");
    expect(textOf(await (await get(path)).text())).toContain("E-mail Non renseigné");
    expect(textOf(await (await get(path)).text())).toContain("Fabricant Bandai Co., Ltd.");

    const admin = await (await get("/admin/product-safety", adminCookie)).text();
    expect(textOf(admin)).toContain("Sécurité des produits");
    const link = /<a [^>]*aria-label="Modifier la fiche One Piece"[^>]*>/.exec(admin)?.[0];
    const profileId = link && /\?edit=(\d+)"/.exec(link)?.[1];
    expect(profileId).toBeTruthy();
    const saved = await fetch(`${server.url}/admin/product-safety`, {
      method: "POST",
      headers: { cookie: adminCookie },
      body: new URLSearchParams({ intent: "save", id: profileId!, brand: "One Piece", manufacturerName: "Bandai Co., Ltd.", postalAddress: "", email: "securite@example.com", warnings: "" }),
      redirect: "manual",
    });
    expect(saved.status).toBe(200);
    await saved.arrayBuffer();
    // The trigger's notification reaches the server in a moment; then the page is rendered anew.
    await expect.poll(async () => textOf(await (await get(path)).text()), { timeout: 5000 }).toContain("E-mail securite@example.com");
  });
});
