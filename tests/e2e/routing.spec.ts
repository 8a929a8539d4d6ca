import { expect, test, waitForHydration } from "./fixtures";

const REDIRECTS: [string, number, string][] = [
  ["/checkout", 302, "/cart"],
  ["/products", 301, "/catalog"],
  ["/shop", 301, "/catalog"],
  ["/register", 301, "/signup"],
  ["/cgv", 301, "/legal"],
  ["/mentions-legales", 301, "/legal"],
  ["/terms", 301, "/legal"],
  ["/produit/12", 301, "/product/12"],
  ["/shop?category=sealed", 301, "/catalog?category=sealed"],
];

test.describe("redirects, not-found and construction pages", () => {
  test("the old addresses answer their redirects", async ({ request }) => {
    for (const [from, status, to] of REDIRECTS) {
      const response = await request.get(from, { maxRedirects: 0 });
      expect(response.status(), from).toBe(status);
      expect(response.headers()["location"], from).toBe(to);
    }
  });

  test("an unknown path answers 404 with the not-found page", async ({ page, request }) => {
    const response = await request.get("/page-qui-n-existe-pas");
    expect(response.status()).toBe(404);
    expect(await response.text()).toContain("Cette page a disparu");

    await page.goto("/page-qui-n-existe-pas");
    await expect(page.getByText("404", { exact: true })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Cette page a disparu" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Retour à l'accueil" })).toHaveAttribute("href", "/");
    await expect(page.getByRole("link", { name: "Voir le catalogue" })).toHaveAttribute("href", "/catalog");
    await expect(page.getByText("Vous allez être redirigé vers le catalogue")).toHaveCount(0);
  });

  test("a vanished product page announces the redirect and goes to /catalog after 5 seconds, not before", async ({ page }) => {
    // The page's own clock, stopped before it loads and moved on by hand: the countdown starts
    // when the page has hydrated, at a moment the test knows exactly.
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 1_000);
    await page.goto("/product/999999/ancien");
    await waitForHydration(page);
    const status = page.getByRole("status").filter({ hasText: "Vous allez être redirigé vers le catalogue" });
    await expect(status).toContainText("dans 5 secondes.");
    await page.clock.runFor(1_000);
    await expect(status).toContainText("dans 4 secondes.");
    await page.clock.runFor(3_999);
    await expect(status).toContainText("dans 1 seconde.");
    expect(new URL(page.url()).pathname).toBe("/product/999999/ancien");
    await page.clock.runFor(1);
    await page.waitForURL("**/catalog");
  });

  test("/product/undefined does not redirect", async ({ page }) => {
    await page.goto("/product/undefined/x");
    await expect(page.getByRole("heading", { name: "Cette page a disparu" })).toBeVisible();
    await expect(page.getByText("Vous allez être redirigé vers le catalogue")).toHaveCount(0);
  });

  test("/construction renders", async ({ page }) => {
    await page.goto("/construction");
    await expect(page.getByRole("heading", { name: "Page en construction" })).toBeVisible();
  });

  test("healthz says the process answers; readyz checks the database, its migrations and the storage", async ({ request }) => {
    const response = await request.get("/healthz");
    expect(await response.json()).toEqual({ status: "ok", database: "pglite" });
    const ready = await request.get("/readyz");
    expect(ready.status()).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready", checks: { database: "ok", migrations: "ok", storage: "ok" } });
  });

  test("fingerprinted assets are cached for a year", async ({ request }) => {
    const html = await (await request.get("/")).text();
    const asset = /\/assets\/[^"]+\.js/.exec(html)?.[0];
    expect(asset).toBeTruthy();
    const response = await request.get(asset!);
    expect(response.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  });
});
