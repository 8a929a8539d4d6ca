import type { Page } from "@playwright/test";
import type { RunningServer } from "../integration/server-process";
import { CHECKOUT_FIXTURES as F } from "../setup/checkout-fixtures-data";
import { type BillingInput, RELAY_POINT, chooseRelayPointInCart, deliverySection, fillPaymentPage, paymentBilling, paymentDelivery, startCheckoutServer, chooseAddressDeliveryInCart } from "./checkout-helpers";
import { chooseLightTheme, expect, expectNoSeriousA11yViolations, signInAdminWithForm, test, waitForHydration } from "./fixtures";

/**
 * The customer's purchase, end to end, on a server of its own (see startCheckoutServer):
 * products at the "Remise contre signature" thresholds and a confirmed customer.
 */
test.describe.configure({ mode: "serial" });

const ADMIN = { email: "admin-checkout@comptoir.test", password: "admin-checkout-mot-de-passe" };
let server: RunningServer;
let stopServer: () => Promise<void>;
const url = (p: string) => `${server.url}${p}`;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  ({ server, stop: stopServer } = await startCheckoutServer("comptoir-e2e-checkout-", ADMIN));
});

test.afterAll(async () => {
  await stopServer?.();
});

async function openProduct(page: Page, title: string) {
  await page.goto(url(`/catalog?q=${encodeURIComponent(title)}`));
  await page.getByRole("link", { name: title }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
}

async function addFromProductPage(page: Page, title: string) {
  await openProduct(page, title);
  await page.getByRole("button", { name: `au panier : ${title}` }).click();
  await expect(page.getByText("Ajouté au panier").first()).toBeVisible();
}

async function stockMessage(page: Page, title: string) {
  await openProduct(page, title);
  return page.getByRole("region", { name: title }).getByText(/exemplaires? disponibles?|Produit disponible|Rupture de stock/).first().innerText();
}

async function logIn(page: Page, account: { email: string; password: string }) {
  await page.goto(url("/login"));
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Mot de passe").fill(account.password);
  await page.getByRole("button", { name: "Se connecter" }).click();
  await expect(page).toHaveURL(/\/account$/);
}

test("adds from the catalogue and a product page; the cart panel and /cart read as SPEC.md says", async ({ page }) => {
  await page.goto(url("/cart"));
  await expect(page.getByText("Votre panier est vide")).toBeVisible();
  await page.getByRole("link", { name: "Découvrir le catalogue" }).click();
  await expect(page).toHaveURL(/\/catalog$/);

  await page.goto(url(`/catalog?q=${encodeURIComponent(F.buy.title)}`));
  await page.getByRole("button", { name: `au panier : ${F.buy.title}` }).click();
  await expect(page.getByRole("button", { name: `au panier : ${F.buy.title}` })).toContainText("Ajouté");
  await addFromProductPage(page, F.cancel.title);

  // The header's cart panel.
  await page.getByRole("link", { name: "Panier : 2 articles" }).click();
  const panel = page.getByRole("dialog", { name: "Votre panier" });
  await expect(panel).toBeVisible();
  await expect(panel.getByText("Votre panier", { exact: true })).toBeVisible();
  await expect(panel.getByText("1 × 12,50 €")).toBeVisible();
  await expect(panel.getByText("1 × 9,90 €")).toBeVisible();
  await expect(panel.getByText("22,40 €")).toBeVisible();
  await expect(panel.getByRole("link", { name: "Voir le panier" })).toBeVisible();
  await expect(panel.getByRole("button", { name: "Commander" })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.keyboard.press("Escape");
  await expect(panel).toBeHidden();

  // /cart: lines, quantity limits, total, pay button and its note.
  await page.goto(url("/cart"));
  await expect(page.getByRole("heading", { level: 1, name: "Votre panier" })).toBeVisible();
  await expect(page.getByRole("link", { name: F.buy.title })).toHaveAttribute("href", /\/product\/\d+-booster-test-achat/);
  await expect(page.getByRole("button", { name: `Diminuer la quantité de ${F.cancel.title}` })).toBeDisabled();
  const plus = page.getByRole("button", { name: `Augmenter la quantité de ${F.cancel.title}` });
  for (let i = 1; i < F.cancel.stock; i++) await plus.click();
  await expect(plus).toBeDisabled();
  // 52,10 € of goods, five 120 g accessories (600 g): the cheapest delivery is preselected, a
  // relay point's included (decision 044): Point relais up to 1 kg, 4,49 € (the letter carries 100 g at most).
  await expect(deliverySection(page).getByRole("radio", { name: /^Point relais.*4,49\s€$/ })).toBeChecked();
  await expect(deliverySection(page).getByRole("radio", { name: /^Colissimo à domicile.*8,99\s€$/ })).not.toBeChecked();
  await expect(deliverySection(page).getByRole("radio", { name: /^Lettre suivie/ })).toHaveCount(0);
  await expect(page.getByTestId("cart-delivery")).toHaveText(/^Livraison \(Point relais\)\s*4,49\s€$/);
  await expect(page.getByTestId("cart-total")).toHaveText("56,59 €"); // 52,10 € + 4,49 €
  await chooseAddressDeliveryInCart(page);
  await expect(page.getByTestId("cart-delivery")).toHaveText(/^Livraison \(Colissimo à domicile\)\s*8,99\s€$/);
  await expect(page.getByTestId("cart-total")).toHaveText("61,09 €"); // 52,10 € + 8,99 €
  await expect(page.getByRole("button", { name: "Procéder au paiement" })).toBeEnabled();
  await expect(page.getByText("Paiement sécurisé – page de paiement de test")).toBeVisible();
  await expect(page.getByRole("button", { name: "Vider le panier" })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await page.getByRole("button", { name: `Retirer ${F.cancel.title} du panier` }).click();
  await page.getByRole("button", { name: "Vider le panier" }).click();
  await expect(page.getByText("Votre panier est vide")).toBeVisible();
  await page.getByRole("link", { name: "Panier vide" }).click();
  await expect(page.getByRole("dialog", { name: "Votre panier" }).getByRole("button", { name: "Continuer vos achats" })).toBeVisible();
});

test("Remise contre signature: 10 € up to 500 €, 20 € up to 1 000 €, not offered above; the transport risk stays the seller's", async ({ page }) => {
  const cases = [
    // Delivery is free from 60 € of goods at a relay point, preselected: the totals are goods + the option.
    { product: F.tier499, fee: "10,00 €", total: "509,99 €" },
    { product: F.tier500, fee: "20,00 €", total: "520,01 €" },
  ];
  for (const { product, fee, total } of cases) {
    await page.goto(url("/cart"));
    await page.evaluate(() => localStorage.removeItem("cart"));
    await addFromProductPage(page, product.title);
    await page.goto(url("/cart"));
    const insurance = page.getByRole("checkbox", { name: /Remise contre signature/ });
    await expect(page.locator("section", { hasText: "Remise contre signature" }).getByText(fee)).toBeVisible();
    await insurance.check();
    await expect(page.getByTestId("cart-delivery")).toHaveText(/^Livraison \(Point relais\)\s*Livraison offerte$/);
    await expect(page.getByTestId("cart-total")).toHaveText(total);
    // Changing the items resets the choice (SPEC.md section 4).
    await page.getByRole("button", { name: `Augmenter la quantité de ${product.title}` }).click();
    await expect(insurance).toHaveCount(product === F.tier499 ? 1 : 0);
    if (product === F.tier499) await expect(insurance).not.toBeChecked();
  }
  await page.evaluate(() => localStorage.removeItem("cart"));
  await addFromProductPage(page, F.tier1000.title);
  await page.goto(url("/cart"));
  await expect(page.getByTestId("cart-delivery")).toHaveText(/^Livraison \(Point relais\)\s*Livraison offerte$/);
  await expect(page.getByTestId("cart-total")).toHaveText("1 000,01 €");
  await expect(page.getByRole("checkbox", { name: /Remise contre signature/ })).toHaveCount(0);
  await expect(page.getByText("La remise contre signature n'est pas proposée au-delà de 1 000,00 €.")).toBeVisible();
  // A right whatever the choice (L216-4), beside the option or its absence.
  await expect(page.getByTestId("transport-risk")).toHaveText(
    "Quel que soit votre choix, nous supportons les risques du transport jusqu'à la remise du colis (article L216-4 du Code de la consommation).",
  );
});

test("the cart at 390 px: Remise contre signature with its price and the transport risk, the CGV line just above the pay button, the harmonised guarantee notice; axe clean; screenshots at 390 and 1280 px", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(url("/cart"));
  await page.evaluate(() => localStorage.removeItem("cart"));
  await addFromProductPage(page, F.buy.title);
  await page.goto(url("/cart"));
  const summary = page.getByRole("region", { name: "Récapitulatif de la commande" });
  await expect(summary.getByRole("checkbox", { name: /^Remise contre signature/ })).not.toBeChecked();
  await expect(summary.getByText("Le colis n'est remis que contre la signature du destinataire.", { exact: false })).toBeVisible();
  await expect(summary.getByText("10,00 €")).toBeVisible();
  await expect(summary.getByTestId("transport-risk")).toContainText("nous supportons les risques du transport jusqu'à la remise du colis");
  // Never worded as insurance or cover against loss.
  await expect(page.locator("main")).not.toContainText(/assurance|perte|vol ou de casse/i);
  const cgv = summary.getByTestId("cgv-acceptance");
  await expect(cgv).toHaveText("En validant, vous acceptez nos conditions générales de vente.");
  await expect(cgv.getByRole("link", { name: "conditions générales de vente" })).toHaveAttribute("href", "/legal#cgv");
  await expect(cgv.locator("xpath=following-sibling::*[1]")).toHaveText(/Procéder au paiement/);
  const notice = page.getByRole("complementary", { name: "Garantie légale de conformité : 2 ans minimum" });
  await expect(notice).toContainText("réparer ou le remplacer gratuitement pendant au moins 2 ans");
  await expect(notice.getByRole("link", { name: /Vos droits dans l'Union européenne/ })).toHaveAttribute("href", /^https:\/\/europa\.eu\/youreurope\//);
  await expectNoSeriousA11yViolations(page);
  const shot = async (name: string) => {
    await summary.evaluate((element) => element.scrollIntoView({ block: "center" }));
    await page.screenshot({ path: test.info().outputPath(`${name}-recapitulatif.png`) });
    await notice.evaluate((element) => element.scrollIntoView({ block: "center" }));
    await page.screenshot({ path: test.info().outputPath(`${name}-garantie.png`) });
  };
  await shot("panier-390-sombre");
  await chooseLightTheme(page);
  await expectNoSeriousA11yViolations(page);
  await shot("panier-390-clair");
  await page.setViewportSize({ width: 1280, height: 900 });
  await shot("panier-1280-clair");
});

test("a signed-in customer pays on the test page: /merci, empty cart, stock down, order in /account, e-mail in /admin/emails", async ({ page, browser }) => {
  test.slow();
  const [customer, other] = F.customers;
  const before = await stockMessage(page, F.buy.title);
  expect(before).toBe(`Plus que ${F.buy.stock} exemplaires disponibles`);
  await logIn(page, customer);
  await addFromProductPage(page, F.buy.title);
  await page.getByRole("button", { name: `au panier : ${F.buy.title}` }).click();
  await page.goto(url("/cart"));
  // 25,00 € of goods (240 g): the cheapest method preselected, Point relais, 3,99 €.
  await expect(page.getByTestId("cart-total")).toHaveText("28,99 €");
  await page.getByRole("checkbox", { name: /Remise contre signature/ }).check();
  // A relay point: 3,99 € up to 500 g.
  await chooseRelayPointInCart(page);
  await expect(page.getByTestId("cart-delivery")).toHaveText(/^Livraison \(Point relais\)\s*3,99\s€$/);
  await expect(page.getByTestId("cart-total")).toHaveText("38,99 €"); // 25,00 € + 10,00 € of signature delivery + 3,99 €
  await page.getByRole("button", { name: "Procéder au paiement" }).click();
  await expect(page).toHaveURL(/\/paiement\/cs_test_/);
  await expect(page.getByText("38,99 €").first()).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: "Livraison – Point relais" })).toContainText("3,99 €");
  await expect(page.getByTestId("relay-point")).toContainText(RELAY_POINT.name);
  await expect(page.getByText(`Confirmation envoyée à ${customer.email}`)).toBeVisible();
  // A relay point is never a billing address: no « identique » box, the fields are there.
  const billingGroup = paymentBilling(page);
  await expect(billingGroup.getByRole("checkbox", { name: "Adresse de facturation identique" })).toHaveCount(0);
  // Signed in: the address typed may go to the address book (decision 064).
  await expect(billingGroup.getByRole("checkbox", { name: "Enregistrer cette adresse dans mon compte" })).not.toBeChecked();
  await expect(billingGroup.getByText("Un point relais ne peut pas servir d'adresse de facturation")).toBeVisible();
  await expect(billingGroup.getByLabel("Adresse", { exact: true })).toBeVisible();
  await expect(billingGroup.getByLabel("Pays")).toHaveValue("FR");
  await expectNoSeriousA11yViolations(page);
  // Paid without one first: refused in the browser, in French, on the field, with nothing sent.
  await page.getByLabel("Nom complet du destinataire").fill("Alice Acheteuse");
  await page.getByLabel("Téléphone").fill("06 12 34 56 78");
  await page.getByLabel("Numéro de carte").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiration (MM/AA)").fill("12/30");
  await page.getByLabel("Cryptogramme").fill("123");
  await page.getByRole("button", { name: /^Payer / }).click();
  await expect(billingGroup.getByText("Le nom de facturation doit contenir au moins 2 caractères")).toBeVisible();
  await expect(billingGroup.getByText("L'adresse de facturation est obligatoire")).toBeVisible();
  await expect(billingGroup.getByLabel("Nom complet")).toBeFocused();
  await expect(page).toHaveURL(/\/paiement\/cs_test_/);
  await fillPaymentPage(page, { relay: true, billing: BILLED });

  await expect(page.getByText("Traitement de votre commande...")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Merci pour votre commande !" })).toBeVisible();
  await expect(page).toHaveURL(url("/merci"));
  const number = (await page.getByText(/^CPT-\d{6}-\d{4}$/).first().innerText()).trim();
  await expect(page.getByText("Payée").first()).toBeVisible();
  await expect(page.getByText(RELAY_POINT.name)).toBeVisible();
  await expectBillingBlock(page);
  await expect(page.getByText("38,99 €").first()).toBeVisible();
  await expect(page.getByText("Commande confirmée").first()).toBeVisible();
  expect(JSON.parse((await page.evaluate(() => localStorage.getItem("cart"))) ?? "{}").items).toEqual([]);
  await expect(page.getByTestId("cart-count")).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);

  expect(await stockMessage(page, F.buy.title)).toBe(`Plus que ${F.buy.stock - 2} exemplaires disponibles`);

  await page.goto(url("/account"));
  const orderLink = page.getByRole("link", { name: new RegExp(`^Commande ${number}`) });
  await expect(orderLink).toContainText("Payée");
  await expect(orderLink).toContainText("38,99 €");
  await expectNoSeriousA11yViolations(page);
  await orderLink.click();
  await expect(page.getByRole("heading", { level: 1, name: `Commande ${number}` })).toBeVisible();
  await expect(page.getByText(F.buy.title)).toBeVisible();
  await expect(page.getByText("Remise contre signature")).toBeVisible();
  await expectBillingBlock(page);

  // Another customer cannot open it.
  const otherPage = await (await browser.newContext({ locale: "fr-FR" })).newPage();
  await logIn(otherPage, other);
  const response = await otherPage.goto(url(`/account/orders/${number}`));
  expect(response?.status()).toBe(404);

  // The confirmation e-mail, readable by the admin.
  const admin = await (await browser.newContext({ locale: "fr-FR" })).newPage();
  await signInAdminWithForm(admin, ADMIN, url(""));
  await admin.goto(url("/admin/emails"));
  await admin.getByRole("link", { name: `Confirmation de votre commande ${number}` }).click();
  const text = admin.getByTestId("email-text");
  await expect(text).toContainText("Merci pour votre commande !");
  await expect(text).toContainText(F.buy.title);
  await expect(text).toContainText(RELAY_POINT.name);
  await expect(text).toContainText("Droit de rétractation");
  await admin.goto(url("/admin/emails"));
  await expect(admin.getByRole("link", { name: new RegExp(`^Nouvelle commande ${number}`) })).toBeVisible();
  // The seller's order page: the billing address beside the relay point.
  await admin.goto(url(`/admin/orders/${number}`));
  await expectBillingBlock(admin);
});

/** The billing address the relay buyer above gives (a relay point is never one). */
const BILLED: BillingInput = { fullName: "Claire Facturée", line1: "5 rue Mercière", line2: "Bâtiment C", postalCode: "69002", city: "Lyon" };

/** « Adresse de facturation » on an order page (/merci, /account/orders/{n}, /admin/orders/{n}). */
async function expectBillingBlock(page: Page) {
  const block = page.getByRole("region", { name: "Adresse de facturation" });
  await expect(block).toBeVisible();
  await expect(block.locator("address")).toHaveText(["Claire Facturée", "5 rue Mercière", "Bâtiment C", "69002 Lyon", "France"].join(""));
}

test("the payment page's billing address: ticked by default for a home delivery, opened and closed by keyboard without losing what was typed; screenshots at 1280 and 390 px, dark and light", async ({ page }) => {
  test.slow();
  await addFromProductPage(page, F.buy.title);
  await page.goto(url("/cart"));
  await chooseAddressDeliveryInCart(page);
  await expect(deliverySection(page).getByRole("radio", { name: /^Colissimo à domicile/ })).toBeChecked();
  await page.getByRole("button", { name: "Procéder au paiement" }).click();
  await expect(page).toHaveURL(/\/paiement\/cs_test_/);
  // The CGV accepted by paying, linked, just above the pay button (art. 1119 Code civil).
  await expect(page.getByTestId("cgv-acceptance").locator("xpath=following-sibling::*[1]")).toHaveText(/^\s*Payer /);
  await expect(page.getByTestId("cgv-acceptance").getByRole("link", { name: "conditions générales de vente" })).toHaveAttribute("href", "/legal#cgv");
  const billing = paymentBilling(page);
  const same = billing.getByRole("checkbox", { name: "Adresse de facturation identique" });
  await expect(same).toBeChecked();
  // Ticked: no second « Adresse » in the form.
  await expect(billing.getByLabel("Adresse", { exact: true })).toHaveCount(0);
  await expect(page.getByLabel("Adresse", { exact: true })).toHaveCount(1);

  // By keyboard: Space on the box opens the fields, Tab goes into them. After hydration: pressed
  // before it, the native box unticks and then React puts back its state (seen once under load).
  await waitForHydration(page);
  await same.focus();
  await page.keyboard.press("Space");
  await expect(same).not.toBeChecked();
  await expect(same).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(billing.getByLabel("Nom complet")).toBeFocused();
  await page.keyboard.type("Claire Facturée");
  await billing.getByLabel("Adresse", { exact: true }).fill("5 rue Mercière");
  await billing.getByLabel("Complément d'adresse (facultatif)").fill("Bâtiment C");
  await billing.getByLabel("Code postal").fill("1000");
  await billing.getByLabel("Ville").fill("Bruxelles");
  await billing.getByLabel("Pays").selectOption({ label: "Belgique" });
  // Closed and opened again: what was typed is still there.
  await same.focus();
  await page.keyboard.press("Space");
  await expect(billing.getByLabel("Nom complet")).toHaveCount(0);
  await page.keyboard.press("Space");
  await expect(billing.getByLabel("Nom complet")).toHaveValue("Claire Facturée");
  await expect(billing.getByLabel("Pays")).toHaveValue("BE");
  await expect(billing.getByLabel("Ville")).toHaveValue("Bruxelles");
  // The delivery address stays its own.
  await paymentDelivery(page).getByLabel("Adresse", { exact: true }).fill("12 rue des Lilas");
  await expectNoSeriousA11yViolations(page);

  // What the buyer sees with the billing fields open: the fieldset in the middle of the screen (a
  // full-page capture draws the sticky header over the form).
  const shot = async (name: string) => {
    await billing.evaluate((element) => element.scrollIntoView({ block: "center" }));
    await page.screenshot({ path: test.info().outputPath(name) });
  };
  await page.setViewportSize({ width: 1280, height: 900 });
  await shot("paiement-facturation-1280-sombre.png");
  await page.setViewportSize({ width: 390, height: 844 });
  await shot("paiement-facturation-390-sombre.png");
  await chooseLightTheme(page);
  await expect(billing.getByLabel("Nom complet")).toHaveValue("Claire Facturée");
  await expectNoSeriousA11yViolations(page);
  await shot("paiement-facturation-390-clair.png");
  await page.setViewportSize({ width: 1280, height: 900 });
  await shot("paiement-facturation-1280-clair.png");

  // Leaves without paying: the units go back on sale.
  await page.getByRole("button", { name: "Annuler et revenir au panier" }).click();
  await expect(page).toHaveURL(/\/cart/);
});

test("cancelling on the payment page shows Paiement annulé and the stock comes back", async ({ page }) => {
  const id = await productId(page, F.cancel.title);
  const before = await stockMessage(page, F.cancel.title);
  await page.getByRole("button", { name: `au panier : ${F.cancel.title}` }).click();
  await page.goto(url("/cart"));
  await chooseAddressDeliveryInCart(page);
  await page.getByRole("button", { name: "Procéder au paiement" }).click();
  await expect(page).toHaveURL(/\/paiement\/cs_test_/);
  // Reserved while the payment page is open.
  const reserved = await (await page.request.get(url(`/api/cart/products?ids=${id}`))).json();
  expect(reserved.products[0].stock).toBe(F.cancel.stock - 1);
  const paymentPage = page.url();
  await page.getByRole("button", { name: "Annuler et revenir au panier" }).click();
  await expect(page.getByText("Paiement annulé").first()).toBeVisible();
  await expect(page.getByText("Votre paiement a été annulé. Vous pouvez réessayer à tout moment.").first()).toBeVisible();
  await expect(page).toHaveURL(url("/cart"));
  expect(await stockMessage(page, F.cancel.title)).toBe(before);
  // Back on the payment page: it says the payment was cancelled, not that time ran out.
  await page.goto(paymentPage);
  await expect(page.getByRole("alert")).toContainText("Paiement annulé");
  await expect(page.getByRole("alert")).toContainText("Vous avez annulé ce paiement");
  await expect(page.getByText("Session expirée")).toHaveCount(0);
});

test("the browser's Back button from the payment page keeps the cart and puts the units back on sale", async ({ page }) => {
  const id = await productId(page, F.cancel.title);
  const stock = async () => (await (await page.request.get(url(`/api/cart/products?ids=${id}`))).json()).products[0].stock as number;
  const before = await stock();
  await addFromProductPage(page, F.cancel.title);
  await page.goto(url("/cart"));
  await chooseAddressDeliveryInCart(page);
  await page.getByRole("button", { name: "Procéder au paiement" }).click();
  await expect(page).toHaveURL(/\/paiement\/cs_test_/);
  expect(await stock()).toBe(before - 1);
  await page.goBack();
  await expect(page).toHaveURL(url("/cart"));
  await expect.poll(stock).toBe(before);
  await expect(page.getByRole("group", { name: `Quantité de ${F.cancel.title}` })).toBeVisible();
  await expect(page.getByText("n'est plus disponible")).toHaveCount(0);
});

test("a payment left unfinished: the order's page in another tab offers to resume it or cancel it, and cancelling puts the units back", async ({ page, browser }) => {
  const [, customer] = F.customers;
  const id = await productId(page, F.cancel.title);
  const stock = async () => (await (await page.request.get(url(`/api/cart/products?ids=${id}`))).json()).products[0].stock as number;
  const before = await stock();
  await logIn(page, customer);
  await addFromProductPage(page, F.cancel.title);
  await page.goto(url("/cart"));
  await chooseAddressDeliveryInCart(page);
  await page.getByRole("button", { name: "Procéder au paiement" }).click();
  await expect(page).toHaveURL(/\/paiement\/cs_test_/);
  const paymentPage = page.url();
  expect(await stock()).toBe(before - 1);

  // The tab is left as it is; the customer opens their account elsewhere.
  const elsewhere = await page.context().newPage();
  await elsewhere.goto(url("/account"));
  await elsewhere.getByRole("link", { name: /^Commande CPT-.*En attente de paiement/ }).first().click();
  const pending = elsewhere.getByRole("region", { name: "Paiement en attente" });
  await expect(pending).toContainText(/Vos articles vous sont réservés jusqu'à \d{2}:\d{2}\./);
  await expect(pending.getByRole("link", { name: "Reprendre le paiement" })).toHaveAttribute("href", paymentPage);
  await expectNoSeriousA11yViolations(elsewhere);
  // Another customer cannot cancel it: the order is not theirs (404, as its page).
  const intruder = await (await browser.newContext({ locale: "fr-FR" })).newPage();
  await logIn(intruder, F.customers[0]);
  const refused = await intruder.request.post(elsewhere.url(), { form: { intent: "cancel-payment" }, headers: { origin: server.url } });
  expect(refused.status()).toBe(404);
  await intruder.context().close();
  expect(await stock()).toBe(before - 1);
  await pending.getByRole("button", { name: "Annuler la commande" }).click();
  await expect(elsewhere.getByText("Commande annulée").first()).toBeVisible();
  await expect(elsewhere.getByText("Vos articles sont remis en vente.").first()).toBeVisible();
  await expect(pending).toHaveCount(0);
  await expect(elsewhere.getByText("Annulée").first()).toBeVisible();
  expect(await stock()).toBe(before);
  // The payment page can no longer be paid.
  await page.reload();
  await expect(page.getByRole("alert")).toContainText("Paiement annulé");
});

test("the refused test card says Paiement refusé", async ({ page }) => {
  await addFromProductPage(page, F.cancel.title);
  await page.goto(url("/cart"));
  await chooseAddressDeliveryInCart(page);
  await page.getByRole("button", { name: "Procéder au paiement" }).click();
  await fillPaymentPage(page, { email: "refus@example.com", card: "4000 0000 0000 0002" });
  await expect(page.getByRole("alert")).toContainText("Paiement refusé");
  await expect(page).toHaveURL(/\/paiement\/cs_test_/);
  // The pay button was disabled while it paid: focus goes to the card number, not the body.
  await expect(page.getByLabel("Numéro de carte")).toBeFocused();
});

test("a tampered cart pays the server's price: prices edited in localStorage are ignored", async ({ page }) => {
  const id = await productId(page, F.buy.title);
  await page.evaluate(
    ([productId, title]) =>
      localStorage.setItem("cart", JSON.stringify({ items: [{ product: { id: productId, name: title, priceCents: 1, stock: 999, image: null }, quantity: 1 }], insuranceSelected: false })),
    [id, F.buy.title] as const,
  );
  await page.goto(url("/cart"));
  // The cart is checked against the server on arrival: the real price, and a toast saying so
  // (12,50 €, and 3,99 € of Point relais for its 120 g, the cheapest method, preselected).
  await expect(page.getByTestId("cart-total")).toHaveText("16,49 €");
  await expect(page.getByText("Panier mis à jour").first()).toBeVisible();
  // Even a request forged by hand pays the server's price, with the server's delivery (without a
  // choice, the cheapest to an address in France: Colissimo à domicile, 5,49 €).
  const forged = await page.request.post(url("/api/checkout"), {
    headers: { Origin: server.url },
    data: { items: [{ productId: id, quantity: 1, priceCents: 1 }], insuranceSelected: false, amount: 1 },
  });
  expect(forged.status()).toBe(200);
  await page.goto((await forged.json()).url);
  await expect(page.getByRole("button", { name: "Payer 17,99 € – commande avec obligation de paiement", exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Annuler et revenir au panier" }).click();
  // Quantity above the stock, negative, fractional, unknown: clear refusals.
  for (const [items, status] of [
    [[{ productId: id, quantity: 99 }], 409],
    [[{ productId: id, quantity: -1 }], 400],
    [[{ productId: id, quantity: 0.5 }], 400],
    [[{ productId: 987_654, quantity: 1 }], 409],
  ] as const) {
    const answer = await page.request.post(url("/api/checkout"), { headers: { Origin: server.url }, data: { items, insuranceSelected: false } });
    expect(answer.status()).toBe(status);
    expect((await answer.json()).error).toBeTruthy();
  }
  // From another site: refused.
  const crossSite = await page.request.post(url("/api/checkout"), { headers: { Origin: "https://evil.example" }, data: { items: [{ productId: id, quantity: 1 }] } });
  expect(crossSite.status()).toBe(403);
});

test("a product sold out while it waited in the cart: Produit indisponible in red at Procéder au paiement, the cart refreshed, focus on its title", async ({ page }) => {
  // Last in the file: it leaves this product without stock.
  const id = await productId(page, F.tier1000.title);
  await addFromProductPage(page, F.tier1000.title);
  await page.goto(url("/cart"));
  await expect(page.getByTestId("cart-total")).toHaveText("1 000,01 €");
  // Other collectors take every unit meanwhile.
  const { products } = (await (await page.request.get(url(`/api/cart/products?ids=${id}`))).json()) as { products: { stock: number }[] };
  const stock = products[0]!.stock;
  const taken = await page.request.post(url("/api/checkout"), { headers: { Origin: server.url }, data: { items: [{ productId: id, quantity: stock }], insuranceSelected: false } });
  expect(taken.status()).toBe(200);

  await chooseAddressDeliveryInCart(page);
  await page.getByRole("button", { name: "Procéder au paiement" }).click();
  const warning = page.locator("[data-sonner-toast]", { hasText: "Produit indisponible" });
  await expect(warning).toBeVisible();
  await expect(warning).toContainText(`n'est plus disponible et a été retiré.`);
  await expect(warning).toContainText("victime de son succès");
  await expect(warning).toHaveAttribute("data-type", "warning");
  await expect(page.getByText("Votre panier est vide")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: "Votre panier" })).toBeFocused();
});

async function productId(page: Page, title: string): Promise<number> {
  await page.goto(url(`/catalog?q=${encodeURIComponent(title)}`));
  const href = await page.getByRole("link", { name: title }).first().getAttribute("href");
  return Number(/\/product\/(\d+)/.exec(href ?? "")?.[1]);
}
