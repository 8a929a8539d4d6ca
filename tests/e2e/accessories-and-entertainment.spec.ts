import type { Page } from "@playwright/test";
import { expect, test, waitForHydration } from "./fixtures";

const PROTECTORS = "Protège-cartes Premium (100 pochettes)"; // the one featured accessory of the sample catalogue
const BINDER = "Classeur 9 cases – 360 cartes";
const MANGA = "One Piece – Tome 105";
const GAME = "Pokémon Écarlate – Nintendo Switch"; // 2 in stock


const card = (page: Page, name: string) => page.getByRole("article").filter({ has: page.getByRole("heading", { name }) });

test.describe("/accessories", () => {
  test("is rendered on the server with the accessories, the packs banner and shared-cache headers", async ({ request }) => {
    const response = await request.get("/accessories");
    expect(response.status()).toBe(200);
    expect(response.headers()["cache-control"]).toBe("public, max-age=0, must-revalidate");
    const html = await response.text();
    expect(html).toContain("<title>Accessoires | Comptoir</title>");
    expect(html).toContain(PROTECTORS);
    expect(html).toContain(BINDER);
    expect(html).toContain("Packs accessoires");
    expect(html).toContain("Voir les packs");
    expect(html).not.toContain("Booster Astres Radieux");
  });

  test("lists the accessories newest first, with a way back home", async ({ page }) => {
    await page.goto("/accessories");
    await expect(page.getByRole("heading", { level: 1, name: "Accessoires" })).toBeVisible();
    await expect(page.getByRole("article").getByRole("heading")).toHaveText([PROTECTORS, BINDER]);
    await expect(page.getByText("2 produits")).toBeVisible();
    await expect(card(page, BINDER).getByText("Plus que 3", { exact: true })).toBeVisible();
    // A single page: no pager.
    await expect(page.getByRole("navigation", { name: "Pagination" })).toHaveCount(0);
    await page.getByRole("link", { name: "Retour à l'accueil" }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test("a page past the end is clamped to the last one, and the canonical URL has no default page", async ({ page }) => {
    await page.goto("/accessories?page=99");
    await expect(page.getByRole("article")).toHaveCount(2);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", /\/accessories$/);
  });

  test("Voir les packs shows the featured accessories, with skeletons meanwhile, and a way back to all", async ({ page }) => {
    await page.goto("/accessories");
    const banner = page.getByRole("region", { name: "Packs accessoires" });
    await waitForHydration(page);
    // Hold the data request long enough to see the loading state.
    await page.route("**/accessories.data*", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 600));
      await route.continue();
    });
    await banner.getByRole("link", { name: "Voir les packs" }).click();
    await expect(page.getByRole("list", { name: "Chargement des produits" })).toBeVisible();
    await expect(page).toHaveURL(/\/accessories\?packs=1$/);
    await expect(page.getByRole("article").getByRole("heading")).toHaveText([PROTECTORS]);
    await expect(card(page, PROTECTORS).getByText("Vedette", { exact: true })).toBeVisible();
    await expect(page).toHaveTitle("Packs accessoires | Comptoir");

    await banner.getByRole("link", { name: "Voir tous les accessoires" }).click();
    await expect(page).toHaveURL(/\/accessories$/);
    await expect(page.getByRole("article")).toHaveCount(2);
  });
});

test.describe("/entertainment", () => {
  test("is rendered on the server with the products, their badges and shared-cache headers", async ({ request }) => {
    const response = await request.get("/entertainment");
    expect(response.status()).toBe(200);
    expect(response.headers()["cache-control"]).toBe("public, max-age=0, must-revalidate");
    const html = await response.text();
    expect(html).toContain("Gaming &amp; Mangas | Comptoir</title>");
    expect(html).toContain(MANGA);
    expect(html).toContain(GAME);
    expect(html.match(/data-testid="kind-badge"/g)).toHaveLength(2);
    expect(html).not.toContain(PROTECTORS);
  });

  test("intro blocks, Manga/Gaming and Plus que N badges, prices", async ({ page }) => {
    await page.goto("/entertainment?page=99");
    await expect(page.getByRole("heading", { level: 1, name: "Gaming & Mangas" })).toBeVisible();
    await expect(page.getByRole("heading", { level: 2, name: "Mangas" })).toBeVisible();
    await expect(page.getByRole("heading", { level: 2, name: "Jeux vidéo" })).toBeVisible();
    await expect(page.getByRole("article")).toHaveCount(2);

    const manga = card(page, MANGA);
    await expect(manga.getByTestId("kind-badge")).toHaveText("Manga");
    await expect(manga.getByText(/^Plus que \d+$/)).toHaveCount(0); // 12 in stock
    await expect(manga.getByText("6,99 €")).toBeVisible();

    const game = card(page, GAME);
    await expect(game.getByTestId("kind-badge")).toHaveText("Gaming");
    await expect(game.getByText("Plus que 2", { exact: true })).toBeVisible();
    await expect(game.getByText("49,99 €")).toBeVisible();

    // The sample catalogue has no sold-out manga or game: every card can be added to the cart.
    await expect(page.getByText("Rupture de stock")).toHaveCount(0);
    await expect(page.getByRole("button", { name: /^Ajouter au panier : / })).toHaveCount(2);
  });

  test("adding an in-stock product to the cart updates the header badge", async ({ page }) => {
    await page.goto("/entertainment");
    await card(page, GAME).getByRole("button", { name: `au panier : ${GAME}` }).click();
    await expect(page.getByTestId("cart-count")).toHaveText("1");
    await expect(card(page, GAME).getByRole("button", { name: `au panier : ${GAME}` })).toContainText("Ajouté");
  });
});

// axe on /accessories and /entertainment, dark and light: tests/e2e/public-a11y.spec.ts.
