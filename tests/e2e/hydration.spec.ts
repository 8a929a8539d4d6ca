import { expect, test, waitForHydration } from "./fixtures";

/**
 * React hydrates the server's markup as it is, the parts the page suspends on (Suspense, <Await>)
 * included: a part rebuilt instead (a hydration mismatch, or a part the server moved to the end
 * of the page to be swapped in by a script) would flash, reload its images and lose what the
 * visitor typed or focused meanwhile.
 */
for (const path of ["/", "/catalog", "PRODUCT"]) {
  test(`${path}: hydration keeps every element the server sent`, async ({ page }) => {
    let url = path;
    if (path === "PRODUCT") {
      await page.goto("/catalog");
      url = (await page.locator('article h3 a[href^="/product/"]').first().getAttribute("href"))!;
    }
    await page.addInitScript(() => {
      const removed: string[] = [];
      (window as unknown as { __removed: string[] }).__removed = removed;
      new MutationObserver((records) => {
        for (const record of records)
          for (const node of record.removedNodes) if (node instanceof Element) removed.push(`${node.tagName.toLowerCase()} ${node.className}`.trim());
      }).observe(document, { childList: true, subtree: true });
    });
    // The similar products load as soon as their block nears the screen, and their list then
    // replaces the skeleton the server sent: on CI that once happened before the last part had
    // hydrated. Held until the page has hydrated, so that only hydration's changes are observed.
    let release!: () => void;
    const hydrated = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/api\/products\/\d+\/similar/, async (route) => {
      await hydrated;
      await route.continue();
    });
    await page.goto(url);
    await waitForHydration(page);
    // React Router's <Links> and <Scripts> replace the head's links and its inline scripts: not page content.
    const removed = await page.evaluate(() => (window as unknown as { __removed: string[] }).__removed);
    release();
    expect(removed.filter((entry) => !/^(script|link)\b/.test(entry))).toEqual([]);
    // Hydrated all the way down: the first "Ajouter au panier" (a card's) works.
    await page.getByRole("button", { name: /^Ajouter au panier/ }).first().click();
    await expect(page.getByRole("link", { name: "Panier : 1 article" })).toBeVisible();
  });
}
