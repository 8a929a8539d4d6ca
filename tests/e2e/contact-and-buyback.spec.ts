import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "@playwright/test";
import sharp from "sharp";
import { type RunningServer, startServer } from "../integration/server-process";
import { expect, expectNoSeriousA11yViolations, signInAdmin, specDataDir, test } from "./fixtures";

/**
 * A customer writes through /contact and /rachat (with two photos), with JavaScript and
 * without; the seller finds both in "Messages reçus", sees the e-mails in the outbox and sends
 * a buy-back offer whose e-mail holds its lines and amount. On a server of its own (fresh PGlite).
 */
test.describe.configure({ mode: "serial" });

const ADMIN = { email: "admin-inbox@comptoir.test", password: "admin-inbox-mot-de-passe" };
let server: RunningServer;
let dataDir: string;
let files: string;
const url = (p: string) => `${server.url}${p}`;
const photo = (name: string) => path.join(files, name);

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dataDir = await specDataDir("comptoir-e2e-inbox-");
  files = fs.mkdtempSync(path.join(os.tmpdir(), "comptoir-e2e-photos-"));
  await sharp({ create: { width: 1200, height: 900, channels: 3, background: { r: 200, g: 30, b: 60 } } }).png().toFile(photo("classeur.png"));
  await sharp({ create: { width: 900, height: 1200, channels: 3, background: { r: 30, g: 90, b: 200 } } }).jpeg().toFile(photo("display.jpg"));
  server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: "", ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
});

test.afterAll(async () => {
  await server?.stop();
  for (const dir of [dataDir, files]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const field = (page: Page, name: string) => page.getByRole("textbox", { name, exact: true });
const toast = (page: Page, title: string) => page.locator("[data-sonner-toast]").filter({ hasText: title });

async function fillRequest(page: Page, values: { lastName: string; firstName: string; email: string; message: string; phone?: string }) {
  await field(page, "Nom").fill(values.lastName);
  await field(page, "Prénom").fill(values.firstName);
  await field(page, "Email").fill(values.email);
  if (values.phone) await field(page, "Téléphone").fill(values.phone);
  await page.getByRole("textbox", { name: /Message|Description de la collection/ }).fill(values.message);
}

/** Holds the form's request a moment, so the sending state can be seen. */
async function slowDown(page: Page, pathname: string) {
  await page.route(`**${pathname}.data*`, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 700));
    await route.continue();
  });
}

/**
 * Submits, then the button goes sending → sent (green, disabled, 3 s) → idle. The 3 s are
 * counted on the page's clock (installed before the page loaded), stopped from the click on
 * and moved on by hand: exact, and without waiting for them.
 */
async function submitAndWatch(page: Page, submit: string, sent: string, idle: string) {
  await page.clock.pauseAt(Date.now() + 1_000);
  await page.getByRole("button", { name: submit }).click();
  await expect(page.getByRole("button", { name: "Envoi en cours..." })).toBeDisabled();
  const button = page.getByRole("button", { name: sent });
  await expect(button).toBeDisabled();
  await expect(button).toHaveAttribute("data-state", "sent");
  // The keyboard user's focus stays on the button that now says so.
  await expect(button).toBeFocused();
  await page.clock.runFor(2_900);
  await expect(button).toHaveAttribute("data-state", "sent");
  await page.clock.runFor(100);
  await expect(page.getByRole("button", { name: idle })).toBeEnabled();
  await page.clock.resume();
}

test("with JavaScript, the contact form checks, sends, says so and resets after 3 s", async ({ page }) => {
  await page.clock.install();
  await page.goto(url("/contact"));
  await expect(page.getByRole("heading", { level: 1, name: "Contact" })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // Checked on submit with SPEC.md's messages, then again on each change.
  await page.getByRole("button", { name: "Envoyer le message" }).click();
  for (const message of [
    "Le nom doit contenir au moins 2 caractères",
    "Le prénom doit contenir au moins 2 caractères",
    "Merci d'entrer une adresse email valide",
    "Le message doit contenir au moins 10 caractères",
  ]) {
    await expect(page.getByText(message)).toBeVisible();
  }
  await expectNoSeriousA11yViolations(page);
  await field(page, "Nom").fill("D");
  await expect(page.getByText("Le nom doit contenir au moins 2 caractères")).toBeVisible();
  await field(page, "Nom").fill("Dupont");
  await expect(page.getByText("Le nom doit contenir au moins 2 caractères")).toBeHidden();

  // A robot filling the hidden field is refused: the red error state and SPEC.md's title.
  await fillRequest(page, { lastName: "Dupont", firstName: "Marie", email: "marie.js@example.com", message: "Bonjour,\nAvez-vous le <b>Dracaufeu</b> de Base Set ?" });
  await page.locator('input[name="website"]').fill("https://spam.example", { force: true });
  await page.getByRole("button", { name: "Envoyer le message" }).click();
  const retry = page.getByRole("button", { name: "Erreur d'envoi. Réessayer ?" });
  await expect(retry).toBeEnabled();
  await expect(retry).toHaveAttribute("data-state", "error");
  await expect(toast(page, "Erreur")).toContainText("Envoi refusé");

  await page.locator('input[name="website"]').fill("", { force: true });
  await slowDown(page, "/contact");
  await submitAndWatch(page, "Erreur d'envoi. Réessayer ?", "Message envoyé !", "Envoyer le message");
  await expect(toast(page, "Message envoyé !")).toContainText("nous vous répondrons très bientôt");
  await expect(field(page, "Prénom")).toHaveValue("");
});

test("with JavaScript, a buy-back request goes with two photos", async ({ page }) => {
  await page.clock.install();
  await page.goto(url("/rachat"));
  await expect(page.getByRole("heading", { level: 1, name: "Rachat de collection" })).toBeVisible();
  await expect(page.getByRole("list", { name: "Nous contacter sur les réseaux sociaux" }).getByRole("link", { name: /Instagram/ })).toHaveAttribute("href", /instagram\.com/);
  await fillRequest(page, { lastName: "Martin", firstName: "Louis", email: "louis.js@example.com", phone: "06 12 34 56 78", message: "Un classeur de 200 cartes Base Set et une display scellée." });
  const photos = page.getByLabel("Photos de la collection");
  const chosen = page.getByRole("list", { name: "Photos choisies" });
  await photos.setInputFiles([photo("classeur.png")]);
  await expect(chosen.getByRole("img")).toHaveCount(1);
  // A second pick adds to the first (a file picked again counts once); one can be taken off.
  await photos.setInputFiles([photo("display.jpg"), photo("classeur.png")]);
  await expect(chosen.getByRole("img")).toHaveCount(2);
  await expect(page.getByText("2 photos choisies")).toBeVisible();
  await chosen.getByRole("button", { name: "Retirer la photo classeur.png" }).click();
  await expect(chosen.getByRole("img")).toHaveAccessibleName("display.jpg");
  await expect(photos).toBeFocused();
  await photos.setInputFiles([photo("classeur.png")]);
  await expect(chosen.getByRole("img")).toHaveCount(2);
  await expectNoSeriousA11yViolations(page);
  await slowDown(page, "/rachat");
  await submitAndWatch(page, "Envoyer la demande", "Demande envoyée !", "Envoyer la demande");
  await expect(toast(page, "Demande de rachat envoyée !")).toContainText("par e-mail ou par message sur les réseaux sociaux");
  await expect(page.getByRole("list", { name: "Photos choisies" })).toHaveCount(0);
});

test("without JavaScript, both forms post and answer in the page", async ({ browser }: { browser: Browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, locale: "fr-FR" });
  const page = await context.newPage();
  await page.goto(url("/contact"));
  await page.getByRole("button", { name: "Envoyer le message" }).click();
  await expect(page.getByRole("alert")).toContainText("Certains champs sont à corriger");
  await expect(page.getByText("Merci d'entrer une adresse email valide")).toBeVisible();
  await expect(page.getByText("Le message doit contenir au moins 10 caractères")).toBeVisible();
  await fillRequest(page, { lastName: "Durand", firstName: "Paul", email: "paul.sansjs@example.com", message: "Bonjour, je cherche des sleeves pour mon deck." });
  await page.getByRole("button", { name: "Envoyer le message" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Message envoyé !" })).toContainText("nous vous répondrons très bientôt");

  await page.goto(url("/rachat"));
  await fillRequest(page, { lastName: "Bernard", firstName: "Léa", email: "lea.sansjs@example.com", phone: "+33 6 98 76 54 32", message: "Collection One Piece : 150 cartes, dont 10 alternatives." });
  await page.getByLabel("Photos de la collection").setInputFiles([photo("classeur.png"), photo("display.jpg")]);
  await page.getByRole("button", { name: "Envoyer la demande" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Demande de rachat envoyée !" })).toBeVisible();
  await context.close();
});

test("the seller finds the requests, sees the e-mails and sends an offer the customer receives", async ({ page }) => {
  test.slow(); // a dozen admin pages and three accessibility scans
  await signInAdmin(page, ADMIN, server.url);

  await page.getByRole("link", { name: /Messages reçus/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Messages reçus" })).toBeVisible();
  await expect(page.getByText("4 demandes", { exact: true })).toBeVisible();
  // Newest first: the buy-back sent without JavaScript, then the contact message, then ours.
  const names = page.locator("tbody tr td:nth-child(2)");
  await expect(names).toHaveText([/Léa Bernard/, /Paul Durand/, /Louis Martin/, /Marie Dupont/]);
  await expectNoSeriousA11yViolations(page);
  await page.getByLabel("Type").selectOption("rachat");
  await expect(page).toHaveURL(/kind=rachat/);
  await expect(names).toHaveText([/Léa Bernard/, /Louis Martin/]);

  // The contact message: shown as typed, markup as text.
  await page.goto(url("/admin/inbox?kind=contact"));
  await page.getByRole("link", { name: /Marie Dupont/ }).click();
  await expect(page.getByTestId("inbox-message")).toHaveText("Bonjour,\nAvez-vous le <b>Dracaufeu</b> de Base Set ?");
  await expect(page.getByText("Statut : Nouveau → Lu")).toBeVisible();

  // The buy-back request with its two photos.
  await page.goto(url("/admin/inbox?kind=rachat"));
  await page.getByRole("link", { name: /Louis Martin/ }).click();
  const photos = page.getByRole("img", { name: /Photo \d de la collection/ });
  await expect(photos).toHaveCount(2);
  for (const img of await photos.all()) await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBeGreaterThan(0);
  await expectNoSeriousA11yViolations(page);

  await page.getByRole("button", { name: "Passer en estimation" }).click();
  await expect(toast(page, "Statut mis à jour")).toBeVisible();
  await page.getByLabel("Description").fill("Classeur Base Set");
  await page.getByLabel("Prix unitaire (€)").fill("120,50");
  await page.getByLabel("Note pour le client").fill("Les cartes sont en très bon état.");
  await page.getByRole("button", { name: "Envoyer l'offre par e-mail" }).click();
  await expect(toast(page, "Offre envoyée")).toBeVisible();
  await expect(page.getByText("Offre envoyée par e-mail : 120,50\u00a0€")).toBeVisible();

  // The outbox: notices to the seller, acknowledgements, and the offer to the customer.
  await page.goto(url("/admin/emails"));
  for (const [to, subject] of [
    ["contact@comptoir.example", "Nouveau message de contact – Marie Dupont"],
    ["contact@comptoir.example", "Nouvelle demande de rachat – Louis Martin"],
    ["marie.js@example.com", "Nous avons bien reçu votre message – Comptoir"],
    ["louis.js@example.com", "Nous avons bien reçu votre demande de rachat – Comptoir"],
  ]) {
    await expect(page.getByRole("row").filter({ hasText: to }).filter({ hasText: subject })).toHaveCount(1);
  }
  const offerSubject = "Notre offre pour votre collection : 120,50\u00a0€ – Comptoir";
  await page.getByRole("row").filter({ hasText: "louis.js@example.com" }).getByRole("link", { name: offerSubject }).click();
  await expect(page.getByRole("heading", { level: 1, name: offerSubject })).toBeVisible();
  await expect(page.getByText("louis.js@example.com")).toBeVisible();
  await expect(page.getByTestId("email-text")).toContainText("120,50\u00a0€");
  await expect(page.getByTestId("email-text")).toContainText("Les cartes sont en très bon état.");
});
