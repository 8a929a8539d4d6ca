import fs from "node:fs";
import { type RunningServer, startServer } from "../integration/server-process";
import { fillPaymentPage } from "./checkout-helpers";
import { expect, expectNoSeriousA11yViolations, serverClock, signInAdmin, specDataDir, TEST_CLOCK_TOKEN, test, waitForHydration } from "./fixtures";

/**
 * A short delivery cut among pre-orders (issue 55, decision 061), on a server of its own with a
 * test clock: three buyers pre-order (1, 2 and 2 units), the release passes, the seller enters 2
 * units received, previews the allocation by order of pre-order and applies it; the second buyer
 * gets 1 of 2 (the other refunded), the third nothing (refunded whole), each e-mailed an apology.
 */
test.describe.configure({ mode: "serial" });

const ADMIN = { email: "admin-repartition@comptoir.test", password: "admin-repartition-mot-de-passe" };
const PRODUCT = "Display Écarlate et Violet – 36 boosters";
const BUYERS = [
  { email: "premiere@exemple.fr", units: 1 },
  { email: "deuxieme@exemple.fr", units: 2 },
  { email: "troisieme@exemple.fr", units: 2 },
];
let server: RunningServer;
let dataDir: string;
const url = (p: string) => `${server.url}${p}`;
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const SHOTS = process.env.PREORDER_SHOTS;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dataDir = await specDataDir("comptoir-e2e-preorder-allocation-");
  server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: "", ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, TEST_CLOCK: TEST_CLOCK_TOKEN });
});

test.afterAll(async () => {
  await server?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

test("the seller enters a short delivery, previews and applies the allocation; a refunded buyer's e-mail apologises", async ({ browser, page }) => {
  test.setTimeout(300_000);
  await signInAdmin(page, ADMIN, server.url);
  await page.goto(url(`/admin/products?q=${encodeURIComponent("Display Écarlate")}`));
  await page.getByRole("link", { name: new RegExp(`Modifier.*${PRODUCT}|${PRODUCT}`) }).first().click();
  const settings = page.getByRole("region", { name: "Précommande" });
  await waitForHydration(page);
  await settings.getByLabel("Date de sortie").fill(inDays(14));
  await settings.getByLabel("Date de livraison estimée").fill(inDays(16));
  await settings.getByLabel("Quantité en précommande").fill("10");
  await settings.getByLabel("Limite par client").fill("5");
  await settings.getByRole("button", { name: "Vendre en précommande" }).click();
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Précommande enregistrée" }).first()).toBeVisible();
  const productId = Number(/\/admin\/products\/edit\/(\d+)/.exec(page.url())?.[1]);
  expect(productId).toBeGreaterThan(0);

  // Three buyers pre-order and pay on the test payment page, one after the other.
  for (const buyer of BUYERS) {
    const context = await browser.newContext();
    const buyerPage = await context.newPage();
    const started = await buyerPage.request.post(url("/api/checkout"), { headers: { Origin: server.url }, data: { items: [{ productId, quantity: buyer.units }], insuranceSelected: false, email: buyer.email } });
    expect(started.status()).toBe(200);
    await buyerPage.goto((await started.json()).url as string);
    await fillPaymentPage(buyerPage);
    await expect(buyerPage).toHaveURL(/\/merci/);
    await context.close();
  }

  // Before the release the seller's page lists them, and the allocation waits for the release.
  await page.goto(url("/admin/precommandes"));
  await page.getByRole("link", { name: PRODUCT }).click();
  await expect(page.getByTestId("preorder-figures")).toContainText("5 payés (3 commandes)");

  // The release passes: the distributor delivers 2 units of the 5 (the seller signs in again: a fortnight ended the session).
  const clock = serverClock(server.url);
  await clock.advance(15 * 86_400_000);
  // The second factor's code is the server's time's: this process reads that time while it signs in.
  const realNow = Date.now;
  const offsetMs = clock.now() - realNow();
  Date.now = () => realNow() + offsetMs;
  try {
    await signInAdmin(page, ADMIN, server.url);
  } finally {
    Date.now = realNow;
  }
  await page.goto(url(`/admin/precommandes/${productId}`));
  await waitForHydration(page);
  const form = page.getByRole("region", { name: "Répartir la livraison" });
  await expect(form).toBeVisible({ timeout: 30_000 });
  await form.getByLabel("Exemplaires reçus").fill("deux");
  await form.getByRole("button", { name: "Prévisualiser la répartition" }).click();
  await expect(form.getByText("Le nombre d'exemplaires reçus doit être un nombre entier")).toBeVisible();
  await form.getByLabel("Exemplaires reçus").fill("2");
  await form.getByLabel("Règle de répartition").selectOption("order");
  await form.getByRole("button", { name: "Prévisualiser la répartition" }).click();
  await expect(form.getByTestId("allocation-summary")).toContainText("2 reçus · 2 attribués · 0 au stock · 2 précommandes remboursées");
  const rows = form.getByRole("table").getByRole("row");
  // First placed, first served: 1 of 1, 1 of 2, 0 of 2.
  await expect(rows.nth(1)).toContainText(/n° 1\s*1\s*1\s*0/);
  await expect(rows.nth(2)).toContainText(/n° 2\s*2\s*1\s*1/);
  await expect(rows.nth(3)).toContainText(/n° 3\s*2\s*0\s*2/);
  await expectNoSeriousA11yViolations(page);

  await form.getByRole("button", { name: "Appliquer cette répartition" }).click();
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Répartition appliquée" }).first()).toBeVisible();
  const applied = page.getByRole("region", { name: "Répartition appliquée" });
  await expect(applied).toContainText("2 reçus · 2 attribués · 0 au stock");
  await expect(applied.getByTestId("allocation-replay")).toContainText("donne le même résultat");
  await expect(applied.getByRole("row")).toHaveCount(3);
  await expect(applied.getByText("Remboursé")).toHaveCount(2);
  await expectNoSeriousA11yViolations(page);
  if (SHOTS) {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `${SHOTS}/allocation-${width}.png`, fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  // The third buyer's e-mail: the apology, the reason, the whole refund.
  await page.goto(url("/admin/emails"));
  await page.getByRole("link", { name: /précommande non honorée, paiement remboursé/ }).first().click();
  const text = page.getByTestId("email-text");
  await expect(text).toContainText("Toutes nos excuses : précommande non honorée");
  await expect(text).toContainText("Le distributeur ne nous a livré qu'une partie des exemplaires");
  await expect(text).toContainText("Nous vous avons remboursé l'intégralité de votre paiement");
  await expect(page.getByText("troisieme@exemple.fr").first()).toBeVisible();
  // The second buyer's: served in part, the missing unit refunded.
  await page.goto(url("/admin/emails"));
  await page.getByRole("link", { name: /précommande servie en partie/ }).first().click();
  await expect(page.getByTestId("email-text")).toContainText(`Nous vous avons remboursé ceux qui manquent (1 × ${PRODUCT})`);
});
