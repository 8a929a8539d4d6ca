import type { Page } from "@playwright/test";
import type { RunningServer } from "../integration/server-process";
import { ACCOUNT_ORDERS_FIXTURES as F } from "../setup/account-orders-fixtures-data";
import { logIn } from "./account-helpers";
import { startFixtureServer } from "./fixture-server";
import { chooseLightTheme, expect, expectNoSeriousA11yViolations, test } from "./fixtures";

/**
 * The customer's complete order history (issue 56, point 2), at 1280 and 390 px: from « Mon
 * compte » to « Toutes mes commandes », through the pages, a search by number and by product,
 * then a shipped order (its tracking) and an order refunded in part (the refund, its credit note
 * and the invoice as PDFs, the timeline); axe on each page; screenshots dark and light.
 * The orders are made by tests/setup/account-orders-fixtures.ts through the real checkout.
 */
test.describe.configure({ mode: "default" });

const ADMIN = { email: "admin-historique@comptoir.test", password: "admin-historique-mot-de-passe" };
let server: RunningServer;
let stopServer: () => Promise<void> = async () => {};
const url = (p: string) => `${server.url}${p}`;
const euros = (cents: number) => new Intl.NumberFormat("fr-FR", { style: "currency", currency: "EUR" }).format(cents / 100);

test.beforeAll(async () => {
  test.setTimeout(180_000);
  ({ server, stop: stopServer } = await startFixtureServer("comptoir-e2e-historique-", "tests/setup/account-orders-fixtures.ts", ADMIN));
});
test.afterAll(() => stopServer());

const orderLinks = (page: Page) => page.getByRole("list", { name: "Commandes, les plus récentes d'abord" }).getByRole("link");

async function search(page: Page, text: string) {
  await page.getByLabel("Rechercher une commande").fill(text);
  await page.getByRole("button", { name: "Rechercher" }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]q=${encodeURIComponent(text).replace(/%20/g, "\\+")}`));
}

/** The page at this width and in both themes, saved for a look. */
async function screenshots(page: Page, name: string, width: number) {
  // No hover left by the last click, no card caught halfway through the theme's colour change.
  await page.mouse.move(0, 0);
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.screenshot({ path: `.tmp/account-orders-${name}-${width}-dark.png`, fullPage: true });
  await chooseLightTheme(page);
  await page.screenshot({ path: `.tmp/account-orders-${name}-${width}-light.png`, fullPage: true });
  await expectNoSeriousA11yViolations(page);
  // Back to the default for the next page.
  await page.getByRole("button", { name: "Changer le thème" }).click();
  await page.getByRole("menuitemradio", { name: "Sombre" }).click();
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  await page.emulateMedia({ reducedMotion: null });
}

for (const width of [1280, 390]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test("a customer pages through their orders, searches them, and opens a shipped one and one refunded in part", async ({ page }) => {
      test.slow();
      await logIn(page, F.customer.email, F.customer.password, server.url);
      await page.waitForURL((u) => !u.pathname.startsWith("/login"));

      // The account keeps three recent orders and links to all of them.
      await page.goto(url("/account"));
      const recent = page.getByRole("region", { name: "Commandes récentes" });
      await expect(recent.getByRole("link", { name: /^Commande CPT-/ })).toHaveCount(3);
      await expectNoSeriousA11yViolations(page);
      await screenshots(page, "account", width);
      await recent.getByRole("link", { name: "Toutes mes commandes" }).click();

      // Page 1: ten orders, newest first; page 2: the oldest, the coffret alone.
      await expect(page.getByRole("heading", { level: 1, name: "Mes commandes" })).toBeVisible();
      await expect(page.getByText(`${F.orderCount} commandes trouvées`)).toBeVisible();
      await expect(orderLinks(page)).toHaveCount(10);
      const numbers = await orderLinks(page).evaluateAll((links) => links.map((link) => link.textContent!.match(/CPT-\d{6}-\d{4}/)![0]));
      await expect(orderLinks(page).nth(F.shipped.index)).toContainText("Expédiée");
      await expect(orderLinks(page).nth(F.refunded.index)).toContainText("Remboursée en partie");
      await expect(orderLinks(page).nth(F.refunded.index)).toContainText(`${F.refunded.quantity} articles`);
      await expect(orderLinks(page).first()).toContainText(F.display.title);
      await expectNoSeriousA11yViolations(page);
      await screenshots(page, "list", width);
      await page.getByRole("link", { name: "Page suivante" }).click();
      await expect(page).toHaveURL(/\/account\/orders\?page=2$/);
      await expect(orderLinks(page)).toHaveCount(1);
      await expect(orderLinks(page).first()).toContainText(F.coffret.title);
      await expect(orderLinks(page).first()).not.toContainText(numbers[0]!);

      // A search by product (any case), by part of a number, and one that finds nothing.
      await search(page, "dracaufeu");
      await expect(page.getByText("1 commande trouvée pour « dracaufeu »")).toBeVisible();
      await expect(orderLinks(page)).toHaveCount(1);
      await expect(orderLinks(page).first()).toContainText(F.coffret.title);
      const refundedNumber = numbers[F.refunded.index]!;
      await search(page, refundedNumber.slice(4));
      await expect(orderLinks(page)).toHaveCount(1);
      await expect(orderLinks(page).first()).toContainText(refundedNumber);
      await search(page, "pikachu introuvable");
      await expect(page.getByText("Aucune commande ne correspond à votre recherche.")).toBeVisible();
      await expect(orderLinks(page)).toHaveCount(0);
      await page.getByRole("link", { name: "Effacer la recherche" }).click();
      await expect(page).toHaveURL(/\/account\/orders$/);
      await expect(page.getByLabel("Rechercher une commande")).toHaveValue("");
      await expect(orderLinks(page)).toHaveCount(10);

      // The shipped order: its carrier, tracking number and the carrier's link.
      await orderLinks(page).nth(F.shipped.index).click();
      await expect(page.getByRole("heading", { level: 1, name: `Commande ${numbers[F.shipped.index]}` })).toBeVisible();
      const shipment = page.getByRole("region", { name: "Expédition" });
      await expect(shipment).toContainText("Colissimo");
      await expect(shipment).toContainText(F.shipped.trackingNumber);
      await expect(shipment.getByRole("link", { name: /Suivre le colis/ })).toHaveAttribute("href", new RegExp(F.shipped.trackingNumber));
      await expect(page.getByRole("region", { name: "Suivi de la commande" })).toContainText("Commande expédiée");
      await expect(page.getByRole("region", { name: "Suivi de la commande" })).not.toContainText("Vendeur Fixture");
      await expectNoSeriousA11yViolations(page);
      await screenshots(page, "shipped", width);

      // The order refunded in part: the refund, its credit note and the invoice, as PDFs.
      await page.goto(url(`/account/orders?q=${refundedNumber}`));
      await orderLinks(page).first().click();
      await expect(page.getByRole("heading", { level: 1, name: `Commande ${refundedNumber}` })).toBeVisible();
      const refunds = page.getByRole("region", { name: "Remboursements" });
      await expect(refunds).toContainText(euros(F.refunded.refundedCents));
      await expect(refunds).toContainText(`1 × ${F.display.title}`);
      await expect(refunds).not.toContainText("remis en stock");
      const creditNote = refunds.getByRole("link", { name: /^Avoir A-\d{4}-\d{6} \(PDF\)$/ });
      await expect(creditNote).toBeVisible();
      const documents = page.getByRole("region", { name: "Factures" });
      await expect(documents.getByRole("link", { name: /^Facture F-\d{4}-\d{6} \(PDF\)$/ })).toBeVisible();
      await expect(documents.getByRole("link", { name: /^Avoir A-\d{4}-\d{6} \(PDF\)$/ })).toHaveAttribute("href", (await creditNote.getAttribute("href"))!);
      for (const link of [creditNote, documents.getByRole("link", { name: /^Facture/ })]) {
        const pdf = await page.request.get(url((await link.getAttribute("href"))!));
        expect(pdf.status()).toBe(200);
        expect(pdf.headers()["content-type"]).toBe("application/pdf");
      }
      await expect(page.getByRole("region", { name: "Suivi de la commande" })).toContainText("Remboursement effectué");
      await expect(page.getByRole("link", { name: `Se rétracter du contrat ici – commande ${refundedNumber}` })).toBeVisible();
      await expectNoSeriousA11yViolations(page);
      await screenshots(page, "refunded", width);

      // Another number than the customer's: not found.
      expect((await page.request.get(url("/account/orders/CPT-000000-0000"))).status()).toBe(404);
    });
  });
}
