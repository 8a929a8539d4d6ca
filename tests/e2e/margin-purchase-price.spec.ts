import fs from "node:fs";
import { type RunningServer, startServer } from "../integration/server-process";
import { expect, expectNoSeriousA11yViolations, signInAdmin, specDataDir, TEST_CLOCK_TOKEN, test, waitForHydration } from "./fixtures";

/**
 * The product form's purchase price (docs/decisions/057): putting a product under the margin
 * scheme asks the purchase price of its stock, in French, before anything is sent; with it, the
 * product's page lists its lot. Screenshots at 1280 and 390 px.
 */
test.describe.configure({ mode: "serial" });

const ADMIN = { email: "admin-marge@comptoir.test", password: "admin-marge-mot-de-passe" };
let server: RunningServer;
let dataDir: string;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dataDir = await specDataDir("comptoir-e2e-marge-");
  server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: "", ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, TEST_CLOCK: TEST_CLOCK_TOKEN });
});

test.afterAll(async () => {
  await server?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

test("a product put under the margin scheme asks its stock's purchase price, then shows its lot", async ({ page }) => {
  await signInAdmin(page, ADMIN, server.url);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${server.url}/admin/products/edit/1`);
  await waitForHydration(page);
  const stock = await page.getByLabel("Stock").inputValue();
  expect(Number(stock)).toBeGreaterThan(0);
  await page.getByLabel("Bien d'occasion (régime de la marge)").check();
  const price = page.getByLabel("Prix d'achat unitaire (€)");
  await expect(price).toBeVisible();
  await page.getByRole("button", { name: "Enregistrer" }).first().click();
  const message = `Indiquez le prix d'achat unitaire du stock (${stock} unité${Number(stock) > 1 ? "s" : ""}) : la TVA sur la marge en dépend.`;
  await expect(page.getByText(message)).toBeVisible();
  await expect(price).toHaveAttribute("aria-invalid", "true");
  await price.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath("prix-achat-1280.png") });
  await page.setViewportSize({ width: 390, height: 844 });
  await price.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath("prix-achat-390.png") });
  await expectNoSeriousA11yViolations(page);

  await price.fill("4,50");
  await page.getByRole("button", { name: "Enregistrer" }).first().click();
  await expect(page).toHaveURL(/\/admin\/products(\?|$)/);
  await page.goto(`${server.url}/admin/products/edit/1`);
  const lots = page.getByRole("region", { name: "Lots d'achat (régime de la marge)" });
  await expect(lots.getByRole("row")).toHaveCount(2);
  await expect(lots.getByRole("row").nth(1)).toContainText("4,50");
  await lots.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath("lots-390.png") });
  await page.setViewportSize({ width: 1280, height: 900 });
  await lots.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath("lots-1280.png") });
  await expectNoSeriousA11yViolations(page);
});
