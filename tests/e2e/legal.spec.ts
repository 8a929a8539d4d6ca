import { chooseLightTheme, expect, expectNoSeriousA11yViolations, signInAsAdmin, test, waitForHydration } from "./fixtures";

/**
 * The shop's identity, from the admin form to /legal: the seller fills it in, empties a field
 * and is warned; a fresh visitor reads every given field, and a mark where one is missing.
 * (Edge cases — formats, markup, refusals — are in tests/integration/shop-identity.test.ts.)
 */
const IDENTITY: Record<string, string> = {
  "Dénomination sociale": "Comptoir des Collectionneurs",
  "Capital social": "2500",
  "Ville du greffe (RCS)": "Lyon",
  "Numéro RCS": "123 456 782",
  SIREN: "123456782",
  "Numéro de TVA intracommunautaire": "FR11123456782",
  "Adresse du siège social": "12 rue des Collectionneurs, 69002 Lyon",
  "E-mail de contact": "bonjour@comptoir-collection.fr",
  Téléphone: "04 78 00 00 00",
  "Directeur ou directrice de la publication": "Camille Martin",
  "Nom de l'hébergeur": "Hébergeur Exemple SAS",
  "Téléphone de l'hébergeur": "09 72 00 00 00",
  "Adresse de l'hébergeur": "2 rue de l'Hébergement, 59100 Roubaix",
  "Nom du médiateur": "Médiation Exemple",
  "Site internet du médiateur": "www.mediation-exemple.fr",
};

test("the seller fills in the identity, is warned about an emptied field, and a visitor reads it all on /legal", async ({ browser }) => {
  const page = await signInAsAdmin(browser);
  await page.goto("/admin/settings");
  await expect(page.getByRole("heading", { level: 1, name: "Identité de la boutique" })).toBeVisible();
  // The e2e server has no LEGAL_* variables: the warning lists what the law needs.
  await expect(page.getByRole("heading", { name: /champs à compléter/ })).toBeVisible();

  // A bad SIREN is caught in the browser with the server's message.
  await page.getByLabel("SIREN", { exact: true }).fill("123");
  await page.getByRole("button", { name: "Enregistrer", exact: true }).click();
  await expect(page.getByText("Le SIREN compte 9 chiffres (ex. 123 456 789)\u00a0: vérifiez-le")).toBeVisible();

  await page.getByLabel("Forme juridique", { exact: true }).selectOption("SASU");
  for (const [label, value] of Object.entries(IDENTITY)) await page.getByLabel(label, { exact: true }).fill(value);
  await page.getByRole("button", { name: "Enregistrer", exact: true }).click();
  await expect(page.getByText("Identité enregistrée").first()).toBeVisible();
  await expect(page.getByText("Tous les champs sont renseignés")).toBeVisible();
  // Written the one way the page publishes.
  await expect(page.getByLabel("SIREN", { exact: true })).toHaveValue("123 456 782");

  await page.getByLabel("Nom du médiateur", { exact: true }).fill("");
  await page.getByRole("button", { name: "Enregistrer", exact: true }).click();
  const warning = page.getByRole("region", { name: "1 champ à compléter" });
  await expect(warning).toBeVisible();
  await expect(warning.getByRole("link", { name: "Nom du médiateur" })).toHaveAttribute("href", "#identite-mediatorName");
  await expectNoSeriousA11yViolations(page);

  // A visitor who was never signed in, in another browser context.
  const visitor = await (await browser.newContext({ locale: "fr-FR" })).newPage();
  await visitor.goto("/legal");
  await expect(visitor).toHaveTitle(/Mentions légales, CGV et confidentialité/);
  for (const name of ["1. Mentions légales", "2. Conditions générales de vente", "3. Politique de confidentialité", "4. Déclaration d'accessibilité"]) {
    await expect(visitor.getByRole("heading", { level: 2, name })).toBeVisible();
  }
  const notice = visitor.getByRole("region", { name: "1. Mentions légales" });
  for (const text of ["Comptoir des Collectionneurs", "société par actions simplifiée unipersonnelle (SASU)", "RCS Lyon 123 456 782", "FR11123456782", "Camille Martin", "Hébergeur Exemple SAS", "2 rue de l'Hébergement, 59100 Roubaix"]) {
    await expect(notice.getByText(text).first()).toBeVisible();
  }
  await expect(notice.getByRole("link", { name: "bonjour@comptoir-collection.fr" })).toHaveAttribute("href", "mailto:bonjour@comptoir-collection.fr");
  // The emptied mediator is marked, in words, where the CGV name it; its site is still given.
  const mediation = visitor.locator("#mediation + p + ul");
  await expect(mediation.getByText("À compléter par le vendeur")).toBeVisible();
  await expect(mediation.getByRole("link", { name: "https://www.mediation-exemple.fr/" })).toBeVisible();

  await visitor.getByRole("navigation", { name: "Sommaire" }).getByRole("link", { name: "8. Droit de rétractation" }).click();
  await expect(visitor).toHaveURL(/#retractation$/);
  await expect(visitor.getByRole("heading", { name: "Modèle de formulaire de rétractation" })).toBeVisible();
  await expect(visitor.getByRole("contentinfo").getByRole("link", { name: "Se rétracter du contrat" })).toHaveAttribute("href", "/retractation");
  await expectNoSeriousA11yViolations(visitor);
});

test("the privacy notice names every cookie and storage key a visit leaves, and reads well at 1280 and 390, dark and light", async ({ page }) => {
  // Two axe runs over the long /legal page: slow on a loaded machine.
  test.slow();
  // A visit that leaves what a shopper's does: a cart, a delivery choice, the theme chosen.
  await page.goto("/");
  await waitForHydration(page);
  await page.getByRole("button", { name: /^Ajouter au panier/ }).first().click();
  await expect(page.getByRole("link", { name: "Panier : 1 article" })).toBeVisible();
  await page.goto("/cart");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();

  await page.goto("/legal#confidentialite");
  const section = page.getByRole("region", { name: "3. Politique de confidentialité" });
  const storage = section.getByRole("region", { name: "Stockage utilisé dans le navigateur" });
  const processing = section.getByRole("region", { name: "Traitements de données personnelles" });
  await expect(processing.getByRole("rowheader", { name: "Alertes «\u00a0Prévenez-moi\u00a0» (disponibilité d'un produit)" })).toBeVisible();
  await expect(processing).toContainText("puis anonymisées");
  await expect(processing).toContainText("sans connexion");

  await chooseLightTheme(page);
  const held = await page.evaluate(() => [...Object.keys(localStorage), ...Object.keys(sessionStorage)]);
  const cookies = (await page.context().cookies()).map((cookie) => cookie.name);
  expect(held).toEqual(expect.arrayContaining(["cart", "theme"]));
  const listed = (await storage.getByRole("rowheader").allTextContents()).map((name) => name.trim());
  // Every name the browser holds is in the table (a drop's names end with the product's number).
  for (const name of [...held, ...cookies]) expect(listed, name).toContain(name.replace(/^(drop_(?:ticket|admission)_)\d+$/, "$1N"));
  for (const name of ["drop_ticket_N", "drop_admission_N", "drop_collector", "better-auth.session_token", "comptoir_receipt"]) expect(listed).toContain(name);
  await expectNoSeriousA11yViolations(page);

  await section.getByRole("heading", { name: "Données traitées, finalités, bases légales et durées" }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath("confidentialite-clair-1280.png") });
  await page.setViewportSize({ width: 390, height: 844 });
  await storage.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath("confidentialite-clair-390.png") });

  // The dark default: a new page of the same browser, theme key removed.
  await page.evaluate(() => localStorage.removeItem("theme"));
  await page.reload();
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  await processing.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath("confidentialite-sombre-390.png") });
  await page.setViewportSize({ width: 1280, height: 900 });
  await section.getByRole("heading", { name: "Données traitées, finalités, bases légales et durées" }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath("confidentialite-sombre-1280.png") });
  await storage.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath("confidentialite-cookies-sombre-1280.png") });
  await expectNoSeriousA11yViolations(page);
});
