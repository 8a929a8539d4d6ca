import fs from "node:fs";
import type { Browser, Page } from "@playwright/test";
import { type RunningServer, startServer } from "../integration/server-process";
import { confirmedCustomer, logIn } from "./account-helpers";
import { chooseLightTheme, expect, expectNoSeriousA11yViolations, linkInEmail, signInAdmin, specDataDir, test, waitForHydration } from "./fixtures";

/**
 * Notification choices (issue 56, point 4), on a server of its own (it restocks a sold-out card
 * of the sample catalogue): the page of /account, and the one-click link of an alert e-mail
 * followed signed out.
 */
const ADMIN = { email: "admin-notifications@comptoir.test", password: "admin-notifications-mot-de-passe" };
const SOLD_OUT = "Lugia V – Astres Radieux";
let server: RunningServer;
let dataDir: string;
const url = (p: string) => `${server.url}${p}`;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dataDir = await specDataDir("comptoir-e2e-notifications-");
  server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: "", ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
});

test.afterAll(async () => {
  await server?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

async function shots(page: Page, name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: test.info().outputPath(`${name}-sombre-${width}.png`), fullPage: true });
  }
}

const newVisitor = async (browser: Browser) => (await browser.newContext({ locale: "fr-FR" })).newPage();

test("a customer switches alerts off in /account, and off again from an alert e-mail's link, signed out", async ({ browser, page }) => {
  test.slow(); // two sessions, the seller's product form, four accessibility scans
  const customer = { name: "Inès Collection", email: `ines-${Date.now()}@example.com`, password: "Pikachu-2026-secret" };
  await signInAdmin(page, ADMIN, server.url);
  const visitor = await newVisitor(browser);
  await confirmedCustomer(visitor, page, customer, server.url);

  // The account page leads to the choices: orders always, alerts switchable.
  const account = await newVisitor(browser);
  await logIn(account, customer.email, customer.password, server.url);
  await expect(account).toHaveURL(/\/account$/);
  await expectNoSeriousA11yViolations(account);
  await account.getByRole("link", { name: "Gérer mes e-mails" }).click();
  await expect(account.getByRole("heading", { level: 1, name: "Notifications par e-mail" })).toBeVisible();
  await expect(account.getByText("Commandes", { exact: true })).toBeVisible();
  const alerts = account.getByRole("switch", { name: "Alertes « Prévenez-moi »" });
  await expect(alerts).toBeChecked();
  await expectNoSeriousA11yViolations(account);
  await shots(account, "notifications");

  await waitForHydration(account);
  await account.getByText("Alertes « Prévenez-moi »", { exact: true }).click();
  await expect(alerts).not.toBeChecked();
  await account.getByRole("button", { name: "Enregistrer mes choix" }).click();
  await expect(account.getByRole("status").filter({ hasText: "Vos choix sont enregistrés." })).toBeVisible();
  await account.reload();
  await expect(alerts).not.toBeChecked();
  // On again, by keyboard.
  await alerts.focus();
  await account.keyboard.press("Space");
  await account.getByRole("button", { name: "Enregistrer mes choix" }).click();
  await expect(account.getByRole("status").filter({ hasText: "Vos choix sont enregistrés." })).toBeVisible();
  await account.reload();
  await expect(alerts).toBeChecked();
  await chooseLightTheme(account);
  await account.screenshot({ path: test.info().outputPath("notifications-clair-1280.png"), fullPage: true });
  await expectNoSeriousA11yViolations(account);

  // The same address waits for a sold-out card, confirms, and the seller restocks it.
  await visitor.goto(url(`/catalog?q=${encodeURIComponent("Lugia V")}`));
  await visitor.getByRole("link", { name: SOLD_OUT }).first().click();
  await waitForHydration(visitor);
  const form = visitor.getByRole("region", { name: "Prévenez-moi" });
  await form.getByRole("textbox", { name: "Adresse e-mail" }).fill(customer.email);
  await form.getByRole("checkbox", { name: /J'accepte de recevoir un e-mail/ }).check();
  await form.getByRole("button", { name: "M'avertir par e-mail" }).click();
  await expect(form.getByRole("status")).toContainText("Vérifiez votre boîte de réception");
  await visitor.goto(url(await linkInEmail(page, customer.email, "Confirmez votre alerte", "/alertes/confirmer", server.url)));
  await visitor.getByRole("button", { name: "Confirmer l'alerte" }).click();
  await expect(visitor.getByText(/^Alerte confirmée/)).toBeVisible();

  await page.goto(url(`/admin/products?q=${encodeURIComponent("Lugia V")}`));
  await page.getByRole("link", { name: `Modifier ${SOLD_OUT}` }).click();
  await waitForHydration(page);
  await page.getByLabel("Stock").fill("3");
  await page.getByRole("button", { name: "Enregistrer les modifications" }).click();
  await expect(page.getByText("Produit mis à jour").first()).toBeVisible();
  await expect
    .poll(async () => (await (await page.request.get(url("/admin/emails"))).text()).includes(`« ${SOLD_OUT} » est en vente`), { timeout: 20_000 })
    .toBe(true);

  // Its link, opened signed out: the page asks first (a link scanner changes nothing), its button unsubscribes.
  const link = await linkInEmail(page, customer.email, `« ${SOLD_OUT} » est en vente`, "/desabonnement", server.url);
  const stranger = await newVisitor(browser);
  await stranger.goto(url(link));
  await expect(stranger.getByRole("heading", { level: 1, name: "Se désinscrire" })).toBeVisible();
  await expect(stranger.getByText(`Ne plus recevoir les alertes « Prévenez-moi » à ${customer.email} ?`)).toBeVisible();
  await expectNoSeriousA11yViolations(stranger);
  await shots(stranger, "desabonnement");
  await stranger.getByRole("button", { name: "Me désinscrire" }).click();
  await expect(stranger.getByRole("status").filter({ hasText: `Vous ne recevrez plus d'alertes « Prévenez-moi » à cette adresse. (${customer.email})` })).toBeVisible();
  await expect(stranger.getByRole("button", { name: "Me réabonner" })).toBeVisible();
  await expectNoSeriousA11yViolations(stranger);
  await shots(stranger, "desabonnement-fait");
  await chooseLightTheme(stranger);
  await stranger.screenshot({ path: test.info().outputPath("desabonnement-fait-clair-1280.png"), fullPage: true });

  // The account shows it.
  await account.reload();
  await expect(alerts).not.toBeChecked();
});
