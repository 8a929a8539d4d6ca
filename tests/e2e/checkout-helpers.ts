import type { Page } from "@playwright/test";
import { startFixtureServer } from "./fixture-server";
import { expect, waitForHydration } from "./fixtures";

/**
 * A spec's own server with the fixtures of tests/setup/checkout-fixtures.ts: products at the
 * insurance thresholds, a product to buy, confirmed customers (see startCheckoutServer).
 */
export function startCheckoutServer(prefix: string, admin: { email: string; password: string }) {
  return startFixtureServer(prefix, "tests/setup/checkout-fixtures.ts", admin);
}

/** The relay point the specs' buyers pick in the cart. */
export const RELAY_POINT = { name: "Tabac de la Gare", id: "020145", line1: "3 place de la Gare", postalCode: "69007", city: "Lyon" };

/** /cart's "Livraison" section. */
export const deliverySection = (page: Page) => page.getByRole("region", { name: "Livraison", exact: true });

/**
 * In /cart's "Livraison": the cheapest method to an address (the first radio that is not a relay
 * point; the list is cheapest first). The cart preselects the cheapest method, a relay point's
 * included (decision 044): a spec about a home delivery says so.
 */
export async function chooseAddressDeliveryInCart(page: Page) {
  await deliverySection(page).getByRole("radio", { name: /^(?!Point relais)/ }).first().check();
}

/**
 * In /cart's "Livraison": the country, the "Point relais" method and the point's name,
 * identifier and address, as a buyer fills them in before paying.
 */
export async function chooseRelayPointInCart(page: Page, options: { country?: string; relay?: typeof RELAY_POINT } = {}) {
  const relay = options.relay ?? RELAY_POINT;
  const section = deliverySection(page);
  await section.getByLabel("Pays de livraison").selectOption({ label: options.country ?? "France" });
  await section.getByRole("radio", { name: /^Point relais/ }).check();
  await section.getByLabel("Nom du point relais").fill(relay.name);
  await section.getByLabel("Identifiant du point relais").fill(relay.id);
  await section.getByLabel("Adresse du point relais").fill(relay.line1);
  await section.getByLabel("Code postal").fill(relay.postalCode);
  await section.getByLabel("Ville").fill(relay.city);
}

/** A billing address as the specs' buyers type it (the country by its name in the list). */
export type BillingInput = { fullName: string; line1: string; line2?: string; postalCode: string; city: string; country?: string };

/** The billing address a relay-point buyer gives when the spec names none (a relay point is never one). */
export const DEFAULT_BILLING: BillingInput = { fullName: "Alice Acheteuse", line1: "12 rue des Lilas", postalCode: "69001", city: "Lyon" };

/** The payment page's « Livraison » and « Adresse de facturation » fieldsets. */
export const paymentDelivery = (page: Page) => page.getByRole("group", { name: "Livraison", exact: true });
export const paymentBilling = (page: Page) => page.getByRole("group", { name: "Adresse de facturation", exact: true });

/**
 * Types a billing address in the payment page's « Adresse de facturation »: for a home delivery,
 * unticks « Adresse de facturation identique » first.
 */
export async function fillBillingAddress(page: Page, billing: BillingInput) {
  const group = paymentBilling(page);
  const same = group.getByRole("checkbox", { name: "Adresse de facturation identique" });
  if ((await same.count()) > 0) await same.uncheck();
  await group.getByLabel("Nom complet").fill(billing.fullName);
  await group.getByLabel("Adresse", { exact: true }).fill(billing.line1);
  if (billing.line2) await group.getByLabel("Complément d'adresse (facultatif)").fill(billing.line2);
  await group.getByLabel("Code postal").fill(billing.postalCode);
  await group.getByLabel("Ville").fill(billing.city);
  if (billing.country) await group.getByLabel("Pays").selectOption({ label: billing.country });
}

/**
 * Fills the built-in test payment page and presses its order button. The delivery was chosen
 * in the cart: to an address, the page asks for it; to a relay point (`relay`), it shows the
 * point and asks only the recipient's name and phone. The billing address: `billing` when given
 * (the box « identique » unticked for a home delivery), else the delivery's (box left ticked), or
 * DEFAULT_BILLING for a relay point.
 */
export async function fillPaymentPage(page: Page, options: { email?: string; relay?: boolean; card?: string; billing?: BillingInput } = {}) {
  await expect(page).toHaveURL(/\/paiement\/cs_test_/);
  await expect(page.getByText("Mode test").first()).toBeVisible();
  // The billing fields keep their values in React state: typed before hydration, hydration empties
  // them (seen once on CI, 2026-11-29; a slow phone would see it too, noted for the team).
  await waitForHydration(page);
  if (options.email) await page.getByLabel("Email").fill(options.email);
  const delivery = paymentDelivery(page);
  if (options.relay) {
    await expect(page.getByTestId("relay-point")).toBeVisible();
    await expect(delivery.getByLabel("Adresse", { exact: true })).toHaveCount(0);
  } else {
    await expect(page.getByTestId("relay-point")).toHaveCount(0);
    await delivery.getByLabel("Adresse", { exact: true }).fill("12 rue des Lilas");
    await delivery.getByLabel("Code postal").fill("69001");
    await delivery.getByLabel("Ville").fill("Lyon");
  }
  const billing = options.billing ?? (options.relay ? DEFAULT_BILLING : null);
  if (billing) await fillBillingAddress(page, billing);
  await page.getByLabel("Nom complet du destinataire").fill("Alice Acheteuse");
  await page.getByLabel("Téléphone").fill("06 12 34 56 78");
  await page.getByLabel("Numéro de carte").fill(options.card ?? "4242 4242 4242 4242");
  await page.getByLabel("Expiration (MM/AA)").fill("12/30");
  await page.getByLabel("Cryptogramme").fill("123");
  await page.getByRole("button", { name: /^Payer [\d\s,]+\s€ – commande avec obligation de paiement$/ }).click();
}
