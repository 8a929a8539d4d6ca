import type { Page } from "@playwright/test";
import { CHECKOUT_FIXTURES as F } from "../setup/checkout-fixtures-data";
import type { RunningServer } from "../integration/server-process";
import { logIn } from "./account-helpers";
import { RELAY_POINT, chooseAddressDeliveryInCart, deliverySection, paymentDelivery, startCheckoutServer } from "./checkout-helpers";
import { chooseLightTheme, expect, expectNoSeriousA11yViolations, test, waitForHydration } from "./fixtures";

/**
 * The address book (issue 56, point 1, decision 064) at 1280 and 390 px: a signed-in customer
 * pays an order with a home address and ticks « Enregistrer cette adresse dans mon compte »; at
 * the next order the payment page proposes it, filled in; /account/adresses lists it as the
 * default (axe clean). Screenshots of both pages, dark and light.
 */
test.describe.configure({ mode: "default" });

const ADMIN = { email: "admin-adresses@comptoir.test", password: "admin-adresses-mot-de-passe" };
const HOME = { line1: "12 rue des Lilas", postalCode: "69001", city: "Lyon", phone: "06 12 34 56 78" };
let server: RunningServer;
let stopServer: () => Promise<void> = async () => {};
const url = (p: string) => `${server.url}${p}`;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  ({ server, stop: stopServer } = await startCheckoutServer("comptoir-e2e-adresses-", ADMIN));
});
test.afterAll(() => stopServer());

/** The product in the cart, a home delivery chosen, then « Procéder au paiement »: the test payment page. */
async function toPaymentPage(page: Page) {
  await page.goto(url(`/catalog?q=${encodeURIComponent(F.buy.title)}`));
  await page.getByRole("button", { name: `au panier : ${F.buy.title}` }).click();
  await expect(page.getByRole("button", { name: `au panier : ${F.buy.title}` })).toContainText("Ajouté");
  await page.goto(url("/cart"));
  await chooseAddressDeliveryInCart(page);
  await page.getByRole("button", { name: "Procéder au paiement" }).click();
  await expect(page).toHaveURL(/\/paiement\/cs_test_/);
  await waitForHydration(page);
}

async function payWithTestCard(page: Page) {
  await page.getByLabel("Numéro de carte").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiration (MM/AA)").fill("12/30");
  await page.getByLabel("Cryptogramme").fill("123");
  await page.getByRole("button", { name: /^Payer [\d\s,]+\s€ – commande avec obligation de paiement$/ }).click();
  await expect(page.getByRole("heading", { name: "Merci pour votre commande !" })).toBeVisible();
}

async function chooseDarkTheme(page: Page) {
  await page.getByRole("button", { name: "Changer le thème" }).click();
  await page.getByRole("menuitemradio", { name: "Sombre" }).click();
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
}

for (const [width, customer] of [
  [1280, F.customers[0]],
  [390, F.customers[1]],
] as const) {
  test(`at ${width} px: the address saved at checkout is proposed at the next order and kept in « Mes adresses »`, async ({ page }) => {
    test.slow(); // two orders, four screenshots, two accessibility scans
    await page.setViewportSize({ width, height: 900 });
    await logIn(page, customer.email, customer.password, server.url);
    await expect(page).toHaveURL(/\/account$/);

    // First order: nothing saved yet, so nothing proposed; the address typed, the box ticked.
    await toPaymentPage(page);
    const delivery = paymentDelivery(page);
    await expect(delivery.getByLabel("Adresse de livraison enregistrée")).toHaveCount(0);
    await delivery.getByLabel("Nom complet du destinataire").fill(customer.name);
    await delivery.getByLabel("Adresse", { exact: true }).fill(HOME.line1);
    await delivery.getByLabel("Code postal").fill(HOME.postalCode);
    await delivery.getByLabel("Ville").fill(HOME.city);
    await delivery.getByLabel("Téléphone").fill(HOME.phone);
    await delivery.getByRole("checkbox", { name: "Enregistrer cette adresse dans mon compte" }).check();
    await payWithTestCard(page);

    // Next order: the address is proposed, its fields filled in; the box is for a new address only.
    await toPaymentPage(page);
    const saved = delivery.getByLabel("Adresse de livraison enregistrée");
    await expect(saved.locator("option:checked")).toHaveText(`${customer.name}, ${HOME.line1}, ${HOME.postalCode} ${HOME.city} (par défaut)`);
    await expect(delivery.getByLabel("Nom complet du destinataire")).toHaveValue(customer.name);
    await expect(delivery.getByLabel("Adresse", { exact: true })).toHaveValue(HOME.line1);
    await expect(delivery.getByLabel("Code postal")).toHaveValue(HOME.postalCode);
    await expect(delivery.getByLabel("Téléphone")).toHaveValue(HOME.phone);
    await expect(delivery.getByRole("checkbox", { name: "Enregistrer cette adresse dans mon compte" })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: `.tmp/address-book-checkout-${width}-dark.png`, fullPage: true });
    await chooseLightTheme(page);
    await page.screenshot({ path: `.tmp/address-book-checkout-${width}-light.png`, fullPage: true });
    // « Nouvelle adresse » empties the fields and offers the box again.
    await saved.selectOption({ label: "Nouvelle adresse" });
    await expect(delivery.getByLabel("Adresse", { exact: true })).toHaveValue("");
    await expect(delivery.getByRole("checkbox", { name: "Enregistrer cette adresse dans mon compte" })).toBeVisible();
    await saved.selectOption({ index: 0 });
    await expect(delivery.getByLabel("Ville")).toHaveValue(HOME.city);
    await payWithTestCard(page);

    // « Mes adresses », from the account page: the address, the default, in the light theme then the dark one.
    await page.goto(url("/account"));
    await page.getByRole("link", { name: "Gérer mes adresses" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Mes adresses" })).toBeVisible();
    const homes = page.getByRole("region", { name: "Adresses de livraison" });
    await expect(homes.getByTestId("saved-address")).toHaveCount(1);
    await expect(homes.getByTestId("saved-address")).toContainText(`${customer.name}, ${HOME.line1}, ${HOME.postalCode} ${HOME.city}`);
    await expect(homes.getByTestId("saved-address")).toContainText("Par défaut");
    await expect(page.getByRole("region", { name: "Points relais" })).toContainText("Aucune adresse enregistrée.");
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: `.tmp/address-book-account-${width}-light.png`, fullPage: true });
    await chooseDarkTheme(page);
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: `.tmp/address-book-account-${width}-dark.png`, fullPage: true });

    // A billing address added on the page: refused in French first, then listed.
    await page.getByRole("link", { name: "Ajouter une adresse de facturation" }).click();
    const form = page.getByRole("form", { name: "Ajouter une adresse de facturation" });
    await waitForHydration(page);
    await form.getByLabel("Nom complet").fill(customer.name);
    await form.getByRole("button", { name: "Enregistrer l'adresse" }).click();
    await expect(form.getByText("L'adresse de facturation est obligatoire")).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await form.screenshot({ path: `.tmp/address-book-form-${width}-dark.png` });
    await form.getByLabel("Adresse", { exact: true }).fill("8 rue Cuvier");
    await form.getByLabel("Code postal").fill("75005");
    await form.getByLabel("Ville").fill("Paris");
    await form.getByRole("button", { name: "Enregistrer l'adresse" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Adresse ajoutée." })).toBeVisible();
    await expect(page.getByRole("region", { name: "Adresses de facturation" }).getByTestId("saved-address")).toContainText(`${customer.name}, 8 rue Cuvier, 75005 Paris`);

    // A relay point kept by its identifier: the cart fills it in when a relay point is chosen.
    await page.getByRole("link", { name: "Ajouter un point relais" }).click();
    const relayForm = page.getByRole("form", { name: "Ajouter un point relais" });
    await waitForHydration(page);
    await relayForm.getByLabel("Nom du point relais").fill(RELAY_POINT.name);
    await relayForm.getByLabel("Identifiant du point relais").fill(RELAY_POINT.id);
    await relayForm.getByLabel("Adresse du point relais").fill(RELAY_POINT.line1);
    await relayForm.getByLabel("Code postal").fill(RELAY_POINT.postalCode);
    await relayForm.getByLabel("Ville").fill(RELAY_POINT.city);
    await relayForm.getByRole("button", { name: "Enregistrer l'adresse" }).click();
    await expect(page.getByRole("region", { name: "Points relais" }).getByTestId("saved-address")).toContainText(`${RELAY_POINT.name} (n° ${RELAY_POINT.id})`);
    await page.goto(url(`/catalog?q=${encodeURIComponent(F.buy.title)}`));
    await page.getByRole("button", { name: `au panier : ${F.buy.title}` }).click();
    await page.goto(url("/cart"));
    const section = deliverySection(page);
    await section.getByRole("radio", { name: /^Point relais/ }).check();
    await expect(section.getByLabel("Point relais enregistré").locator("option:checked")).toHaveText(`${RELAY_POINT.name} (n° ${RELAY_POINT.id}), ${RELAY_POINT.city}`);
    await expect(section.getByLabel("Identifiant du point relais")).toHaveValue(RELAY_POINT.id);
    await expect(section.getByLabel("Adresse du point relais")).toHaveValue(RELAY_POINT.line1);
    await section.screenshot({ path: `.tmp/address-book-cart-relay-${width}-dark.png` });
  });
}
