import type { Page } from "@playwright/test";
import { startFixtureServer } from "./fixture-server";
import { expect } from "./fixtures";

/**
 * A spec's own server with the fixtures of tests/setup/checkout-fixtures.ts: products at the
 * insurance thresholds, a product to buy, confirmed customers (see startFixtureServer).
 */
export function startCheckoutServer(prefix: string, admin: { email: string; password: string }) {
  return startFixtureServer(prefix, "tests/setup/checkout-fixtures.ts", admin);
}

/** Fills the built-in test payment page (home delivery, or a relay point) and presses its order button. */
export async function fillPaymentPage(page: Page, options: { email?: string; relay?: boolean; card?: string } = {}) {
  await expect(page).toHaveURL(/\/paiement\/cs_test_/);
  await expect(page.getByText("Mode test").first()).toBeVisible();
  if (options.email) await page.getByLabel("Email").fill(options.email);
  if (options.relay) {
    await page.getByLabel("En point relais").check();
    await page.getByLabel("Nom du point relais").fill("Tabac de la Gare");
    await page.getByLabel("Adresse du point relais").fill("3 place de la Gare");
  } else {
    await page.getByLabel("Adresse", { exact: true }).fill("12 rue des Lilas");
  }
  await page.getByLabel("Nom complet du destinataire").fill("Alice Acheteuse");
  await page.getByLabel("Code postal").fill("69001");
  await page.getByLabel("Ville").fill("Lyon");
  await page.getByLabel("Téléphone").fill("06 12 34 56 78");
  await page.getByLabel("Numéro de carte").fill(options.card ?? "4242 4242 4242 4242");
  await page.getByLabel("Expiration (MM/AA)").fill("12/30");
  await page.getByLabel("Cryptogramme").fill("123");
  await page.getByRole("button", { name: /^Payer [\d\s,]+\s€ – commande avec obligation de paiement$/ }).click();
}
