import type { Page } from "@playwright/test";
import type { RunningServer } from "../integration/server-process";
import { STORE_CREDIT_CUSTOMER as CUSTOMER } from "../setup/store-credit-fixtures-data";
import { startFixtureServer } from "./fixture-server";
import { chooseLightTheme, expect, expectNoSeriousA11yViolations, test } from "./fixtures";

/**
 * Store credit (issue 54, decision 055) as the customer sees it: « Mon avoir » on /account with
 * its movements (axe clean), and the cart's balance and amount field; screenshots at 1280 and
 * 390 px, dark and light.
 */
test.describe.configure({ mode: "default" });

const ADMIN = { email: "admin-avoir@comptoir.test", password: "admin-avoir-mot-de-passe" };
let server: RunningServer;
let stopServer: () => Promise<void> = async () => {};
const url = (p: string) => `${server.url}${p}`;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  ({ server, stop: stopServer } = await startFixtureServer("comptoir-e2e-avoir-", "tests/setup/store-credit-fixtures.ts", ADMIN));
});
test.afterAll(() => stopServer());

async function signIn(page: Page) {
  await page.goto(url("/login"));
  await page.getByLabel("Email", { exact: false }).first().fill(CUSTOMER.email);
  await page.getByLabel("Mot de passe", { exact: false }).first().fill(CUSTOMER.password);
  await page.getByRole("button", { name: /Se connecter/ }).click();
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
}

test("« Mon avoir » on the account page and in the cart", async ({ page }) => {
  test.slow();
  await signIn(page);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(url("/account"));
    const credit = page.getByRole("region", { name: "Mon avoir" });
    await expect(credit).toContainText("52,50");
    await expect(credit).toContainText("Geste commercial : colis abîmé");
    await expect(credit).toContainText("jusqu'au 29 novembre 2027");
    await credit.screenshot({ path: `.tmp/store-credit-account-${width}-dark.png` });
  }
  await expectNoSeriousA11yViolations(page);
  await chooseLightTheme(page);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(url("/account"));
    await page.getByRole("region", { name: "Mon avoir" }).screenshot({ path: `.tmp/store-credit-account-${width}-light.png` });
  }
  await expectNoSeriousA11yViolations(page);

  await page.goto(url("/catalog"));
  await page.getByRole("button", { name: /au panier/ }).first().click();
  await page.goto(url("/cart"));
  const field = page.getByRole("region", { name: "Mon avoir" });
  await expect(field).toContainText("52,50");
  await expect(field.getByLabel("Utiliser mon avoir pour cette commande")).toBeChecked();
  await expect(field.getByLabel("Montant à utiliser (€)")).toHaveValue("52,50");
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await field.screenshot({ path: `.tmp/store-credit-cart-${width}-light.png` });
  }
});
