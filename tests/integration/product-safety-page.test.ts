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

  it("shows the price TTC and the brand's manufacturer, addresses, EU responsible person and warnings, the manufacturer's reference without an EAN", async () => {
    const { path, id } = await productPath("booster-de-jeu-magic-the-gathering");
    const response = await get(path);
    expect(response.status).toBe(200);
    const html = await response.text();
    const text = textOf(html);
    expect(text).toContain(`6,99${NBSP}€ TTC`);
    expect(html).toMatch(/<details[^>]*><summary[^>]*>Sécurité du produit/);
    expect(text).toContain("Fabricant Wizards of the Coast LLC");
    expect(text).toContain("Adresse postale PO Box 707 Renton, WA 98057-0707 États-Unis");
    expect(text).toContain("E-mail securite-produits@wizards.example");
    expect(text).toContain("Personne responsable dans l'UE Importateur UE (exemple à vérifier)");
    expect(text).toContain("Son adresse postale 10 avenue de l'Exemple 69001 Lyon France");
    expect(text).toContain("Identifiant Référence du fabricant : EXEMPLE-BOOSTER-MAGIC-THE-GATHERING");
    // Never the shop's own id.
    expect(text).not.toContain(`Référence : ${id}`);
    expect(text).toContain("Avertissements Ne convient pas aux enfants de moins de 3 ans.");
    // No former price was set: nothing struck through.
    expect(html).not.toContain("<del");
  });

  it("shows a video game's PEGI rating as a labelled pictogram, and no EU responsible person for a maker in the EU", async () => {
    const { path } = await productPath("pokemon-ecarlate-nintendo-switch");
    const html = await (await get(path)).text();
    expect(html).toMatch(/role="img" aria-label="PEGI 7"/);
    expect(textOf(html)).toContain("Violence");
    const manga = textOf(await (await get((await productPath("one-piece-tome-105")).path)).text());
    expect(manga).toContain("Fabricant Glénat Éditions");
    expect(manga).not.toContain("Personne responsable dans l'UE");
    expect(manga).not.toContain("PEGI");
  });

  it("shows a brand's new e-mail on its cached product pages as soon as the admin saves it", async () => {
    const { path } = await productPath("monkey-d-luffy-leader-one-piece");
    expect(textOf(await (await get(path)).text())).toContain("E-mail securite-produits@bandai.example");
    expect(textOf(await (await get(path)).text())).toContain("Fabricant Bandai Co., Ltd.");

    const admin = await (await get("/admin/product-safety", adminCookie)).text();
    expect(textOf(admin)).toContain("Sécurité des produits");
    const link = /<a [^>]*aria-label="Modifier la fiche One Piece"[^>]*>/.exec(admin)?.[0];
    const profileId = link && /\?edit=(\d+)"/.exec(link)?.[1];
    expect(profileId).toBeTruthy();
    const saved = await fetch(`${server.url}/admin/product-safety`, {
      method: "POST",
      headers: { cookie: adminCookie },
      body: new URLSearchParams({
        intent: "save",
        id: profileId!,
        brand: "One Piece",
        manufacturerName: "Bandai Co., Ltd.",
        postalAddress: "1-4-8 Komagata, Taito-ku\nTokyo 111-8081\nJapon",
        email: "securite@example.com",
        warnings: "Ne convient pas aux enfants de moins de 3 ans.",
        manufacturerOutsideEu: "on",
        euRepName: "Importateur UE (exemple à vérifier)",
        euRepAddress: "10 avenue de l'Exemple\n69001 Lyon\nFrance",
        euRepEmail: "securite@importateur-ue.example",
      }),
      redirect: "manual",
    });
    expect(saved.status).toBe(200);
    await saved.arrayBuffer();
    // The trigger's notification reaches the server in a moment; then the page is rendered anew.
    await expect.poll(async () => textOf(await (await get(path)).text()), { timeout: 5000 }).toContain("E-mail securite@example.com");
  });
});
