import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "@playwright/test";
import sharp from "sharp";
import { formatEuros as euros, parseEurosToCents } from "~/domain/money";
import type { RunningServer } from "../integration/server-process";
import { BUYBACK_COLLECTOR as COLLECTOR } from "../setup/buyback-journey-fixtures-data";
import { HAS_PDFTOTEXT, pdfText } from "../support/pdf-text";
import { chooseAddressDeliveryInCart, fillPaymentPage } from "./checkout-helpers";
import { startFixtureServer } from "./fixture-server";
import { chooseLightTheme, expect, expectNoSeriousA11yViolations, signInAdmin, test, waitForHydration } from "./fixtures";

/**
 * Issue 54's end-to-end acceptance, as one journey on a server of its own (fresh PGlite; the
 * collector's account, its e-mail verified, is the only fixture): the signed-in collector sends a
 * buy-back request with photos; the seller offers 3 lines from the inbox; the collector opens the
 * e-mail's link and accepts for store credit (bonus of 10 %); the seller marks the cards received
 * with the identity document and completes them into stock; /admin/registre shows 3 entries; the
 * cards are second-hand products (margin scheme) with their purchase lot; the collector buys one
 * with part of the credit and a card payment on the test payment page; the invoice prints no
 * margin VAT; the FEC (the export that carries it, decision 057) has the sale's margin VAT to the
 * cent. Screenshots: the offer page at 390 px (light and dark), the register at 1280, « Mon avoir »
 * at 390; axe on each.
 */
test.describe.configure({ mode: "serial" });

const ADMIN = { email: "admin-parcours-rachat@comptoir.test", password: "admin-parcours-rachat-mot-de-passe" };
const SIREN = "732829320";
let server: RunningServer;
let stopServer: () => Promise<void> = async () => {};
let files = "";
let offerPath = "";
let invoice: { number: string; pdf: Buffer } | undefined;
/** An amount as typed or printed ("20,00", "25,99 €") in cents. */
const cents = (text: string) => parseEurosToCents(text)!;
const url = (p: string) => `${server.url}${p}`;
const shots = () => test.info().outputPath();
const toast = (page: Page, title: string) => page.locator("[data-sonner-toast]").filter({ hasText: title });

/** The three lines the seller offers (1 unit each), and the price each is put on sale at. */
const LINES = [
  { description: "Dracaufeu holo Set de Base", price: "80", sale: "149" },
  { description: "Pikachu promo Jungle", price: "2,50", sale: "6" },
  { description: "Tortank holo Set de Base", price: "12", sale: "25,99" },
] as const;
/** 94,50 € offered; in store credit with the 10 % bonus: 94,50 + 9,45. */
const CREDIT = "103,95";
/** Of the credit, what the collector spends on the Tortank (the rest of the order by card). */
const CREDIT_SPENT = "20,00";
/**
 * The Tortank sold at 25,99 € TTC, bought 12,00 €: a margin of 13,99 €, whose VAT is 20/120 of it,
 * 13,99 − round(13,99 / 1,2) = 13,99 − 11,66 = 2,33 € (art. 297 B CGI, domain/margin-vat.ts).
 */
const MARGIN_VAT = "2,33";

async function signInCollector(page: Page) {
  await page.goto(url("/login"));
  await waitForHydration(page);
  await page.getByLabel("Email", { exact: false }).first().fill(COLLECTOR.email);
  await page.getByLabel("Mot de passe", { exact: false }).first().fill(COLLECTOR.password);
  await page.getByRole("button", { name: /Se connecter/ }).click();
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
}

/** The collector's browser at 390 px, signed in, in the default (dark) theme. */
async function collectorPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: "fr-FR", timezoneId: "Europe/Paris" });
  const page = await context.newPage();
  await signInCollector(page);
  return page;
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  files = fs.mkdtempSync(path.join(os.tmpdir(), "comptoir-e2e-parcours-rachat-"));
  await sharp({ create: { width: 800, height: 600, channels: 3, background: { r: 40, g: 90, b: 200 } } }).png().toFile(path.join(files, "classeur.png"));
  await sharp({ create: { width: 600, height: 800, channels: 3, background: { r: 220, g: 160, b: 30 } } }).jpeg().toFile(path.join(files, "dos.jpg"));
  ({ server, stop: stopServer } = await startFixtureServer("comptoir-e2e-parcours-rachat-", "tests/setup/buyback-journey-fixtures.ts", ADMIN));
});

test.afterAll(async () => {
  await stopServer();
  if (files) fs.rmSync(files, { recursive: true, force: true });
});

test("the signed-in collector sends a buy-back request with photos", async ({ page }) => {
  await signInCollector(page);
  await page.goto(url("/rachat"));
  await waitForHydration(page);
  await page.getByRole("textbox", { name: "Nom", exact: true }).fill(COLLECTOR.lastName);
  await page.getByRole("textbox", { name: "Prénom", exact: true }).fill(COLLECTOR.firstName);
  await page.getByRole("textbox", { name: "Email", exact: true }).fill(COLLECTOR.email);
  await page.getByRole("textbox", { name: "Téléphone", exact: true }).fill("06 11 22 33 44");
  await page.getByRole("textbox", { name: /Description de la collection/ }).fill("Trois cartes holo et une promo, en très bon état : photos du classeur jointes.");
  await page.getByLabel("Photos de la collection").setInputFiles([path.join(files, "classeur.png"), path.join(files, "dos.jpg")]);
  await page.getByRole("button", { name: "Envoyer la demande" }).click();
  await expect(toast(page, "Demande de rachat envoyée !")).toBeVisible();
});

test("the seller offers 3 lines from the inbox, sent by e-mail with its link", async ({ page }) => {
  test.slow();
  await signInAdmin(page, ADMIN, server.url);
  await page.goto(url("/admin/inbox?kind=rachat"));
  await page.getByRole("link", { name: new RegExp(`${COLLECTOR.firstName} ${COLLECTOR.lastName}`) }).click();
  // The request's two photos reached the seller.
  await expect(page.getByRole("img", { name: /^Photo \d de la collection/ })).toHaveCount(2);
  await page.getByRole("button", { name: "Passer en estimation" }).click();
  await expect(toast(page, "Statut mis à jour")).toBeVisible();
  for (let i = 1; i < LINES.length; i++) await page.getByRole("button", { name: "Ajouter une ligne" }).click();
  for (const [i, line] of LINES.entries()) {
    const group = page.getByRole("group", { name: `Ligne ${i + 1}` });
    await group.getByLabel("Description").fill(line.description);
    await group.getByLabel("Prix unitaire (€)").fill(line.price);
  }
  await page.getByRole("button", { name: "Envoyer l'offre par e-mail" }).click();
  await expect(toast(page, "Offre envoyée")).toBeVisible();

  await page.goto(url("/admin/emails"));
  await page.getByRole("row").filter({ hasText: COLLECTOR.email }).getByRole("link", { name: /Notre offre pour votre collection/ }).click();
  const text = await page.getByTestId("email-text").innerText();
  expect(text).toContain(`Total en avoir en boutique (bonus de 10 %) : ${euros(cents(CREDIT))}`);
  offerPath = new URL(/https?:\/\/\S+\/rachat\/offre\/[\w.-]+/.exec(text)![0]).pathname;
});

test("the collector opens the e-mail's link (390 px, light and dark) and accepts for store credit", async ({ browser }) => {
  test.slow();
  const page = await collectorPage(browser);
  await page.goto(url(offerPath));
  await expect(page.getByRole("heading", { level: 1, name: "Notre offre de rachat" })).toBeVisible();
  for (const line of LINES) await expect(page.getByRole("cell", { name: line.description })).toBeVisible();
  await expect(page.getByText("En avoir en boutique (bonus de 10 %)")).toBeVisible();
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: path.join(shots(), "offre-390-sombre.png"), fullPage: true });
  // The light theme, chosen in the header's menu as a visitor does (the shop is dark by default,
  // whatever the system's preference: a context's colorScheme alone leaves it dark).
  await waitForHydration(page);
  await chooseLightTheme(page);
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: path.join(shots(), "offre-390-clair.png"), fullPage: true });

  await page.getByRole("radio", { name: `Avoir en boutique : ${euros(cents(CREDIT))}` }).check();
  await page.getByLabel("Votre adresse postale").fill("8 rue de la Charité, 69002 Lyon");
  await page.getByRole("button", { name: "Accepter l'offre" }).click();
  await expect(page.getByText("Vous avez accepté cette offre, payée en avoir en boutique.")).toBeVisible();
  await page.context().close();
});

test("the seller receives the cards with the identity document, completes into stock; the register shows 3 entries", async ({ page }) => {
  test.slow();
  await signInAdmin(page, ADMIN, server.url);
  await page.goto(url("/admin/inbox?kind=rachat"));
  await page.getByRole("link", { name: new RegExp(`${COLLECTOR.firstName} ${COLLECTOR.lastName}`) }).click();
  await page.getByLabel("Type de pièce d'identité").selectOption({ label: "Carte nationale d'identité" });
  await page.getByLabel("Numéro de la pièce").fill("T7X4K2L9P");
  await page.getByLabel("Délivrée par").fill("Préfecture du Rhône");
  await page.getByLabel("Délivrée le").fill("2021-06-15");
  await expect(page.getByLabel("Adresse du vendeur")).toHaveValue("8 rue de la Charité, 69002 Lyon");
  await page.getByRole("button", { name: "Marquer les cartes reçues" }).click();
  await expect(toast(page, "Cartes reçues")).toBeVisible();

  for (const line of LINES) {
    const choice = page.getByRole("group", { name: new RegExp(`^${line.description} × 1`) });
    await expect(choice.getByRole("radio", { name: "Nouveau produit d'occasion" })).toBeChecked();
    await expect(choice.getByLabel("Titre du produit")).toHaveValue(line.description);
    await choice.getByLabel("Prix de vente (€)").fill(line.sale);
  }
  await page.getByRole("button", { name: "Terminer le rachat" }).click();
  await expect(toast(page, "Rachat terminé")).toContainText("Registre : entrée(s) n° 1, 2, 3. 3 ligne(s) en stock.");

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(url("/admin/registre"));
  const entries = page.getByTestId("register-entry");
  await expect(entries).toHaveCount(3);
  for (const [i, line] of LINES.entries()) {
    const entry = entries.filter({ hasText: line.description });
    await expect(entry).toContainText(`${COLLECTOR.firstName} ${COLLECTOR.lastName}`);
    await expect(entry).toContainText("T7X4K2L9P");
    await expect(entry).toContainText("Préfecture du Rhône");
    // Numbered in the order of the lines, each with its price and the payment means.
    await expect(entry.getByRole("cell").first()).toHaveText(String(i + 1));
    await expect(entry).toContainText(euros(cents(line.price)));
    await expect(entry).toContainText("Avoir en boutique");
  }
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: path.join(shots(), "registre-1280.png"), fullPage: true });
});

test("the cards are second-hand products with their purchase lot; the seller puts the Tortank online", async ({ page }) => {
  test.slow();
  await signInAdmin(page, ADMIN, server.url);
  for (const line of LINES) {
    await page.goto(url(`/admin/products?q=${encodeURIComponent(line.description)}`));
    await page.getByRole("link", { name: new RegExp(line.description) }).first().click();
    await expect(page.getByLabel("Bien d'occasion (régime de la marge)")).toBeChecked();
    await expect(page.getByLabel("Stock")).toHaveValue("1");
    const lots = page.getByRole("region", { name: "Lots d'achat (régime de la marge)" });
    await expect(lots.getByRole("row")).toHaveCount(2);
    await expect(lots.getByRole("row").nth(1)).toContainText(euros(cents(line.price)));
  }
  // The Tortank (the last one opened): online, with its photo and the brand's safety information.
  await waitForHydration(page);
  await page.locator("#main-image-file").setInputFiles(path.join(files, "classeur.png"));
  await expect(page.getByAltText("Aperçu de l'image principale")).toBeVisible();
  await page.getByLabel("Marque", { exact: true }).selectOption({ label: "Pokémon" });
  await page.getByLabel("Référence du fabricant").fill("BS-2-102");
  await page.getByLabel("Statut").selectOption("en_ligne");
  await page.getByRole("button", { name: "Enregistrer" }).first().click();
  await expect(page).toHaveURL(/\/admin\/products(\?|$)/);
});

test("the collector sees « Mon avoir » (390 px), buys the Tortank with part of it and a card payment", async ({ browser }) => {
  test.slow();
  const page = await collectorPage(browser);
  await page.goto(url("/account"));
  const credit = page.getByRole("region", { name: "Mon avoir" });
  await expect(credit).toContainText(`Solde : ${euros(cents(CREDIT))}`);
  await expect(credit.getByRole("row").filter({ hasText: "Rachat de cartes, registre n° 1, 2, 3 (bonus de 10 % compris)" })).toContainText(`+${euros(cents(CREDIT))}`);
  await expectNoSeriousA11yViolations(page);

  await page.goto(url(`/catalog?q=${encodeURIComponent("Tortank holo")}`));
  const add = page.getByRole("button", { name: `au panier : ${LINES[2].description}` });
  await add.click();
  await expect(add).toContainText("Ajouté");
  await page.goto(url("/cart"));
  await waitForHydration(page);
  await chooseAddressDeliveryInCart(page);
  const field = page.getByRole("region", { name: "Mon avoir" });
  await expect(field).toContainText(`Solde disponible : ${euros(cents(CREDIT))}`);
  await expect(field.getByLabel("Utiliser mon avoir pour cette commande")).toBeChecked();
  await field.getByLabel("Montant à utiliser (€)").fill(CREDIT_SPENT);
  const total = await page.getByTestId("cart-total").innerText();
  await page.getByRole("button", { name: "Procéder au paiement" }).click();

  // The test payment page charges only the rest.
  await expect(page).toHaveURL(/\/paiement\/cs_test_/);
  await expect(page.getByRole("listitem").filter({ hasText: "Payé par avoir" })).toContainText(`−${euros(cents(CREDIT_SPENT))}`);
  const rest = euros(cents(total) - cents(CREDIT_SPENT));
  await expect(page.getByRole("button", { name: `Payer ${rest} – commande avec obligation de paiement`, exact: true })).toBeVisible();
  await fillPaymentPage(page);

  await expect(page.getByRole("heading", { name: "Merci pour votre commande !" })).toBeVisible();
  const invoiceLink = page.getByRole("region", { name: "Factures" }).getByRole("link", { name: /^Facture F-\d{4}-\d{6} \(PDF\)$/ });
  await expect(invoiceLink).toBeVisible();
  const number = /F-\d{4}-\d{6}/.exec(await invoiceLink.innerText())![0];
  const answer = await page.request.get(url((await invoiceLink.getAttribute("href"))!));
  expect(answer.status()).toBe(200);
  expect(answer.headers()["content-type"]).toBe("application/pdf");
  invoice = { number, pdf: await answer.body() };

  // « Mon avoir » after the order: the balance less what it spent, both movements; dark, then light.
  await page.goto(url("/account"));
  await expect(credit).toContainText(`Solde : ${euros(cents(CREDIT) - cents(CREDIT_SPENT))}`);
  await expect(credit.getByRole("row").filter({ hasText: /Commande CPT-\d{6}-\d{4}/ })).toContainText(`−${euros(cents(CREDIT_SPENT))}`);
  await credit.screenshot({ path: path.join(shots(), "mon-avoir-390-sombre.png") });
  await waitForHydration(page);
  await chooseLightTheme(page);
  await credit.screenshot({ path: path.join(shots(), "mon-avoir-390-clair.png") });
  await expectNoSeriousA11yViolations(page);
  await page.context().close();
});

test("the invoice prints the Tortank as « Occasion », with no VAT on its margin", async () => {
  test.skip(!HAS_PDFTOTEXT, "pdftotext (poppler-utils) is not installed: the invoice's text cannot be read");
  expect(invoice, "the invoice downloaded by the journey").toBeDefined();
  const text = pdfText(invoice!.pdf);
  expect(text).toContain(invoice!.number);
  const line = text.split("\n").find((row) => row.includes(LINES[2].description));
  expect(line, "the Tortank's line").toBeDefined();
  expect(line!.replace(/\s+/g, " ")).toMatch(/Tortank holo Set de Base 1 25,99 € Occasion 25,99 €/);
  expect(text).toContain("TVA sur la marge non apparente (art. 297 E du CGI)");
  // Neither the margin nor its VAT appears anywhere on the buyer's invoice.
  expect(text).not.toContain(`${MARGIN_VAT} €`);
  expect(text).not.toContain("13,99 €");
});

test("the seller's FEC carries the sale's margin VAT to the cent, the dashboard too", async ({ page }) => {
  test.slow();
  expect(invoice, "the invoice issued in the journey").toBeDefined();
  await signInAdmin(page, ADMIN, server.url);
  await page.goto(url("/admin/exports"));
  const fec = page.getByRole("region", { name: "Fichier des écritures comptables (FEC)" });
  // The FEC is named after the shop's SIREN: the seller gives it in the settings first.
  if (await fec.getByText("Numéro SIREN manquant").isVisible()) {
    await page.goto(url("/admin/settings"));
    await waitForHydration(page);
    await page.getByLabel("SIREN", { exact: true }).fill(SIREN);
    await page.getByRole("button", { name: "Enregistrer", exact: true }).click();
    await expect(toast(page, "Identité enregistrée")).toBeVisible();
    await page.goto(url("/admin/exports"));
  }
  const downloading = page.waitForEvent("download");
  await fec.getByRole("link", { name: /Télécharger le FEC/ }).click();
  const rows = fs
    .readFileSync((await (await downloading).path())!)
    .toString("latin1")
    .split("\r\n")
    .map((row) => row.split("\t"));
  const marginVat = rows.filter((row) => row[8] === invoice!.number && row[10]?.endsWith("- TVA sur la marge"));
  expect(marginVat, "the invoice's margin VAT line").toHaveLength(1);
  expect(marginVat[0]![11]).toBe("0,00");
  expect(marginVat[0]![12]).toBe(MARGIN_VAT);
  // The sale's other margin-scheme credit: the TTC less that VAT.
  const goods = rows.find((row) => row[8] === invoice!.number && row[10]?.endsWith("- biens d'occasion (régime de la marge)"));
  expect(goods?.[12]).toBe(euros(2599 - cents(MARGIN_VAT)).replace(/\s*€$/, ""));

  await page.goto(url("/admin"));
  await expect(page.getByTestId("margin-vat-due")).toHaveText(euros(cents(MARGIN_VAT)));
});
