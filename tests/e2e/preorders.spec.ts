import fs from "node:fs";
import { type RunningServer, startServer } from "../integration/server-process";
import { HAS_PDFTOTEXT, pdfText } from "../support/pdf-text";
import { chooseAddressDeliveryInCart, fillPaymentPage } from "./checkout-helpers";
import { expect, expectNoSeriousA11yViolations, signInAdmin, specDataDir, test, waitForHydration } from "./fixtures";

/**
 * A pre-order's settings and its product page (issue 55, decision 059), on a server of its own
 * (it changes a product): the seller sets the dates, the quantity and the limit on the product's
 * edit page; the product page announces « Précommande » with both dates.
 */
test.describe.configure({ mode: "serial" });

const ADMIN = { email: "admin-precommandes@comptoir.test", password: "admin-precommandes-mot-de-passe" };
const PRODUCT = "Display Écarlate et Violet – 36 boosters";
let server: RunningServer;
let dataDir: string;
const url = (p: string) => `${server.url}${p}`;
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
/** "12 décembre 2026": a calendar day as the shop words it (domain/calendar-date.ts formatCalendarDate). */
const spelled = (isoDay: string) => new Intl.DateTimeFormat("fr-FR", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }).format(new Date(`${isoDay}T12:00:00Z`));
const RELEASE = inDays(14);
const DELIVERY = inDays(17);
const SHOTS = process.env.PREORDER_SHOTS;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dataDir = await specDataDir("comptoir-e2e-preorders-");
  server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: "", ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
});

test.afterAll(async () => {
  await server?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

test("the seller makes a product a pre-order, and its page shows « Précommande » with its dates", async ({ page }) => {
  await signInAdmin(page, ADMIN, server.url);
  await page.goto(url(`/admin/products?q=${encodeURIComponent("Display Écarlate")}`));
  await page.getByRole("link", { name: new RegExp(`Modifier.*${PRODUCT}|${PRODUCT}`) }).first().click();
  const section = page.getByRole("region", { name: "Précommande" });
  await expect(section).toBeVisible();
  await waitForHydration(page);
  // The shared schema refuses a delivery before the release, beside its field.
  await section.getByLabel("Date de sortie").fill(RELEASE);
  await section.getByLabel("Date de livraison estimée").fill(inDays(10));
  await section.getByLabel("Quantité en précommande").fill("300");
  await section.getByLabel("Limite par client").fill("2");
  await section.getByRole("button", { name: "Vendre en précommande" }).click();
  await expect(section.getByText("La date de livraison estimée ne peut pas précéder la date de sortie")).toBeVisible();
  await section.getByLabel("Date de livraison estimée").fill(DELIVERY);
  await section.getByRole("button", { name: "Vendre en précommande" }).click();
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Précommande enregistrée" }).first()).toBeVisible();
  await expect(section.getByText("0 exemplaire précommandé sur 300.")).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  if (SHOTS) await section.screenshot({ path: `${SHOTS}/admin-${page.viewportSize()!.width}.png` });

  await page.goto(url(`/catalog?q=${encodeURIComponent("Display Écarlate")}`));
  await page.getByRole("link", { name: PRODUCT }).first().click();
  const terms = page.getByTestId("preorder-terms");
  await expect(terms).toContainText("Précommande");
  await expect(terms).toContainText("date de livraison estimée");
  await expect(terms).toContainText("Limité à 2 par client");
  await expectNoSeriousA11yViolations(page);
  if (SHOTS) {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `${SHOTS}/product-${width}.png` });
    }
  }
});

test("a buyer pre-orders and sees the release date in the cart, on the payment page, in the confirmation e-mail and on the invoice", async ({ page, browser }) => {
  test.slow();
  const dates = `Précommande : sortie le ${spelled(RELEASE)}, date de livraison estimée : ${spelled(DELIVERY)}`;
  await page.goto(url(`/catalog?q=${encodeURIComponent("Display Écarlate")}`));
  await page.getByRole("link", { name: PRODUCT }).first().click();
  await waitForHydration(page);
  await page.getByRole("button", { name: `Ajouter au panier : ${PRODUCT}` }).click();

  // The cart: the dates under the line, worded by the server (its JS budget).
  await page.goto(url("/cart"));
  const line = page.getByRole("list", { name: "Articles du panier" }).getByRole("listitem").filter({ hasText: PRODUCT });
  await expect(line).toContainText(dates);
  await chooseAddressDeliveryInCart(page);
  await expectNoSeriousA11yViolations(page);
  if (SHOTS) {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `${SHOTS}/cart-${width}.png`, fullPage: true });
    }
  }

  // The payment page: the line says it too. A pre-order limited per customer asks the e-mail first, as a drop does.
  await page.getByRole("button", { name: "Procéder au paiement" }).click();
  const emailField = page.getByRole("textbox", { name: "Adresse e-mail" });
  await expect(emailField).toBeFocused();
  await emailField.fill("precommande@example.com");
  await page.getByRole("button", { name: "Procéder au paiement" }).click();
  await expect(page).toHaveURL(/\/paiement\/cs_test_/);
  await expect(page.getByRole("listitem").filter({ hasText: PRODUCT })).toContainText(dates);
  await fillPaymentPage(page);
  await expect(page.getByRole("heading", { name: "Merci pour votre commande !" })).toBeVisible();
  const number = (await page.getByText(/^CPT-\d{6}-\d{4}$/).first().innerText()).trim();

  // The invoice, as the buyer downloads it: the dates under the article's name.
  const invoiceLink = page.getByRole("region", { name: "Factures" }).getByRole("link", { name: /^Facture F-\d{4}-\d{6} \(PDF\)$/ });
  const invoice = await page.request.get(url((await invoiceLink.getAttribute("href"))!));
  expect(invoice.status()).toBe(200);
  if (HAS_PDFTOTEXT) {
    const text = pdfText(await invoice.body()).replace(/\s+/g, " ");
    expect(text).toContain(`sortie le ${spelled(RELEASE)}`);
    expect(text).toContain(spelled(DELIVERY));
  } else if (process.env.CI) throw new Error("pdftotext is missing: the invoice's text cannot be read");

  // The confirmation e-mail, read in the seller's outbox.
  const seller = await (await browser.newContext({ locale: "fr-FR" })).newPage();
  await signInAdmin(seller, ADMIN, server.url);
  await seller.goto(url("/admin/emails"));
  await seller.getByRole("link", { name: `Confirmation de votre commande ${number}` }).click();
  await expect(seller.getByTestId("email-text")).toContainText(dates);
  await seller.context().close();
});
