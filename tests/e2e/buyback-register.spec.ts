import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { type RunningServer, startServer } from "../integration/server-process";
import { chooseLightTheme, expect, expectNoSeriousA11yViolations, signInAdmin, specDataDir, test, waitForHydration } from "./fixtures";

/**
 * Issue 54 end to end: a collector sends a buy-back request with a photo, the seller offers 3
 * lines, the collector accepts for store credit on the offer page (390 px), the seller marks the
 * cards received with the identity document and completes with the lines into stock; the
 * register shows 3 entries and the products are in stock as second-hand goods with their
 * purchase price. On a server of its own (fresh PGlite).
 */
test.describe.configure({ mode: "serial" });

const ADMIN = { email: "admin-rachat@comptoir.test", password: "admin-rachat-mot-de-passe" };
const SHOTS = process.env.SCREENSHOT_DIR;
let server: RunningServer;
let dataDir: string;
let files: string;
let offerPath = "";
const url = (p: string) => `${server.url}${p}`;
const toast = (page: Page, title: string) => page.locator("[data-sonner-toast]").filter({ hasText: title });
const LINES = [
  ["Dracaufeu holo Base Set", "80"],
  ["Pikachu promo", "2,50"],
  ["Tortank Base Set", "12"],
] as const;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dataDir = await specDataDir("comptoir-e2e-rachat-");
  files = fs.mkdtempSync(path.join(os.tmpdir(), "comptoir-e2e-rachat-photos-"));
  await sharp({ create: { width: 800, height: 600, channels: 3, background: { r: 200, g: 30, b: 60 } } }).png().toFile(path.join(files, "cartes.png"));
  server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: "", ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
});

test.afterAll(async () => {
  await server?.stop();
  for (const dir of [dataDir, files]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test("a collector's request becomes an offer of 3 lines", async ({ page }) => {
  test.slow();
  await page.goto(url("/rachat"));
  await page.getByRole("textbox", { name: "Nom", exact: true }).fill("Dupont");
  await page.getByRole("textbox", { name: "Prénom", exact: true }).fill("Marie");
  await page.getByRole("textbox", { name: "Email", exact: true }).fill("marie.rachat@example.com");
  await page.getByRole("textbox", { name: "Téléphone", exact: true }).fill("06 12 34 56 78");
  await page.getByRole("textbox", { name: /Description de la collection/ }).fill("Trois cartes Base Set en bon état, photo jointe.");
  await page.getByLabel("Photos de la collection").setInputFiles([path.join(files, "cartes.png")]);
  await page.getByRole("button", { name: "Envoyer la demande" }).click();
  await expect(toast(page, "Demande de rachat envoyée !")).toBeVisible();

  await signInAdmin(page, ADMIN, server.url);
  await page.goto(url("/admin/inbox?kind=rachat"));
  await page.getByRole("link", { name: /Marie Dupont/ }).click();
  await page.getByRole("button", { name: "Passer en estimation" }).click();
  await expect(toast(page, "Statut mis à jour")).toBeVisible();
  await page.getByRole("button", { name: "Ajouter une ligne" }).click();
  await page.getByRole("button", { name: "Ajouter une ligne" }).click();
  for (const [i, [description, price]] of LINES.entries()) {
    const line = page.getByRole("group", { name: `Ligne ${i + 1}` });
    await line.getByLabel("Description").fill(description);
    await line.getByLabel("Prix unitaire (€)").fill(price);
  }
  await page.getByRole("button", { name: "Envoyer l'offre par e-mail" }).click();
  await expect(toast(page, "Offre envoyée")).toBeVisible();

  await page.goto(url("/admin/emails"));
  await page.getByRole("row").filter({ hasText: "marie.rachat@example.com" }).getByRole("link", { name: /Notre offre pour votre collection/ }).click();
  const text = await page.getByTestId("email-text").innerText();
  expect(text).toContain("Total en avoir en boutique (bonus de 10 %) : 103,95\u00a0€");
  offerPath = /\/rachat\/offre\/[\w.-]+/.exec(text)![0];
});

test("the collector accepts for store credit on the offer page (390 px)", async ({ browser }) => {
  for (const scheme of ["light", "dark"] as const) {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: scheme, locale: "fr-FR" });
    const page = await context.newPage();
    await page.goto(url(offerPath));
    await expect(page.getByRole("heading", { level: 1, name: "Notre offre de rachat" })).toBeVisible();
    // The shop is dark by default whatever the system prefers: the light theme is chosen in the header's menu.
    if (scheme === "light") {
      await waitForHydration(page);
      await chooseLightTheme(page);
    }
    await expect(page.getByText("En avoir en boutique (bonus de 10 %)")).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `offer-390-${scheme}.png`), fullPage: true });
    if (scheme === "dark") {
      await page.getByLabel("Votre adresse postale").fill("12 rue des Lilas, 69001 Lyon");
      await page.getByRole("button", { name: "Accepter l'offre" }).click();
      await expect(page.getByText("Vous avez accepté cette offre, payée en avoir en boutique.")).toBeVisible();
    }
    await context.close();
  }
  const forged = await fetch(url(`${offerPath.slice(0, -3)}abc`));
  expect(forged.status).toBe(403);
});

test("the seller receives the cards, completes into stock, and the register shows 3 entries", async ({ page }) => {
  test.slow();
  await signInAdmin(page, ADMIN, server.url);
  await page.goto(url("/admin/inbox?kind=rachat"));
  await page.getByRole("link", { name: /Marie Dupont/ }).click();
  await page.getByLabel("Type de pièce d'identité").selectOption("cni");
  await page.getByLabel("Numéro de la pièce").fill("X1234567");
  await page.getByLabel("Délivrée par").fill("Préfecture du Rhône");
  await page.getByLabel("Délivrée le").fill("2020-03-14");
  await page.getByRole("button", { name: "Marquer les cartes reçues" }).click();
  await expect(toast(page, "Cartes reçues")).toBeVisible();
  for (const [i] of LINES.entries()) {
    await page.locator(`input[name="stock.${i}.price"]`).fill(String(20 + i));
  }
  await page.getByRole("button", { name: "Terminer le rachat" }).click();
  await expect(toast(page, "Rachat terminé")).toBeVisible();

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(url("/admin/registre"));
  await expect(page.getByTestId("register-entry")).toHaveCount(3);
  await expect(page.getByTestId("register-entry").first()).toContainText("Dracaufeu holo Base Set");
  await expect(page.getByTestId("register-entry").first()).toContainText("X1234567");
  await expectNoSeriousA11yViolations(page);
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, "register-1280.png"), fullPage: true });

  await page.goto(url("/admin/products?q=Tortank"));
  await expect(page.getByRole("link", { name: /Tortank Base Set/ }).first()).toBeVisible();
  await page.getByRole("link", { name: /Tortank Base Set/ }).first().click();
  await expect(page.getByLabel(/Régime de TVA|TVA/).first()).toBeVisible();
});
