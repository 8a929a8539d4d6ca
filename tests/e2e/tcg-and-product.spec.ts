import { expect, holdPageCode, test, waitForHydration } from "./fixtures";

test.describe("/tcg, the trading-card catalogue", () => {
  test("is rendered on the server, sealed by default", async ({ request }) => {
    const html = await (await request.get("/tcg")).text();
    expect(html).toContain("Produits scellés");
    expect(html).toContain("Display Écarlate et Violet – 36 boosters");
    expect(html).not.toContain("Dracaufeu Holo – Set de Base");
  });

  test("keeps the tab in the query string, with a title per category and card type", async ({ page }) => {
    await page.goto("/tcg");
    const tabs = page.getByRole("navigation", { name: "Univers TCG" });
    await expect(tabs.getByRole("link", { name: "Scellés" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("link", { name: "Retour à l'accueil" })).toHaveAttribute("href", "/");

    await tabs.getByRole("link", { name: "Autres cartes" }).click();
    await expect(page).toHaveURL(/\/tcg\?category=other-cards$/);
    await expect(page.getByRole("heading", { level: 1, name: "Autres cartes" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Monkey D. Luffy – Leader One Piece" })).toBeVisible();

    await tabs.getByRole("link", { name: "Cartes", exact: true }).click();
    await expect(page).toHaveURL(/\/tcg\?category=cards$/);
    await expect(page.getByRole("heading", { level: 1, name: "Cartes récentes" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Pikachu VMAX – Épée et Bouclier" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Dracaufeu Holo – Set de Base" })).toHaveCount(0);

    await page.getByRole("link", { name: "Cartes vintage" }).click();
    await expect(page).toHaveURL(/type=vintage/);
    await expect(page.getByRole("heading", { level: 1, name: "Cartes vintage" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Dracaufeu Holo – Set de Base" })).toBeVisible();
    await expect(page.getByText("4 sur 4 produits")).toBeVisible();
  });

  test("searches cards by name or series, and shows the empty state with its link", async ({ page }) => {
    await page.goto("/tcg?category=cards&type=vintage");
    const search = page.getByPlaceholder("Rechercher une carte...");
    await search.fill("TEAM rocket");
    await search.press("Enter");
    await expect(page).toHaveURL(/q=TEAM\+rocket/);
    await expect(page.getByText("1 sur 1 produit")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Dracaufeu Obscur – Team Rocket" })).toBeVisible();

    await page.getByPlaceholder("Rechercher une carte...").fill("zzzz");
    await page.getByPlaceholder("Rechercher une carte...").press("Enter");
    await expect(page.getByText("Aucun produit trouvé")).toBeVisible();
    await page.getByRole("link", { name: "Voir tous les produits" }).click();
    await expect(page).toHaveURL(/\/catalog$/);
  });

  test("what is typed in the search before the page's code has run stays when it hydrates", async ({ page }) => {
    const release = await holdPageCode(page);
    await page.goto("/tcg?category=cards&type=vintage", { waitUntil: "domcontentloaded" });
    const search = page.getByPlaceholder("Rechercher une carte...");
    await search.fill("Team Rocket");
    release();
    await waitForHydration(page);
    await expect(search).toHaveValue("Team Rocket");
    await search.press("Enter");
    await expect(page).toHaveURL(/q=Team\+Rocket/);
    await expect(page.getByRole("heading", { name: "Dracaufeu Obscur – Team Rocket" })).toBeVisible();
  });

  test("the home page's rare-cards button filters ultra-rare cards", async ({ page }) => {
    await page.goto("/tcg?category=cards&rarity=ultra-rare");
    await expect(page.getByRole("link", { name: "Retirer le filtre Ultra rare" })).toBeVisible();
    await expect(page.getByText("2 sur 2 produits")).toBeVisible();
  });

  // axe on /tcg and /tcg?category=cards, dark and light: tests/e2e/public-a11y.spec.ts.
});

test.describe("/product/{id}", () => {
  test("is rendered on the server with its SEO tags", async ({ request }) => {
    const response = await request.get("/product/6");
    expect(response.status()).toBe(200);
    const html = await response.text();
    expect(html).toContain("<h1");
    expect(html).toContain("Dracaufeu Holo – Set de Base");
    expect(html).toMatch(/<link rel="canonical" href="http:\/\/[^"]+\/product\/6-dracaufeu-holo-set-de-base"/);
    expect(html).toContain('<meta property="og:type" content="product"');
    const decode = (text: string) => text.replace(/&#x27;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, "&");
    const description = decode(/<meta name="description" content="([^"]*)"/.exec(html)?.[1] ?? "");
    expect(description.length).toBe(155);
    expect(description.startsWith("La carte emblématique de 1999")).toBe(true);
    const jsonLd = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)?.[1] ?? "{}");
    expect(jsonLd).toMatchObject({ "@type": "Product", name: "Dracaufeu Holo – Set de Base" });
    expect(jsonLd.offers).toMatchObject({ priceCurrency: "EUR", price: "349.99", availability: "https://schema.org/InStock" });
  });

  test("shows breadcrumb, badges, stock, characteristics and similar products", async ({ page }) => {
    await page.goto("/catalog?category=cards");
    await page.getByRole("link", { name: "Tortank Holo – Set de Base" }).click();
    await expect(page).toHaveURL(/\/product\/\d+-tortank-holo-set-de-base$/);
    const breadcrumb = page.getByRole("navigation", { name: "Fil d'Ariane" });
    await expect(breadcrumb.getByRole("link", { name: "Accueil" })).toHaveAttribute("href", "/");
    await expect(breadcrumb.getByRole("link", { name: "Catalogue" })).toHaveAttribute("href", "/catalog");
    await expect(breadcrumb.getByText("Tortank Holo – Set de Base")).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: "Tortank Holo – Set de Base" })).toBeVisible();
    await expect(page.getByText("Cartes Vintage").first()).toBeVisible();
    await expect(page.getByText("Plus que 1 exemplaire disponible").first()).toBeVisible();
    const characteristics = page.getByRole("table");
    const rows: [string, string][] = [["Catégorie", "Cartes Vintage"], ["Rareté", "Rare"], ["Stock", "1 exemplaire"], ["Série", "Base Set"]];
    for (const [label, value] of rows) {
      await expect(characteristics.getByRole("row", { name: label })).toContainText(value);
    }
    // One unit: the quantity cannot go above it.
    await expect(page.getByRole("button", { name: "Augmenter la quantité" })).toBeDisabled();
    await expect(page.getByRole("button", { name: "Diminuer la quantité" })).toBeDisabled();

    const similar = page.getByRole("region", { name: "Produits similaires" });
    await similar.scrollIntoViewIfNeeded();
    await expect(similar.getByRole("article").first()).toBeVisible();
    const count = await similar.getByRole("article").count();
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThanOrEqual(4);
    await expect(similar.getByRole("heading", { name: "Tortank Holo – Set de Base" })).toHaveCount(0);
  });

  test("shows the price TTC, and the product safety information once \"Sécurité du produit\" is opened", async ({ page }) => {
    await page.goto("/product/13");
    await expect(page.getByRole("heading", { level: 1, name: "Booster de jeu Magic: The Gathering" })).toBeVisible();
    await expect(page.getByText("TTC", { exact: true })).toBeVisible();
    const safety = page.locator("details", { has: page.getByText("Sécurité du produit", { exact: true }) });
    await expect(safety).not.toHaveAttribute("open");
    await safety.getByText("Sécurité du produit", { exact: true }).click();
    const rows: [string, string][] = [
      ["Fabricant", "Wizards of the Coast LLC"],
      ["Adresse postale", "Renton, WA 98057-0707"],
      ["E-mail", "securite-produits@wizards.example"],
      ["Personne responsable dans l'UE", "Importateur UE (exemple à vérifier)"],
      ["Identifiant", "Référence du fabricant : EXEMPLE-BOOSTER-MAGIC-THE-GATHERING"],
      ["Avertissements", "Ne convient pas aux enfants de moins de 3 ans."],
    ];
    // Anchored: "Identifiant Référence du fabricant …" also holds the word.
    for (const [label, value] of rows) await expect(safety.getByRole("row", { name: new RegExp(`^${label} `) })).toContainText(value);
  });

  test("below the fold, the similar products' placeholder stands still until it loads", async ({ page }) => {
    // An endless pulse off screen kept the idle page repainting (about 7 % of a core).
    await page.goto("/product/1");
    const similar = page.getByRole("region", { name: "Produits similaires" });
    await expect(similar.getByRole("list", { name: "Chargement des produits" })).toBeAttached();
    const running = () => page.evaluate(() => document.getAnimations().filter((a) => a.playState === "running").length);
    await expect.poll(running).toBe(0);
    await similar.scrollIntoViewIfNeeded();
    await expect(similar.getByRole("article").first()).toBeVisible();
  });

  test("the quantity goes from 1 to the stock and is added to the cart", async ({ page }) => {
    await page.goto("/product/10");
    await expect(page.getByText("Plus que 4 exemplaires disponibles")).toBeVisible();
    const plus = page.getByRole("button", { name: "Augmenter la quantité" });
    const quantity = page.getByRole("spinbutton", { name: "Quantité" });
    await expect(quantity).toHaveValue("1");
    for (let i = 0; i < 3; i++) await plus.click();
    await expect(quantity).toHaveValue("4");
    await expect(plus).toBeDisabled();
    // At the stock it says so, but keeps the focus (a disabled button dropped it to the page).
    await expect(plus).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(quantity).toHaveValue("4");
    // Typed past the stock, the field shows the stock: the count the button will add.
    await quantity.fill("99");
    await expect(quantity).toHaveValue("4");
    await page.getByRole("button", { name: "Diminuer la quantité" }).click();
    await expect(quantity).toHaveValue("3");
    const add = page.getByRole("button", { name: "au panier : Pikachu VMAX – Épée et Bouclier" });
    await add.click();
    await expect(page.getByTestId("cart-count")).toHaveText("3");
    await expect(add).toHaveText(/Ajouté/);
  });

  test("an out-of-stock product cannot be added", async ({ page }) => {
    await page.goto("/catalog?q=lugia");
    await page.getByRole("link", { name: "Lugia V – Astres Radieux" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Lugia V – Astres Radieux" })).toBeVisible();
    await expect(page.getByText("Rupture de stock").first()).toBeVisible();
    await expect(page.getByRole("button", { name: /^Indisponible : / })).toBeDisabled();
  });

  test("an unknown product says so, with a 404 and a link back to the catalogue", async ({ page }) => {
    const response = await page.goto("/product/999999");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Produit introuvable" })).toBeVisible();
    await expect(page.getByText("Le produit que vous recherchez n'existe pas ou a été supprimé")).toBeVisible();
    await page.getByRole("link", { name: "Retour au catalogue" }).click();
    await expect(page).toHaveURL(/\/catalog$/);
  });
});
