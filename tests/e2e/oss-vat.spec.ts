import type { Page } from "@playwright/test";
import type { RunningServer } from "../integration/server-process";
import { HAS_PDFTOTEXT, pdfText } from "../support/pdf-text";
import { chooseRelayPointInCart, fillPaymentPage } from "./checkout-helpers";
import { startFixtureServer } from "./fixture-server";
import { expect, expectNoSeriousA11yViolations, signInAdmin, test } from "./fixtures";

/**
 * EU distance sales (docs/decisions/046), end to end on a server of its own (the invoices'
 * fixtures): the seller opts for the buyer's country's VAT at /admin/settings and sees the
 * counter on the dashboard; a guest in Belgium buys a manga and a booster for a relay point, pays
 * the French TTC prices, and the invoice shows Belgium's 6 % on the manga and 21 % on the
 * booster. The threshold itself, to the cent, is tested on PGlite and PostgreSQL
 * (tests/integration/oss-vat.test.ts).
 */
test.describe.configure({ mode: "default" });

const ADMIN = { email: "admin-oss@comptoir.test", password: "admin-oss-mot-de-passe" };
const MANGA = "One Piece – Tome 105";
const BOOSTER = "Booster Astres Radieux";

let server: RunningServer;
let stopServer: () => Promise<void> = async () => {};
const url = (p: string) => `${server.url}${p}`;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  ({ server, stop: stopServer } = await startFixtureServer("comptoir-e2e-oss-", "tests/setup/invoice-fixtures.ts", ADMIN));
});
test.afterAll(() => stopServer());

async function addToCart(page: Page, title: string) {
  await page.goto(url(`/catalog?q=${encodeURIComponent(title)}`));
  const add = page.getByRole("button", { name: `au panier : ${title}` });
  await add.click();
  await expect(add).toContainText("Ajouté");
}

test("a buyer in Belgium pays Belgian VAT once it applies: 21 % on a booster, 6 % on a manga, on the invoice", async ({ page, browser }) => {
  test.slow();
  const seller = await (await browser.newContext({ locale: "fr-FR", viewport: { width: 1280, height: 900 } })).newPage();
  await signInAdmin(seller, ADMIN, server.url);
  await seller.goto(url("/admin"));
  const counter = seller.getByRole("region", { name: "Ventes à distance dans l'UE (seuil OSS)" });
  await expect(counter).toContainText("TVA française sur toutes les commandes");
  await expectNoSeriousA11yViolations(seller);

  await seller.goto(url("/admin/settings"));
  await seller.getByRole("switch", { name: /Appliquer la TVA du pays de l'acheteur/ }).check({ force: true });
  await seller.getByRole("button", { name: "Enregistrer la facturation" }).click();
  await expect(seller.getByText("Facturation enregistrée").first()).toBeVisible();
  await seller.goto(url("/admin"));
  await expect(counter).toContainText("Option choisie : les commandes livrées dans un autre pays de l'UE portent la TVA de ce pays");
  await expectNoSeriousA11yViolations(seller);
  await counter.screenshot({ path: "/tmp/oss-shots/dashboard-oss-1280.png" });

  await addToCart(page, MANGA);
  await addToCart(page, BOOSTER);
  await page.goto(url("/cart"));
  await chooseRelayPointInCart(page, { country: "Belgique", relay: { name: "Librairie du Sablon", id: "BE1000", line1: "Rue Haute 12", postalCode: "1000", city: "Bruxelles" } });
  await page.getByRole("button", { name: "Procéder au paiement" }).click();
  await expect(page).toHaveURL(/\/paiement\/cs_test_/);
  await fillPaymentPage(page, { email: "acheteur-belge@example.com", relay: true });
  await expect(page.getByRole("heading", { name: "Merci pour votre commande !" })).toBeVisible();
  const invoiceLink = page.getByRole("region", { name: "Factures" }).getByRole("link", { name: /^Facture F-\d{4}-\d{6} \(PDF\)$/ });
  const answer = await page.request.get(url((await invoiceLink.getAttribute("href"))!));
  expect(answer.status()).toBe(200);

  test.skip(!HAS_PDFTOTEXT, "pdftotext (poppler-utils) is not installed: the invoice's text cannot be read");
  const invoice = pdfText(await answer.body());
  // The same TTC prices, split at Belgium's rates: 6,99 € / 1,06 = 6,59 € HT, 5,99 € / 1,21 = 4,95 € HT.
  expect(invoice).toMatch(new RegExp(`${MANGA}\\s+1\\s+6,59\\s€\\s+6\\s*%`));
  expect(invoice).toMatch(new RegExp(`${BOOSTER}\\s+1\\s+4,95\\s€\\s+21\\s*%`));
  expect(invoice).toMatch(/Total TTC\s+16,97\s€/);
  expect(invoice).not.toMatch(/\b(5,5|20)\s*%/);
  expect(invoice.replace(/\s+/g, " ")).toContain("TVA de Belgique appliquée aux taux de ce pays");
  await seller.context().close();
});
