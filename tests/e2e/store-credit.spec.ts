import type { Page } from "@playwright/test";
import type { RunningServer } from "../integration/server-process";
import { STORE_CREDIT_CUSTOMER as CUSTOMER, STORE_CREDIT_PRODUCT as PRODUCT } from "../setup/store-credit-fixtures-data";
import { chooseAddressDeliveryInCart, paymentDelivery } from "./checkout-helpers";
import { startFixtureServer } from "./fixture-server";
import { chooseLightTheme, expect, expectNoSeriousA11yViolations, test } from "./fixtures";

/**
 * Store credit (issue 54, decision 055) as the customer sees it: « Mon avoir » on /account with
 * its movements (axe clean), and the cart's balance and amount field; a home delivery paid by
 * credit alone, its address given on the shop (decision 060); screenshots at 1280 and 390 px,
 * dark and light.
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

test("a home delivery paid entirely by credit: the address is given on the shop, then the confirmation", async ({ page }) => {
  test.slow();
  await signIn(page);
  await page.goto(url(`/catalog?q=${encodeURIComponent(PRODUCT.title)}`));
  await page.getByRole("button", { name: `au panier : ${PRODUCT.title}` }).click();
  await expect(page.getByRole("button", { name: `au panier : ${PRODUCT.title}` })).toContainText("Ajouté");
  await page.goto(url("/cart"));
  await chooseAddressDeliveryInCart(page);
  await expect(page.getByRole("region", { name: "Mon avoir" }).getByLabel("Utiliser mon avoir pour cette commande")).toBeChecked();
  const total = (await page.getByTestId("cart-total").innerText()).trim();
  await page.getByRole("button", { name: "Procéder au paiement" }).click();

  // No payment page: the shop asks where to deliver, the order's total paid by the credit.
  await expect(page).toHaveURL(/\/account\/orders\/CPT-[\d-]+\/livraison$/);
  await expect(page.getByRole("heading", { level: 1, name: "Adresse de livraison" })).toBeVisible();
  await expect(page.getByText("Votre avoir couvre toute la commande")).toBeVisible();
  const pay = page.getByRole("button", { name: `Payer ${total} avec mon avoir – commande avec obligation de paiement` });
  await expect(pay).toBeVisible();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `.tmp/store-credit-address-${width}-dark.png`, fullPage: true });
  }
  await expectNoSeriousA11yViolations(page);
  await chooseLightTheme(page);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `.tmp/store-credit-address-${width}-light.png`, fullPage: true });
  }
  await expectNoSeriousA11yViolations(page);

  // Sent without an address: refused in the browser, in French, on the fields.
  await pay.click();
  const delivery = paymentDelivery(page);
  await expect(delivery.getByText("L'adresse est obligatoire")).toBeVisible();
  await expect(delivery.getByLabel("Nom complet du destinataire")).toBeFocused();
  await delivery.getByLabel("Nom complet du destinataire").fill("Camille Avoir");
  await delivery.getByLabel("Adresse", { exact: true }).fill("5 rue des Cartes");
  await delivery.getByLabel("Code postal").fill("69003");
  await delivery.getByLabel("Ville").fill("Lyon");
  await delivery.getByLabel("Téléphone").fill("06 12 34 56 78");
  await pay.click();

  await expect(page.getByRole("heading", { name: "Merci pour votre commande !" })).toBeVisible();
  await expect(page.getByText("Payée").first()).toBeVisible();
  await expect(page.getByText("5 rue des Cartes").first()).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});
