import fs from "node:fs";
import type { Browser, Page } from "@playwright/test";
import { type RunningServer, startServer } from "../integration/server-process";
import { expect, expectNoSeriousA11yViolations, signInAdmin, specDataDir, test } from "./fixtures";

/**
 * Site messages end to end, on a server of its own (the messages show on every page of the
 * shared one otherwise): the seller adds, edits, deactivates, activates and deletes, a visitor in
 * another browser sees the catalogue's message at once, not on the home page, and dismisses it;
 * markup in a message stays text. Then /about and /construction with their links.
 */
test.describe.configure({ mode: "serial" });

const ADMIN = { email: "admin-messages@comptoir.test", password: "admin-messages-mot-de-passe" };
const MARKUP = "<img src=x onerror=alert(1)>";
let server: RunningServer;
let dataDir: string;
const url = (p: string) => `${server.url}${p}`;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dataDir = await specDataDir("comptoir-e2e-messages-");
  server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: "", ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
});

test.afterAll(async () => {
  await server?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

const toast = (page: Page, title: string) => page.locator("[data-sonner-toast]").filter({ hasText: title }).first();
const row = (page: Page, title: string) => page.getByTestId("site-message-row").filter({ has: page.getByRole("heading", { name: title, exact: true }) });

async function visitor(browser: Browser, pathname: string) {
  const page = await (await browser.newContext({ locale: "fr-FR" })).newPage();
  // Markup in a message must never run.
  page.on("dialog", (dialog) => {
    throw new Error(`a dialog opened: ${dialog.message()}`);
  });
  await page.goto(url(pathname));
  await expect(page.locator("html")).toHaveAttribute("data-live", "connected");
  return page;
}

test("the seller manages messages; a fresh visitor sees the catalogue's at once, only there, and dismisses it", async ({ page, browser }) => {
  test.setTimeout(90_000);
  await signInAdmin(page, ADMIN, server.url);
  await page.goto(url("/admin/messages"));
  await expect(page.getByRole("heading", { level: 1, name: "Gestion des messages du site" })).toBeVisible();
  // The two seeded examples, inactive.
  await expect(page.getByTestId("site-message-row")).toHaveCount(2);
  await expect(page.getByTestId("site-message-row").getByText("Inactif")).toHaveCount(2);

  await page.getByRole("button", { name: "Ajouter le message" }).click();
  await expect(toast(page, "Champs requis")).toContainText("Le titre et le contenu sont obligatoires.");

  const shopper = await visitor(browser, "/catalog");
  const messages = shopper.getByRole("region", { name: "Informations de la boutique" });
  await expect(messages).toHaveCount(0);

  await page.getByLabel("Titre").fill("Arrivage Écarlate et Violet");
  await page.getByLabel("Contenu").fill(`Les displays sont arrivés : [voir les scellés](/tcg?category=sealed) ${MARKUP}`);
  await page.getByLabel("Emplacement").selectOption({ label: "Catalogue" });
  await page.getByRole("button", { name: "Ajouter le message" }).click();
  await expect(toast(page, "Message ajouté")).toBeVisible();
  await expect(page.getByLabel("Titre")).toHaveValue("");

  // The visitor's open page shows it without a reload; markup is text, the link a real link.
  await expect(messages.getByText("Arrivage Écarlate et Violet")).toBeVisible();
  await expect(messages).toContainText(MARKUP);
  await expect(messages.getByRole("link", { name: "voir les scellés" })).toHaveAttribute("href", "/tcg?category=sealed");
  await expect(messages.locator("img")).toHaveCount(0);
  const html = await (await shopper.request.get(url("/catalog"))).text();
  expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
  expect(html).not.toContain("<img src=x");
  await shopper.goto(url("/"));
  await expect(shopper.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(messages).toHaveCount(0);

  // Edit: the message is loaded into the form.
  await row(page, "Arrivage Écarlate et Violet").getByRole("link", { name: /Modifier/ }).click();
  await expect(page.getByLabel("Titre")).toHaveValue("Arrivage Écarlate et Violet");
  await expect(page.getByLabel("Emplacement")).toHaveValue("catalog");
  await page.getByLabel("Titre").fill("Arrivage du vendredi");
  await page.getByRole("button", { name: "Mettre à jour le message" }).click();
  await expect(toast(page, "Message mis à jour")).toBeVisible();
  await expect(page.getByRole("button", { name: "Ajouter le message" })).toBeVisible();

  const edited = row(page, "Arrivage du vendredi");
  await edited.getByRole("button", { name: /Désactiver/ }).click();
  await expect(toast(page, "Message désactivé")).toBeVisible();
  await expect(edited.getByText("Inactif")).toBeVisible();
  await shopper.goto(url("/catalog"));
  await expect(shopper.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(messages).toHaveCount(0);
  await edited.getByRole("button", { name: /Activer/ }).click();
  await expect(toast(page, "Message activé")).toBeVisible();
  await expect(messages.getByText("Arrivage du vendredi")).toBeVisible();

  // Dismissed for the session: still gone after a reload.
  await messages.getByRole("button", { name: "Masquer le message « Arrivage du vendredi »" }).click();
  await expect(messages).toHaveCount(0);
  await shopper.reload();
  await expect(shopper.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(shopper.getByText("Arrivage du vendredi")).toBeHidden();
  // Hidden before hydration too (no flash): the page's inline script alone, with no bundle.
  await shopper.route("**/assets/**", (route) => route.abort());
  await shopper.reload();
  await expect(shopper.locator("#site-messages [data-message-key]")).toHaveJSProperty("hidden", true);

  await expectNoSeriousA11yViolations(page);

  // Delete everything, the examples included: the empty text.
  for (const title of ["Arrivage du vendredi", "Nouveaux arrivages chaque semaine", "Envoi soigné et suivi"]) {
    await row(page, title).getByRole("button", { name: /Supprimer/ }).click();
    const dialog = page.getByRole("alertdialog", { name: "Supprimer ce message ?" });
    await dialog.getByRole("button", { name: "Supprimer" }).click();
    await expect(toast(page, "Message supprimé")).toBeVisible();
    await expect(row(page, title)).toHaveCount(0);
  }
  await expect(page.getByText("Aucun message à afficher. Créez votre premier message ci-dessus.")).toBeVisible();
  await shopper.context().close();
});

test("/about tells the story with its links, and /construction leads back to the shop", async ({ page }) => {
  await page.goto(url("/about"));
  await expect(page).toHaveTitle(/^À propos \| /);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  for (const value of ["Authenticité", "Expertise", "Qualité"]) await expect(page.getByRole("heading", { level: 3, name: value })).toBeVisible();
  const socials = page.getByRole("list", { name: "Nos réseaux sociaux" });
  await expect(socials.getByRole("link", { name: /Instagram/ })).toHaveAttribute("href", "https://www.instagram.com/");
  await expectNoSeriousA11yViolations(page);
  await page.getByRole("link", { name: "Découvrir le catalogue" }).click();
  await expect(page).toHaveURL(/\/catalog$/);

  await page.goto(url("/construction"));
  await expect(page.getByRole("heading", { level: 1, name: "Page en construction" })).toBeVisible();
  const back = page.getByRole("navigation", { name: "Revenir à la boutique" });
  const links: [string, string][] = [
    ["Retour à l'accueil", "/"],
    ["Voir le catalogue", "/catalog"],
    ["Nous contacter", "/contact"],
  ];
  for (const [name, href] of links) {
    await expect(back.getByRole("link", { name })).toHaveAttribute("href", href);
  }
  await expectNoSeriousA11yViolations(page);
});
