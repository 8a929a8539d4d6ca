import type { RunningServer } from "../integration/server-process";
import { WISHLIST_DEMAND_FIXTURES as F } from "../setup/wishlist-demand-fixtures-data";
import { startFixtureServer } from "./fixture-server";
import { expect, expectNoSeriousA11yViolations, signInAdmin, test } from "./fixtures";

/**
 * The seller sees the demand before restocking (issue 56, point 3): the dashboard's « Clients en
 * attente » and the product list's « En attente », counting wish lists and confirmed « Prévenez-moi »
 * alerts, each address once. On a server of its own (tests/setup/wishlist-demand-fixtures.ts).
 */
test.describe.configure({ mode: "serial" });

let server: RunningServer;
let stopServer: () => Promise<void> = async () => {};
const url = (p: string) => `${server.url}${p}`;
const [display, coffret] = F.products;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  ({ server, stop: stopServer } = await startFixtureServer("comptoir-e2e-demande-", "tests/setup/wishlist-demand-fixtures.ts", F.admin));
});

test.afterAll(() => stopServer());

for (const { width, theme } of [
  { width: 1280, theme: "dark" },
  { width: 390, theme: "light" },
]) {
  test(`the seller reads the customers waiting, on the dashboard and in the product list (${width} px, ${theme})`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    if (theme === "light") await page.addInitScript(() => window.localStorage.setItem("theme", "light"));
    await signInAdmin(page, F.admin, server.url);

    await page.goto(url("/admin"));
    const card = page.locator("div").filter({ has: page.getByRole("heading", { level: 3, name: /Clients en attente/ }) }).last();
    await expect(card.getByRole("heading", { level: 3 })).toContainText("2 produits attendus");
    const lines = card.getByRole("listitem");
    await expect(lines).toHaveText([`${display.title}${display.waiting} clients`, `${coffret.title}${coffret.waiting} client`]);
    await expect(card.getByRole("link", { name: display.title })).toHaveAttribute("href", /\/admin\/products\/edit\/\d+$/);
    await expectNoSeriousA11yViolations(page);
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath(`tableau-de-bord-clients-en-attente-${width}-${theme}.png`) });

    await page.goto(url("/admin/products?q=attendu"));
    await expect(page.getByRole("columnheader", { name: "En attente" })).toBeVisible();
    const row = page.getByRole("row").filter({ hasText: display.title });
    await expect(row.getByText(`${display.waiting} clients`, { exact: true })).toBeVisible();
    await expect(page.getByRole("row").filter({ hasText: coffret.title }).getByText("1 client", { exact: true })).toBeVisible();
    await expect(page.getByText(/^En attente : les clients qui ont le produit dans leur liste/)).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: test.info().outputPath(`produits-en-attente-${width}-${theme}.png`), fullPage: true });
  });
}
