import sharp from "sharp";
import { chooseLightTheme, expect, expectNoSeriousA11yViolations, signInAdmin, test, waitForHydration } from "./fixtures";

/**
 * Product safety (GPSR art. 19) and PEGI, issue 52: a product without safety information cannot
 * be published (the French message lists what is missing), the product page shows the complete
 * block (manufacturer, EU responsible person, identifier, warnings) and a video game's PEGI
 * pictogram; axe clean; screenshots at 1280 and 390, dark and light.
 */

test("a product without safety information cannot be published: the message lists what is missing", async ({ page }) => {
  await signInAdmin(page);
  await page.goto("/admin/products/add");
  await waitForHydration(page);
  await page.getByLabel("Nom du produit").fill("Display sans fiche sécurité");
  await page.getByLabel("Description").fill("Un produit sans informations de sécurité.");
  await page.getByLabel("Prix (€)").fill("99");
  await page.getByLabel("Stock").fill("2");
  await page.getByLabel("Sous-catégorie").selectOption("Scellés");
  // The image is required too: given, so that only the safety information is missing.
  const png = await sharp({ create: { width: 400, height: 400, channels: 3, background: { r: 40, g: 90, b: 200 } } }).png().toBuffer();
  await page.locator("#main-image-file").setInputFiles({ name: "display.png", mimeType: "image/png", buffer: png });
  await expect(page.getByAltText("Aperçu de l'image principale")).toBeVisible();
  const status = page.getByRole("status").filter({ hasText: "Publication impossible sans" });
  await expect(status).toContainText("nom du fabricant, adresse postale du fabricant, adresse électronique du fabricant, identifiant du produit (EAN ou référence du fabricant)");
  await page.getByRole("button", { name: "Ajouter le produit" }).click();
  await expect(page.getByText(/^Publication impossible : informations de sécurité manquantes \(nom du fabricant/)).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/products\/add/);
  // A brand whose maker is outside the EU, with its EU responsible person: only the identifier is left.
  await page.getByLabel("Marque", { exact: true }).selectOption({ label: "Pokémon" });
  await expect(status).toHaveText("Publication impossible sans : identifiant du produit (EAN ou référence du fabricant). Le produit peut être enregistré hors ligne.");
  await expectNoSeriousA11yViolations(page);
});

test("the product page shows the complete safety block and a video game's PEGI pictogram", async ({ page }) => {
  await page.goto("/catalog?q=ecarlate%20switch");
  await page.getByRole("link", { name: /Pokémon Écarlate – Nintendo Switch/ }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Pokémon Écarlate – Nintendo Switch" })).toBeVisible();
  const pegi = page.getByRole("img", { name: "PEGI 7" });
  await expect(pegi).toBeVisible();
  await expect(page.getByRole("list", { name: "Descripteurs de contenu PEGI" })).toHaveText("Violence");
  const safety = page.getByTestId("product-safety");
  await safety.getByText("Sécurité du produit", { exact: true }).click();
  for (const [label, value] of [
    ["Fabricant", "Nintendo Co., Ltd."],
    ["Adresse postale", "Kyoto 601-8501"],
    ["E-mail", "securite-produits@nintendo.example"],
    ["Personne responsable dans l'UE", "Nintendo of Europe SE"],
    ["Identifiant", "Référence du fabricant : EXEMPLE-POKEMON-ECARLATE-SWITCH"],
    ["Avertissements", "épilepsie"],
  ] as const) {
    await expect(safety.getByRole("row", { name: label, exact: false }).first()).toContainText(value);
  }
  await expectNoSeriousA11yViolations(page);
  for (const theme of ["sombre", "clair"] as const) {
    if (theme === "clair") await chooseLightTheme(page);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await pegi.scrollIntoViewIfNeeded();
      await page.screenshot({ path: test.info().outputPath(`pegi-${theme}-${width}.png`) });
      await safety.scrollIntoViewIfNeeded();
      await safety.screenshot({ path: test.info().outputPath(`securite-${theme}-${width}.png`) });
    }
  }
  await expectNoSeriousA11yViolations(page);
});
