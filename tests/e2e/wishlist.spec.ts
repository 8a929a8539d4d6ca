import fs from "node:fs";
import type { Browser, Page } from "@playwright/test";
import { type RunningServer, startServer } from "../integration/server-process";
import { confirmedCustomer, logIn } from "./account-helpers";
import { chooseLightTheme, expect, expectNoSeriousA11yViolations, linkInEmail, signInAdmin, specDataDir, test, waitForHydration } from "./fixtures";

/**
 * The wish list (issue 56, point 3), on a server of its own (its last test restocks the sample
 * catalogue's sold-out card, so the tests run in order): the hearts of the cached catalogue and
 * product page, /account/liste with its alerts, at 1280 and 390 px; then the acceptance's
 * journey, from the heart to the restock alert (services/wishlist-alerts.server.ts) and its
 * unsubscribe link.
 */
const ADMIN = { email: "admin-wishlist@comptoir.test", password: "admin-wishlist-mot-de-passe" };
const SOLD_OUT = "Lugia V – Astres Radieux";
const SEARCH = `/catalog?q=${encodeURIComponent("Lugia V")}`;
let server: RunningServer;
let dataDir: string;
const url = (p: string) => `${server.url}${p}`;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dataDir = await specDataDir("comptoir-e2e-wishlist-");
  server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: "", ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
});

test.afterAll(async () => {
  await server?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

const newVisitor = async (browser: Browser) => (await browser.newContext({ locale: "fr-FR" })).newPage();
let n = 0;

/** A confirmed customer, signed in on a page of their own (the admin's page reads the outbox). */
async function signedInCustomer(browser: Browser, admin: Page, width: number) {
  const customer = { name: "Inès Collection", email: `liste-${width}-${++n}-${Date.now()}@example.com`, password: "Pikachu-2026-secret" };
  const page = await newVisitor(browser);
  await page.setViewportSize({ width, height: 900 });
  await confirmedCustomer(page, admin, customer, server.url);
  await logIn(page, customer.email, customer.password, server.url);
  await expect(page).toHaveURL(/\/account$/);
  return { page, customer };
}

// One name whatever the state, which aria-pressed carries (a toggle button's name must not change, WAI-ARIA APG).
const cardHeart = (page: Page) => page.getByRole("button", { name: `Ajouter à ma liste : ${SOLD_OUT}` });
const ADDED = "Ajouté à votre liste. Ses alertes s'activent dans Mon compte › Ma liste d'envies.";
const itemOf = (page: Page) => page.getByRole("article", { name: SOLD_OUT });

for (const width of [1280, 390]) {
  test(`${width} px: a customer keeps a sold-out card in their list, sets a price alert, removes and re-adds it with the keyboard`, async ({ browser, page: admin }) => {
    test.slow(); // two sessions, six screenshots, three accessibility scans
    await signInAdmin(admin, ADMIN, server.url);
    const { page } = await signedInCustomer(browser, admin, width);
    const shot = (name: string) => page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage: true });

    // The cached catalogue's heart fills for this viewer only.
    await page.goto(url(SEARCH));
    await waitForHydration(page);
    const card = page.getByRole("article").filter({ has: page.getByRole("link", { name: SOLD_OUT }) });
    await expect(card.getByText("Rupture de stock").first()).toBeVisible();
    await expect(cardHeart(page)).toHaveAttribute("aria-pressed", "false");
    await cardHeart(page).click();
    await expect(cardHeart(page)).toHaveAttribute("aria-pressed", "true");
    await expect(page.getByText(ADDED)).toBeVisible();
    await card.screenshot({ path: test.info().outputPath(`carte-coeur-sombre-${width}.png`) });
    // Still there after a reload: it came from the server, not from the click.
    await page.reload();
    await expect(cardHeart(page)).toHaveAttribute("aria-pressed", "true");

    // The list, from the account.
    await page.goto(url("/account"));
    await page.getByRole("link", { name: "Voir ma liste" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Ma liste d'envies" })).toBeVisible();
    const item = itemOf(page);
    await expect(item.getByText("Épuisé", { exact: true })).toBeVisible();
    // Its alerts start off: the customer switches one on, beside the consent's wording.
    await expect(item.getByRole("switch", { name: "Retour en stock" })).not.toBeChecked();
    await expect(page.getByText(/En activant une alerte, j'accepte d'être prévenu par e-mail/)).toBeVisible();
    await waitForHydration(page);
    await item.getByText("Retour en stock", { exact: true }).click();
    const price = item.getByRole("textbox", { name: "Prix à atteindre (€)" });
    await price.fill("douze euros");
    await item.getByRole("button", { name: "Enregistrer les alertes" }).click();
    await expect(item.getByText("Saisissez un prix en euros, par exemple 12,50.")).toBeVisible();
    await expect(price).toHaveAttribute("aria-invalid", "true");
    await price.fill("99,90");
    await item.getByRole("button", { name: "Enregistrer les alertes" }).click();
    await expect(item.getByRole("status")).toHaveText("Alertes enregistrées.");
    await page.reload();
    await expect(price).toHaveValue("99,90");
    await expect(item.getByRole("switch", { name: "Retour en stock" })).toBeChecked();
    await expectNoSeriousA11yViolations(page);
    await shot("liste-sombre");

    // Removed with the keyboard: the empty list.
    await item.getByRole("button", { name: `Retirer ${SOLD_OUT} de ma liste` }).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { name: "Votre liste est vide" })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // Re-added from the product page, with the keyboard.
    await page.goto(url(SEARCH));
    await page.getByRole("link", { name: SOLD_OUT }).first().click();
    await expect(page.getByRole("heading", { level: 1, name: SOLD_OUT })).toBeVisible();
    await waitForHydration(page);
    const heart = page.getByRole("button", { name: "Ajouter à ma liste", exact: true });
    await expect(heart).toHaveAttribute("aria-pressed", "false");
    await heart.focus();
    await page.keyboard.press("Space");
    await expect(page.getByRole("button", { name: "Ajouter à ma liste", exact: true })).toHaveAttribute("aria-pressed", "true");
    await shot("produit-coeur-sombre");
    await page.goto(url("/account/liste"));
    await expect(itemOf(page).getByText("Épuisé", { exact: true })).toBeVisible();

    // The light theme, the same three places.
    await chooseLightTheme(page);
    await expectNoSeriousA11yViolations(page);
    await shot("liste-clair");
    await page.goto(url(SEARCH));
    await waitForHydration(page);
    await expect(cardHeart(page)).toHaveAttribute("aria-pressed", "true");
    await card.screenshot({ path: test.info().outputPath(`carte-coeur-clair-${width}.png`) });
    await page.getByRole("link", { name: SOLD_OUT }).first().click();
    await expect(page.getByRole("button", { name: "Ajouter à ma liste", exact: true })).toHaveAttribute("aria-pressed", "true");
    await shot("produit-coeur-clair");
  });
}

test("signed out, the heart leads to the sign-in page, which brings the customer back to it; a refused click is rolled back", async ({ browser, page: admin }) => {
  await signInAdmin(admin, ADMIN, server.url);
  const customer = { name: "Hugo Visiteur", email: `visiteur-${Date.now()}@example.com`, password: "Pikachu-2026-secret" };
  const page = await newVisitor(browser);
  await confirmedCustomer(page, admin, customer, server.url);
  await page.goto(url(SEARCH));
  await waitForHydration(page);
  await cardHeart(page).click();
  await expect(page).toHaveURL(url(`/login?redirectTo=${encodeURIComponent(SEARCH)}`));
  await page.getByLabel("Email").fill(customer.email);
  await page.getByLabel("Mot de passe").fill(customer.password);
  await page.getByRole("button", { name: "Se connecter" }).click();
  await expect(page).toHaveURL(url(SEARCH));
  await cardHeart(page).click();
  await expect(cardHeart(page)).toHaveAttribute("aria-pressed", "true");

  // A refusal (here the product gone offline meanwhile, as the server answers it) turns the heart back and says why.
  await page.route(url("/api/wishlist"), (route) =>
    route.request().method() === "POST" ? route.fulfill({ status: 404, json: { error: "Ce produit n'existe pas ou n'est plus en vente." } }) : route.fallback(),
  );
  await cardHeart(page).click();
  await expect(page.getByText("Ce produit n'existe pas ou n'est plus en vente.")).toBeVisible();
  await expect(cardHeart(page)).toHaveAttribute("aria-pressed", "true");
});

/** Whether the seller's outbox lists an e-mail to `to` whose subject contains `subject`. */
async function inOutbox(admin: Page, to: string, subject: string): Promise<boolean> {
  const html = await (await admin.request.get(url("/admin/emails"))).text();
  return (html.match(/<tr[\s\S]*?<\/tr>/g) ?? []).some((row) => row.includes(to) && row.includes(subject));
}

/** The seller sets the card's stock on its edit page, as the drops and restock specs do. */
async function setStock(admin: Page, units: number) {
  await admin.goto(url(`/admin/products?q=${encodeURIComponent("Lugia V")}`));
  await admin.getByRole("link", { name: `Modifier ${SOLD_OUT}` }).click();
  await waitForHydration(admin);
  await admin.getByLabel("Stock").fill(String(units));
  await admin.getByRole("button", { name: "Enregistrer les modifications" }).click();
  await expect(admin.getByText("Produit mis à jour").first()).toBeVisible();
}

// At 390 px the card starts sold out; at 1280 px the seller sells it out again first: the next
// restock alerts the customers then waiting.
for (const width of [390, 1280]) {
  test(`${width} px: the seller restocks a listed card; the alert e-mail's link opens it, its unsubscribe link stops the alerts`, async ({ browser, page: admin }) => {
    test.slow();
    await signInAdmin(admin, ADMIN, server.url);
    if (width === 1280) await setStock(admin, 0);
    const { page, customer } = await signedInCustomer(browser, admin, width);
    await page.goto(url(SEARCH));
    await waitForHydration(page);
    await cardHeart(page).click();
    await expect(cardHeart(page)).toHaveAttribute("aria-pressed", "true");
    // The restock alert, switched on in the list.
    await page.goto(url("/account/liste"));
    await waitForHydration(page);
    await itemOf(page).getByText("Retour en stock", { exact: true }).click();
    await itemOf(page).getByRole("button", { name: "Enregistrer les alertes" }).click();
    await expect(itemOf(page).getByRole("status")).toHaveText("Alertes enregistrées.");

    await setStock(admin, 3);
    // The restock alert, sent by the alert job (every 15 s, sooner after a product changes).
    const subject = `« ${SOLD_OUT} » est en vente`;
    await expect.poll(() => inOutbox(admin, customer.email, subject), { timeout: 40_000 }).toBe(true);

    // The e-mail's link opens the product, in stock.
    await page.goto(url(await linkInEmail(admin, customer.email, subject, /\/product\/[\w-]+/, server.url)));
    await expect(page.getByRole("heading", { level: 1, name: SOLD_OUT })).toBeVisible();
    await expect(page.getByText("Rupture de stock")).toHaveCount(0);

    // Its unsubscribe link, followed signed out, switches the alerts off; the list says so.
    const stranger = await newVisitor(browser);
    await stranger.goto(url(await linkInEmail(admin, customer.email, subject, /\/desabonnement\?[^\s]+/, server.url)));
    await stranger.getByRole("button", { name: "Me désinscrire" }).click();
    await expect(stranger.getByRole("status").filter({ hasText: customer.email })).toBeVisible();
    await page.goto(url("/account/liste"));
    await expect(page.getByText("Vos alertes par e-mail sont désactivées")).toBeVisible();
    await expect(itemOf(page).getByText("En stock", { exact: true })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: test.info().outputPath(`liste-alertes-coupees-sombre-${width}.png`), fullPage: true });
  });
}
