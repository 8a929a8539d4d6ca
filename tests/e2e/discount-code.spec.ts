import type { RunningServer } from "../integration/server-process";
import { CHECKOUT_FIXTURES as F } from "../setup/checkout-fixtures-data";
import { fillPaymentPage, startCheckoutServer, chooseAddressDeliveryInCart } from "./checkout-helpers";
import { expect, expectNoSeriousA11yViolations, signInAdmin, test } from "./fixtures";

/**
 * Discount codes end to end, on a server of its own: the seller creates a code in /admin/codes,
 * a customer applies it in the cart (an unknown code first), sees the server's discount and
 * total, pays that total on the test payment page, and the confirmation shows the discount.
 * The many refusals and the counting are in tests/integration/discounts.test.ts.
 */
const ADMIN = { email: "admin-codes@comptoir.test", password: "admin-codes-mot-de-passe" };
let server: RunningServer;
let stopServer: () => Promise<void>;
const url = (p: string) => `${server.url}${p}`;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  ({ server, stop: stopServer } = await startCheckoutServer("comptoir-e2e-codes-", ADMIN));
});

test.afterAll(async () => {
  await stopServer?.();
});

test("the seller creates a code; a customer applies it in the cart and pays the discounted total", async ({ page, browser }) => {
  test.slow();
  // The seller: /admin/codes, a 10 % code from 20 € of purchases.
  await signInAdmin(page, ADMIN, server.url);
  await page.goto(url("/admin/codes"));
  await expect(page.getByRole("heading", { level: 1, name: "Codes promo" })).toBeVisible();
  await page.getByRole("textbox", { name: "Code", exact: true }).fill("bienvenue10");
  await page.getByRole("textbox", { name: "Réduction (%)" }).fill("10");
  await page.getByLabel("Minimum d'achat (€)").fill("20");
  // An expiry already past is refused under its field: such a code could never be used.
  await page.getByLabel("Expire le").fill("2020-01-31");
  await page.getByRole("button", { name: "Créer le code" }).click();
  await expect(page.getByText("Cette date d'expiration est déjà passée.")).toBeVisible();
  await page.getByLabel("Expire le").fill("");
  await page.getByRole("button", { name: "Créer le code" }).click();
  await expect(page.getByText("Code promo créé").first()).toBeVisible();
  const row = page.getByRole("row", { name: /BIENVENUE10/ });
  await expect(row).toContainText("10 %");
  await expect(row).toContainText("20,00 €");
  await expect(row).toContainText("Actif");
  await expectNoSeriousA11yViolations(page);

  // The customer, in another browser.
  const customer = await (await browser.newContext({ locale: "fr-FR" })).newPage();
  await customer.goto(url(`/catalog?q=${encodeURIComponent(F.buy.title)}`));
  await customer.getByRole("button", { name: `au panier : ${F.buy.title}` }).click();
  await expect(customer.getByRole("button", { name: `au panier : ${F.buy.title}` })).toContainText("Ajouté");
  await customer.goto(url("/cart"));
  // 12,50 € and, for its 120 g, the buyer takes delivery to an address: Colissimo à domicile, 5,49 €.
  await chooseAddressDeliveryInCart(customer);
  await expect(customer.getByTestId("cart-delivery")).toHaveText(/^Livraison \(Colissimo à domicile\)\s*5,49\s€$/);
  await expect(customer.getByTestId("cart-total")).toHaveText("17,99 €");

  // Nothing typed: the field says so and keeps the focus.
  const field = customer.getByLabel("Code promo");
  await customer.getByRole("button", { name: "Appliquer" }).click();
  await expect(field).toHaveAccessibleDescription("Saisissez un code promo.");
  await expect(field).toBeFocused();

  // Under its minimum, the code says what is missing; it applies once the cart reaches it.
  await field.fill("bienvenue10");
  await customer.getByRole("button", { name: "Appliquer" }).click();
  await expect(field).toHaveAccessibleDescription(/il manque 7,50\s€/);
  await customer.getByRole("button", { name: `Augmenter la quantité de ${F.buy.title}` }).click();
  await expect(customer.getByTestId("cart-discount")).toHaveText(/Réduction \(BIENVENUE10\)\s*−2,50\s€/);
  // 25,00 € − 2,50 € + 5,49 € of delivery (240 g).
  await expect(customer.getByTestId("cart-total")).toHaveText("27,99 €");
  await customer.getByRole("button", { name: "Retirer le code promo BIENVENUE10" }).click();
  await expect(customer.getByTestId("cart-total")).toHaveText("30,49 €");

  // An unknown code: the shop's French text under the field, which is marked.
  await field.fill("PASDUTOUT");
  await customer.getByRole("button", { name: "Appliquer" }).click();
  await expect(customer.getByText("Ce code promo n'existe pas.")).toBeVisible();
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toHaveAccessibleDescription("Ce code promo n'existe pas.");

  // The real one, typed in lower case (Enter applies it): the server's discount and total.
  await field.fill("bienvenue10");
  await field.press("Enter");
  await expect(customer.getByText("BIENVENUE10", { exact: true })).toBeVisible();
  await expect(customer.getByTestId("cart-discount")).toHaveText(/Réduction \(BIENVENUE10\)\s*−2,50\s€/);
  await expect(customer.getByTestId("cart-total")).toHaveText("27,99 €");
  // Focus moved to the control that replaced the field.
  await expect(customer.getByRole("button", { name: "Retirer le code promo BIENVENUE10" })).toBeFocused();
  await expectNoSeriousA11yViolations(customer);

  // The test payment page charges the discounted total; the confirmation shows the discount.
  await chooseAddressDeliveryInCart(customer);
  await customer.getByRole("button", { name: "Procéder au paiement" }).click();
  await expect(customer).toHaveURL(/\/paiement\/cs_test_/);
  await expect(customer.getByText("−2,50 €")).toBeVisible();
  await expect(customer.getByRole("listitem").filter({ hasText: "Livraison – Colissimo à domicile" })).toContainText("5,49 €");
  await expect(customer.getByRole("button", { name: /^Payer 27,99\s€/ })).toBeVisible();
  await fillPaymentPage(customer, { email: "remise@example.com" });
  await expect(customer.getByRole("heading", { name: "Merci pour votre commande !" })).toBeVisible();
  await expect(customer.getByText("Réduction (BIENVENUE10)")).toBeVisible();
  await expect(customer.getByText("27,99 €").first()).toBeVisible();
  // The code went with the cart.
  expect(await customer.evaluate(() => localStorage.getItem("cart-discount-code"))).toBeNull();

  // The seller sees the use counted.
  await page.reload();
  await expect(page.getByRole("row", { name: /BIENVENUE10/ })).toContainText("1 / illimité");
});
