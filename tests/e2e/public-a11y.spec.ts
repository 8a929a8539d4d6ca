import AxeBuilder from "@axe-core/playwright";
import { PRODUCT_PAGE, PUBLIC_PAGES } from "../support/public-pages";
import { expect, expectNoSeriousA11yViolations, test } from "./fixtures";

/**
 * axe on every public page, dark (the default) and light, one test per theme so the two run
 * side by side: no serious or critical violation (issue 13). Only the colours change with the
 * theme, so the light pass runs the contrast rule alone. Violations are gathered over all pages
 * and reported together.
 */
for (const theme of ["dark", "light"] as const) {
  test(`no serious or critical axe violation on the public pages, ${theme} theme`, async ({ page }) => {
    // About a second a page on a quiet machine; 2 shared cores beside the PostgreSQL pass ran
    // out of 90 s (CI). A guard against a hang, not a speed check.
    test.setTimeout(240_000);
    if (theme === "light") await page.addInitScript(() => window.localStorage.setItem("theme", "light"));
    await page.goto("/catalog");
    const product = await page.locator('article h3 a[href^="/product/"]').first().getAttribute("href");
    expect(product).toBeTruthy();
    const found: string[] = [];
    for (const path of PUBLIC_PAGES) {
      const url = path === PRODUCT_PAGE ? product! : path;
      await page.goto(url, { waitUntil: "domcontentloaded" });
      await expect(page.locator("html")).toHaveClass(theme === "dark" ? /\bdark\b/ : /^(?!.*\bdark\b)/);
      if (path === PRODUCT_PAGE) {
        // The similar products load when their block scrolls into view.
        const similar = page.getByRole("region", { name: "Produits similaires" });
        await similar.scrollIntoViewIfNeeded();
        await expect(similar.getByRole("article").first()).toBeVisible();
        // The product safety disclosure, opened: its contents are checked too.
        await page.getByText("Sécurité du produit", { exact: true }).click();
        await expect(page.getByRole("row", { name: /^Fabricant / })).toBeVisible();
      }
      // In the page itself (no frame to visit): no extra page per run. label-content-name-mismatch
      // (WCAG 2.5.3) is experimental in axe, off unless asked for.
      const axe = new AxeBuilder({ page }).setLegacyMode(true);
      const results = await (theme === "light"
        ? axe.withRules(["color-contrast"])
        : axe.options({ rules: { "label-content-name-mismatch": { enabled: true } } })
      ).analyze();
      for (const violation of results.violations) {
        if (violation.impact !== "serious" && violation.impact !== "critical") continue;
        found.push(`${theme} ${url} ${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`);
      }
    }
    expect(found).toEqual([]);
  });
}

test("the cart's loading state, as the page shows it before its script runs, has no serious or critical axe violation", async ({ page }) => {
  // The scan above sees it only when it runs before the cart is read (it once caught a label
  // on a plain div). Empty scripts keep the page as the server sent it.
  await page.route("**/assets/*.js", (route) => route.fulfill({ contentType: "text/javascript", body: "" }));
  await page.goto("/cart");
  await expect(page.getByLabel("Chargement du panier")).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});
