import type { Page } from "@playwright/test";
import { BUSINESS_MESSAGES } from "~/domain/business-buyer";
import type { RunningServer } from "../integration/server-process";
import { embeddedFile, embeddedFiles } from "../support/factur-x";
import { HAS_PDFTOTEXT, pdfText } from "../support/pdf-text";
import { chooseAddressDeliveryInCart, fillPaymentPage } from "./checkout-helpers";
import { startFixtureServer } from "./fixture-server";
import { expect, expectNoSeriousA11yViolations, signInAdmin, test } from "./fixtures";

/**
 * "Achat professionnel" (issue 53) end to end, on a server of its own (the invoices' fixtures):
 * a buyer ticks it in the cart, a wrong SIREN is refused next to its field in French, fixed; the
 * payment page asks the company's billing address; the invoice PDF names the company with its
 * SIREN and the 40 € indemnity; the seller's order page shows the company.
 */
test.describe.configure({ mode: "default" });

const ADMIN = { email: "admin-b2b@comptoir.test", password: "admin-b2b-mot-de-passe" };
const MANGA = "One Piece – Tome 105";

let server: RunningServer;
let stopServer: () => Promise<void> = async () => {};
const url = (p: string) => `${server.url}${p}`;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  ({ server, stop: stopServer } = await startFixtureServer("comptoir-e2e-b2b-", "tests/setup/invoice-fixtures.ts", ADMIN));
});
test.afterAll(() => stopServer());

const businessFields = (page: Page) => page.getByTestId("business-fields");

test("a professional buyer gives the company, fixes a wrong SIREN, pays, and gets an invoice with the SIREN and the 40 € indemnity", async ({ page, browser }) => {
  test.slow();
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(url(`/catalog?q=${encodeURIComponent(MANGA)}`));
  const add = page.getByRole("button", { name: `au panier : ${MANGA}` });
  await add.click();
  await expect(add).toContainText("Ajouté");
  await page.goto(url("/cart"));
  await chooseAddressDeliveryInCart(page);

  await page.getByRole("checkbox", { name: "Achat professionnel" }).check();
  const fields = businessFields(page);
  await fields.getByLabel("Raison sociale").fill("Ludothèque du Centre");
  await fields.getByLabel("SIREN").fill("732 829 321");
  await fields.getByLabel("N° de TVA intracommunautaire (facultatif)").fill("FR44732829320");
  await page.getByRole("button", { name: "Procéder au paiement" }).click();
  const siren = fields.getByLabel("SIREN");
  await expect(fields.getByText(BUSINESS_MESSAGES.siren)).toBeVisible();
  await expect(siren).toHaveAttribute("aria-invalid", "true");
  await expect(siren).toBeFocused();
  await expect(page).toHaveURL(/\/cart/);
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: test.info().outputPath("panier-achat-professionnel-1280.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: test.info().outputPath("panier-achat-professionnel-390.png"), fullPage: true });
  await expectNoSeriousA11yViolations(page);
  await page.setViewportSize({ width: 1280, height: 900 });

  await siren.fill("732 829 320");
  await expect(fields.getByText(BUSINESS_MESSAGES.siren)).toHaveCount(0);
  await page.getByRole("button", { name: "Procéder au paiement" }).click();
  await expect(page).toHaveURL(/\/paiement\/cs_test_/);
  // The company's billing address is asked, never assumed to be the delivery's.
  await expect(page.getByRole("checkbox", { name: "Adresse de facturation identique" })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  await fillPaymentPage(page, { email: "compta@ludotheque.example", billing: { fullName: "Paul Martin", line1: "4 rue du Jeu", postalCode: "69002", city: "Lyon" } });
  await expect(page.getByRole("heading", { name: "Merci pour votre commande !" })).toBeVisible();
  await expect(page.getByTestId("order-business-buyer")).toContainText("Ludothèque du Centre");
  const number = /Commande (\S+) du/.exec((await page.getByText(/^Commande \S+ du /).first().textContent()) ?? "")?.[1];
  expect(number).toBeTruthy();
  const invoiceLink = page.getByRole("region", { name: "Factures" }).getByRole("link", { name: /^Facture F-\d{4}-\d{6} \(PDF\)$/ });
  const answer = await page.request.get(url((await invoiceLink.getAttribute("href"))!));
  expect(answer.status()).toBe(200);

  // The seller's order page names the company.
  const seller = await (await browser.newContext({ locale: "fr-FR", viewport: { width: 1280, height: 900 } })).newPage();
  await signInAdmin(seller, ADMIN, server.url);
  await seller.goto(url(`/admin/orders/${number}`));
  await expect(seller.getByTestId("order-business-buyer")).toContainText("732829320");
  await expect(seller.getByTestId("order-business-buyer")).toContainText("FR44732829320");
  await seller.context().close();

  test.skip(!HAS_PDFTOTEXT, "pdftotext (poppler-utils) is not installed: the invoice's text cannot be read");
  const invoice = pdfText(await answer.body()).replace(/\s+/g, " ");
  expect(invoice).toContain("Ludothèque du Centre");
  expect(invoice).toContain("SIREN 732829320");
  expect(invoice).toContain("TVA intracommunautaire FR44732829320");
  expect(invoice).toContain("Indemnité forfaitaire pour frais de recouvrement : 40 €");
  expect(invoice).toContain("Catégorie de l'opération : livraison de biens.");
  // The same download is a Factur-X: its XML, extracted with pdfdetach, names the buyer's SIREN
  // as its legal identifier (scheme 0002).
  const pdf = new Uint8Array(await answer.body());
  expect(embeddedFiles(pdf)).toEqual(["factur-x.xml"]);
  const xml = embeddedFile(pdf, "factur-x.xml");
  expect(xml).toMatch(/<ram:BuyerTradeParty>[\s\S]*?<ram:SpecifiedLegalOrganization>\s*<ram:ID schemeID="0002">732829320<\/ram:ID>[\s\S]*?<\/ram:BuyerTradeParty>/);
});

test("the seller applies the intra-EU exemption: a German company delivered in Germany pays the total before VAT, and its invoice carries the mention and both VAT numbers", async ({ page, browser }) => {
  test.slow();
  const shots = "/tmp/intra-eu-shots";
  const seller = await (await browser.newContext({ locale: "fr-FR", viewport: { width: 1280, height: 900 } })).newPage();
  await signInAdmin(seller, ADMIN, server.url);
  await seller.goto(url("/admin/settings"));
  const exemption = seller.getByRole("switch", { name: /Appliquer l'exonération des livraisons intracommunautaires/ });
  await expect(exemption).not.toBeChecked();
  await expect(exemption).toHaveAccessibleDescription(/VIES \(ec\.europa\.eu\/taxation_customs\/vies\).*DEB \/ EMEBI/);
  await exemption.check({ force: true });
  await seller.getByRole("button", { name: "Enregistrer les ventes aux professionnels" }).click();
  await expect(seller.getByText("Ventes aux professionnels enregistrées").first()).toBeVisible();
  await seller.reload();
  await expect(exemption).toBeChecked();
  await expectNoSeriousA11yViolations(seller);
  await seller.getByRole("form", { name: "Ventes aux professionnels" }).screenshot({ path: `${shots}/settings-intra-eu-1280.png` });
  await seller.context().close();

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(url(`/catalog?q=${encodeURIComponent(MANGA)}`));
  const add = page.getByRole("button", { name: `au panier : ${MANGA}` });
  await add.click();
  await expect(add).toContainText("Ajouté");
  await page.goto(url("/cart"));
  await page.getByLabel("Pays de livraison").selectOption({ label: "Allemagne" });
  await chooseAddressDeliveryInCart(page);
  await page.getByRole("checkbox", { name: "Achat professionnel" }).check();
  const fields = businessFields(page);
  await fields.getByLabel("Raison sociale").fill("Spielwaren Weber GmbH");
  await fields.getByLabel("N° de TVA intracommunautaire (facultatif)").fill("DE136695976");
  await expect(fields.getByLabel("Pays de facturation")).toHaveValue("DE");
  const statement = page.getByTestId("intra-eu-exemption");
  await expect(statement).toContainText("la commande est facturée hors TVA (exonération, article 262 ter I du CGI)");
  await expect(statement).toContainText("si ce numéro de TVA est valide, votre commande sera facturée hors TVA");
  await expectNoSeriousA11yViolations(page);
  const section = page.getByRole("region", { name: "Achat professionnel" });
  await section.screenshot({ path: `${shots}/cart-intra-eu-1280.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await section.screenshot({ path: `${shots}/cart-intra-eu-390.png` });
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.getByRole("button", { name: "Procéder au paiement" }).click();
  await expect(page).toHaveURL(/\/paiement\/cs_test_/);
  // The total charged is before VAT, and the page says why.
  await expect(page.getByText("Total HT")).toBeVisible();
  await expect(page.getByText("Livraison intracommunautaire à une entreprise : Exonération de TVA, article 262 ter I du CGI. Prix hors TVA.")).toBeVisible();
  const payLabel = (await page.getByRole("button", { name: /^Payer [\d\s,]+\s€/ }).textContent()) ?? "";
  const charged = /Payer ([\d\s,]+\s€)/.exec(payLabel.replace(/[\u00a0\u202f]/g, " "))?.[1];
  expect(charged).toBeTruthy();
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: `${shots}/payment-intra-eu-1280.png`, fullPage: true });
  await fillPaymentPage(page, { email: "einkauf@weber.example", billing: { fullName: "Jonas Weber", line1: "Friedrichstraße 12", postalCode: "10117", city: "Berlin" } });
  await expect(page.getByRole("heading", { name: "Merci pour votre commande !" })).toBeVisible();
  await expect(page.getByText("Exonération de TVA, article 262 ter I du CGI").first()).toBeVisible();
  const invoiceLink = page.getByRole("region", { name: "Factures" }).getByRole("link", { name: /^Facture F-\d{4}-\d{6} \(PDF\)$/ });
  const answer = await page.request.get(url((await invoiceLink.getAttribute("href"))!));
  expect(answer.status()).toBe(200);

  test.skip(!HAS_PDFTOTEXT, "pdftotext (poppler-utils) is not installed: the invoice's text cannot be read");
  const invoice = pdfText(await answer.body()).replace(/\s+/g, " ");
  expect(invoice).toContain("Spielwaren Weber GmbH");
  expect(invoice).toContain("Exonération de TVA, article 262 ter I du CGI");
  expect(invoice).toContain("N° de TVA du vendeur : FR11123456782 ; n° de TVA de l'acquéreur : DE136695976.");
  expect(invoice).toContain("TVA intracommunautaire DE136695976");
  expect(invoice).toContain(charged!.replace(/\s+/g, " "));
  const xml = embeddedFile(new Uint8Array(await answer.body()), "factur-x.xml");
  expect(xml).toContain("<ram:ExemptionReasonCode>VATEX-EU-IC</ram:ExemptionReasonCode>");
});
