import type { Page } from "@playwright/test";
import { expect, expectNoSeriousA11yViolations, test } from "./fixtures";

const searchBox = (page: Page) => page.getByRole("banner").getByRole("combobox", { name: "Rechercher un produit" });
const suggestions = (page: Page) => page.getByRole("listbox", { name: "Suggestions de produits" });

test.describe("header search suggestions", () => {
  test("suggest public products by name, accents ignored, with a loading state", async ({ page }) => {
    await page.goto("/");
    const search = searchBox(page);
    await search.fill("ecarlate");
    await expect(page.getByText("Chargement...").or(suggestions(page))).toBeVisible();
    await expect(suggestions(page).getByRole("option", { name: /Pokémon Écarlate – Nintendo Switch/ })).toBeVisible();
    await expect(search).toHaveAttribute("aria-expanded", "true");
    const options = suggestions(page).getByRole("option");
    expect(await options.count()).toBeLessThanOrEqual(10);
    await expect(options.first().getByRole("img")).toHaveCount(0); // the thumbnail is decorative (alt="")
    await expect(options.first().locator("img")).toHaveAttribute("src", /\.(webp|svg)$/);
    await expect(suggestions(page).getByText("49,99 €")).toBeVisible();
  });

  test("shows the empty text for a word that matches nothing, and nothing for one character", async ({ page }) => {
    await page.goto("/");
    const search = searchBox(page);
    await search.fill("zzqxw");
    await expect(page.getByText("Aucun produit trouvé.")).toBeVisible();
    await expect(search).toHaveAttribute("aria-expanded", "false");

    await search.fill("e");
    await expect(page.getByText("Aucun produit trouvé.")).toBeHidden();
    await expect(page.getByText("Chargement...")).toBeHidden();
    await expect(suggestions(page)).toBeHidden();
  });

  test("arrow keys move through the options (no serious or critical accessibility violation meanwhile) and Enter opens the product", async ({ page }) => {
    await page.goto("/");
    const search = searchBox(page);
    await search.fill("ecarlate");
    const options = suggestions(page).getByRole("option");
    await expect(options.first()).toBeVisible();

    await search.press("ArrowUp"); // from no option, up goes to the last
    await expect(options.last()).toHaveAttribute("aria-selected", "true");
    await search.press("ArrowDown"); // and wraps to the first
    const first = options.first();
    await expect(first).toHaveAttribute("aria-selected", "true");
    await expect(search).toHaveAttribute("aria-activedescendant", (await first.getAttribute("id"))!);
    // Open, an option active: the state axe must see.
    await expectNoSeriousA11yViolations(page);

    await search.press("Enter");
    await expect(page).toHaveURL(/\/product\/\d+-display-ecarlate-et-violet-36-boosters$/);
    await expect(suggestions(page)).toBeHidden();
  });

  test("a click on an option opens the product; typos are forgiven", async ({ page }) => {
    await page.goto("/");
    await searchBox(page).fill("pikatchu");
    await expect(suggestions(page).getByRole("option", { name: /Pikachu VMAX – Épée et Bouclier/ })).toBeVisible();
    await searchBox(page).fill("pokemon switch");
    await suggestions(page).getByRole("option", { name: /Pokémon Écarlate – Nintendo Switch/ }).click();
    await expect(page).toHaveURL(/\/product\/\d+-pokemon-ecarlate-nintendo-switch$/);
  });

  test("Escape and a click outside close the suggestions", async ({ page }) => {
    await page.goto("/");
    const search = searchBox(page);
    await search.fill("dracaufeu");
    await expect(suggestions(page)).toBeVisible();
    await search.press("Escape");
    await expect(suggestions(page)).toBeHidden();
    await expect(search).toHaveValue("dracaufeu");
    await expect(search).toHaveAttribute("aria-expanded", "false");

    await search.press("ArrowDown"); // reopens
    await expect(suggestions(page)).toBeVisible();
    await page.getByRole("heading", { level: 1 }).click();
    await expect(suggestions(page)).toBeHidden();
  });

  test.describe("on a phone", () => {
    test.use({ viewport: { width: 390, height: 844 } });

    test("the second search box works with its own ids", async ({ page }) => {
      await page.goto("/");
      const search = searchBox(page);
      await expect(search).toHaveAttribute("id", "site-search-mobile");
      await search.fill("luffy");
      await expect(suggestions(page).getByRole("option", { name: /Monkey D\. Luffy/ })).toBeVisible();
      const ids = await page.locator("form[role=search] [id]").evaluateAll((elements) => elements.map((e) => e.id));
      expect(ids).toContain("site-search-listbox"); // the desktop box, hidden at this width
      expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    });
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("Enter still searches the catalogue", async ({ page }) => {
    await page.goto("/");
    const search = searchBox(page);
    await search.fill("ecarlate");
    await search.press("Enter");
    await expect(page).toHaveURL(/\/catalog\?q=ecarlate$/);
    await expect(page.getByRole("heading", { name: "Pokémon Écarlate – Nintendo Switch" })).toBeVisible();
  });
});

test.describe("search API, sitemap and robots.txt", () => {
  test("/api/search answers JSON the page cache may share, and an empty list for a bad q", async ({ request }) => {
    const response = await request.get("/api/search?q=pokemon");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toContain("application/json");
    expect(response.headers()["cache-control"]).toBe("public, max-age=0, must-revalidate");
    const { suggestions: found } = (await response.json()) as { suggestions: { name: string }[] };
    expect(found.map((s) => s.name)).toContain("Pokémon Écarlate – Nintendo Switch");

    for (const url of ["/api/search", "/api/search?q=p", `/api/search?q=${"pokemon".repeat(20)}`]) {
      const empty = await request.get(url);
      expect(empty.status()).toBe(200);
      expect(await empty.json()).toEqual({ suggestions: [] });
    }
  });

  test("/sitemap.xml lists the public pages and products with absolute URLs", async ({ request }) => {
    const response = await request.get("/sitemap.xml");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toContain("application/xml");
    expect(response.headers()["cache-control"]).toContain("public");
    const xml = await response.text();
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    for (const path of ["/", "/tcg?category=sealed", "/tcg?category=cards", "/tcg?category=other-cards", "/catalog", "/accessories", "/entertainment", "/about", "/contact", "/rachat", "/legal"]) {
      expect(xml).toMatch(new RegExp(`<loc>https?://[^<]+${path.replace(/[?]/g, "\\?")}</loc>`));
    }
    expect(xml).toMatch(/<url><loc>https?:\/\/[^<]+\/product\/\d+-pokemon-ecarlate-nintendo-switch<\/loc><lastmod>\d{4}-\d\d-\d\dT[^<]+<\/lastmod><\/url>/);
  });

  test("/robots.txt keeps robots out of private areas and names the sitemap", async ({ request }) => {
    const response = await request.get("/robots.txt");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toContain("text/plain");
    const lines = (await response.text()).split("\n");
    expect(lines).toContain("User-agent: *");
    for (const path of ["/admin", "/account", "/api/", "/cart", "/merci", "/test-email"]) expect(lines).toContain(`Disallow: ${path}`);
    expect(lines.some((line) => /^Sitemap: https?:\/\/\S+\/sitemap\.xml$/.test(line))).toBe(true);
  });
});
