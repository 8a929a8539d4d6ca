import type { RunningServer } from "../integration/server-process";
import { CHECKOUT_FIXTURES as F } from "../setup/checkout-fixtures-data";
import { HAS_PDFTOTEXT, pdfText } from "../support/pdf-text";
import { chooseAddressDeliveryInCart, fillPaymentPage, startCheckoutServer } from "./checkout-helpers";
import { expect, expectNoSeriousA11yViolations, signInAdmin, test } from "./fixtures";

/**
 * A micro-entrepreneur opens the shop (issue 52), on a server of its own (its identity and
 * orders are its own): the seller picks « EI » and the form stops asking for a share capital;
 * /legal, the footer and the invoice of a first order name « Jeanne Martin EI », with no capital
 * and the RNE as registration. (Required fields per form and the designation line are
 * unit-tested in app/domain/shop-identity.test.ts; refusals in tests/integration/shop-identity.test.ts.)
 */
test.describe.configure({ mode: "default" });

const ADMIN = { email: "admin-formes@comptoir.test", password: "admin-formes-mot-de-passe" };
const EI_IDENTITY: Record<string, string> = {
  "Nom de l'entrepreneur (nom ou nom d'usage)": "Jeanne Martin",
  SIREN: "123456782",
  "Adresse de l'établissement": "8 rue des Cartes, 69003 Lyon",
  "E-mail de contact": "jeanne@cartes-martin.fr",
  Téléphone: "04 78 00 00 00",
  "Directeur ou directrice de la publication": "Jeanne Martin",
  "Nom de l'hébergeur": "Hébergeur Exemple SAS",
  "Téléphone de l'hébergeur": "09 72 00 00 00",
  "Adresse de l'hébergeur": "2 rue de l'Hébergement, 59100 Roubaix",
  "Nom du médiateur": "Médiation Exemple",
  "Site internet du médiateur": "www.mediation-exemple.fr",
};

let server: RunningServer;
let stopServer: () => Promise<void> = async () => {};
const url = (p: string) => `${server.url}${p}`;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  ({ server, stop: stopServer } = await startCheckoutServer("comptoir-e2e-formes-", ADMIN));
});

test.afterAll(() => stopServer());

test("the seller picks EI: no capital asked; /legal, the footer and an invoice name « Jeanne Martin EI »", async ({ page, browser }) => {
  test.slow();
  await signInAdmin(page, ADMIN, server.url);
  await page.goto(url("/admin/settings"));
  const legalForm = page.getByLabel("Forme juridique", { exact: true });
  // A company asks its capital; an EI does not, and is asked a person's name.
  await legalForm.selectOption("SAS");
  await expect(page.getByLabel("Capital social", { exact: true })).toBeVisible();
  await legalForm.selectOption("EI");
  await expect(page.getByLabel("Capital social", { exact: true })).toHaveCount(0);
  await expect(page.getByText("l'écrivent suivi de «\u00a0EI\u00a0»")).toBeVisible();
  await expect(page.getByLabel("Ville du greffe (RCS) (facultatif)", { exact: true })).toBeVisible();
  await expect(page.getByTestId("franchise-proposal")).toContainText("TVA non applicable, art. 293 B du CGI");

  for (const [label, value] of Object.entries(EI_IDENTITY)) await page.getByLabel(label, { exact: true }).fill(value);
  await page.getByRole("button", { name: "Enregistrer", exact: true }).click();
  await expect(page.getByText("Identité enregistrée").first()).toBeVisible();
  await expect(page.getByText("Tous les champs sont renseignés")).toBeVisible();
  await expect(legalForm).toHaveValue("EI");
  await expectNoSeriousA11yViolations(page);

  // The form, looked at on a wide screen and on a phone.
  await expect(page.getByRole("group", { name: "Entreprise" })).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: test.info().outputPath("identite-ei-1280.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: test.info().outputPath("identite-ei-390.png"), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  // The checklist: the identity and the shop's e-mail and address done.
  await page.goto(url("/admin"));
  await expect(page.getByTestId("checklist-identity")).toContainText("Complète");
  await expect(page.getByTestId("checklist-contact")).toContainText("jeanne@cartes-martin.fr");

  // A visitor: /legal and the footer.
  const visitor = await (await browser.newContext({ locale: "fr-FR" })).newPage();
  await visitor.goto(url("/legal"));
  const notice = visitor.getByRole("region", { name: "1. Mentions légales" });
  await expect(notice.getByText("Jeanne Martin EI").first()).toBeVisible();
  await expect(notice.getByText("entrepreneur individuel (EI)")).toBeVisible();
  await expect(notice.getByText("Registre national des entreprises (RNE)")).toBeVisible();
  await expect(notice.getByText("Capital social")).toHaveCount(0);
  await expect(visitor.getByText("À compléter par le vendeur")).toHaveCount(0);
  await expect(visitor.getByRole("contentinfo").getByRole("link", { name: "jeanne@cartes-martin.fr" })).toHaveAttribute("href", "mailto:jeanne@cartes-martin.fr");
  await expect(visitor.getByRole("contentinfo").getByText("contact@comptoir.example")).toHaveCount(0);
  await expectNoSeriousA11yViolations(visitor);

  // A first order: its invoice names the seller with « EI ».
  await visitor.goto(url(`/catalog?q=${encodeURIComponent(F.buy.title)}`));
  const add = visitor.getByRole("button", { name: `au panier : ${F.buy.title}` });
  await add.click();
  await expect(add).toContainText("Ajouté");
  await visitor.goto(url("/cart"));
  await chooseAddressDeliveryInCart(visitor);
  await visitor.getByRole("button", { name: "Procéder au paiement" }).click();
  await fillPaymentPage(visitor, { email: "client-ei@example.com" });
  await expect(visitor.getByRole("heading", { name: "Merci pour votre commande !" })).toBeVisible();
  const invoiceLink = visitor.getByRole("region", { name: "Factures" }).getByRole("link", { name: /^Facture F-\d{4}-\d{6} \(PDF\)$/ });
  const answer = await visitor.request.get(url((await invoiceLink.getAttribute("href"))!));
  expect(answer.status()).toBe(200);
  expect(answer.headers()["content-type"]).toBe("application/pdf");
  if (!HAS_PDFTOTEXT) return;
  const invoice = pdfText(await answer.body());
  expect(invoice).toContain("Jeanne Martin EI");
  expect(invoice).toContain("Registre national des entreprises (RNE)");
  expect(invoice).toContain("jeanne@cartes-martin.fr");
  expect(invoice).not.toContain("capital");
});
