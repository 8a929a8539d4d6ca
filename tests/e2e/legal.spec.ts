import { expect, expectNoSeriousA11yViolations, signInAsAdmin, test } from "./fixtures";

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
