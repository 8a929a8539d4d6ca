import { expect, test, waitForHydration } from "./fixtures";

test.describe("/catalog, Notre collection", () => {
  test("is rendered on the server with every public product", async ({ request }) => {
    const html = await (await request.get("/catalog")).text();
    expect(html).toContain("Notre collection");
    expect(html).toContain("Typhlosion Holo – Neo Genesis");
    expect(html).toContain("18 produits");
  });

  test("the header search finds products ignoring accents, and the empty state shows the SPEC.md text", async ({ page }) => {
    await page.goto("/");
    const search = page.getByRole("combobox", { name: "Rechercher un produit" }).first();
    await search.fill("ecarlate");
    await search.press("Enter");
    await expect(page).toHaveURL(/\/catalog\?q=ecarlate$/);
    await expect(page.getByRole("heading", { name: "Notre collection" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Pokémon Écarlate – Nintendo Switch" })).toBeVisible();
    await expect(page.getByText("3 produits")).toBeVisible();

    const box = page.getByRole("searchbox", { name: "Rechercher dans la collection" });
    await expect(box).toHaveValue("ecarlate");
    await box.fill("zzzz introuvable");
    await box.press("Enter");
    await expect(page.getByText("Aucun produit ne correspond à vos critères de recherche.")).toBeVisible();
    // Still in the box, to try another word.
    await expect(box).toBeFocused();
    await page.getByRole("link", { name: "Réinitialiser les filtres" }).first().click();
    await expect(page).toHaveURL(/\/catalog$/);
    await expect(page.getByText("18 produits")).toBeVisible();
    await expect(box).toHaveValue("");
  });

  test("the category filter is kept in ?category= and the sort reorders", async ({ page }) => {
    await page.goto("/catalog");
    // The shop's links (components/ui/link) open inside the page: this mark would go with a reload.
    await page.evaluate(() => ((window as Window & { stayed?: boolean }).stayed = true));
    const stayed = () => page.evaluate(() => (window as Window & { stayed?: boolean }).stayed === true);
    const categories = page.getByRole("navigation", { name: "Catégories" });
    await expect(categories.getByRole("link", { name: "Toutes" })).toHaveAttribute("aria-current", "page");
    await categories.getByRole("link", { name: "Accessoires" }).click();
    await expect(page).toHaveURL(/category=accessories/);
    await expect(page.getByText("2 produits")).toBeVisible();
    await expect(categories.getByRole("link", { name: "Accessoires" })).toHaveAttribute("aria-current", "page");
    expect(await stayed()).toBe(true);

    await page.getByLabel("Trier par").focus();
    await page.getByLabel("Trier par").selectOption("price-desc");
    await expect(page).toHaveURL(/sort=price-desc/);
    await expect(page).toHaveURL(/category=accessories/);
    const names = page.getByRole("article").getByRole("heading");
    await expect(names.first()).toHaveText("Classeur 9 cases – 360 cartes");
    await expect(names.last()).toHaveText("Protège-cartes Premium (100 pochettes)");
    // The menu stays where the keyboard left it (it used to be replaced, and the focus lost).
    await expect(page.getByLabel("Trier par")).toBeFocused();

    await names.first().getByRole("link").click();
    await expect(page.getByRole("heading", { level: 1, name: "Classeur 9 cases – 360 cartes" })).toBeVisible();
    await page.goBack();
    await expect(page).toHaveURL(/sort=price-desc/);
    await expect(page.getByLabel("Trier par")).toHaveValue("price-desc");
    expect(await stayed()).toBe(true);
    // Back again: the menu shows the sort of that page.
    await page.goBack();
    await expect(page).not.toHaveURL(/sort=/);
    await expect(page.getByLabel("Trier par")).toHaveValue("newest");
  });

  test("a product opened from the keyboard puts the focus on its page's heading", async ({ page }) => {
    await page.goto("/catalog");
    await waitForHydration(page);
    const card = page.getByRole("article").first().getByRole("link");
    const name = (await card.innerText()).trim();
    await card.focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/product\//);
    // The link went with the old page: the new page's heading has the focus, not the page's body.
    await expect(page.getByRole("heading", { level: 1, name })).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(page.locator("main :focus")).toHaveCount(1);
  });

  test("an older category id from a home tile is understood", async ({ page }) => {
    await page.goto("/catalog?category=booster");
    await expect(page.getByRole("navigation", { name: "Catégories" }).getByRole("link", { name: "Scellés" })).toHaveAttribute("aria-current", "page");
  });

  // axe on /catalog, dark and light: tests/e2e/public-a11y.spec.ts.
});
