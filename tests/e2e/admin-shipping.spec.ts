import fs from "node:fs";
import type { Page } from "@playwright/test";
import { type RunningServer, startServer } from "../integration/server-process";
import { expect, expectNoSeriousA11yViolations, signInAdmin, specDataDir, test, waitForHydration } from "./fixtures";

/**
 * The seller's delivery methods (/admin/shipping) end to end, on a server of its own: the
 * checkout specs price their carts with the shared server's methods, which these tests change.
 * The seller edits the relay's first price band and its threshold (the example line follows,
 * the shared schema refuses a missing price and a duplicate band beside their fields) and sees
 * the new figures in the list; then adds a method for the whole EU, moves it, switches it off
 * and deletes it.
 */
test.describe.configure({ mode: "serial" });

const ADMIN = { email: "admin-livraison@comptoir.test", password: "admin-livraison-mot-de-passe" };
let server: RunningServer;
let dataDir: string;
const url = (p: string) => `${server.url}${p}`;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dataDir = await specDataDir("comptoir-e2e-shipping-");
  server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: "", ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
});

test.afterAll(async () => {
  await server?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

const toast = (page: Page, title: string) => page.locator("[data-sonner-toast]").filter({ hasText: title }).first();
const row = (page: Page, name: string) => page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: new RegExp(`^${name}`) }) });
const names = (page: Page) => page.getByRole("rowheader").evaluateAll((cells) => cells.map((cell) => cell.querySelector("span")?.textContent));

async function openShipping(page: Page) {
  await signInAdmin(page, ADMIN, server.url);
  await page.getByRole("navigation", { name: "Administration" }).getByRole("link", { name: "Livraison" }).click();
  await expect(page).toHaveURL(/\/admin\/shipping$/);
  await expect(page.getByRole("heading", { level: 1, name: "Livraison" })).toBeVisible();
}

test("the seller edits the relay's price band and threshold and sees the new figures in the list", async ({ page }) => {
  await openShipping(page);
  const relay = row(page, "Point relais");
  await expect(relay).toContainText("France et 4 autres pays");
  await expect(relay).toContainText("3,99\u00a0€ à 8,99\u00a0€");
  await expect(relay).toContainText("dès 60,00\u00a0€");
  await expect(row(page, "Colissimo Europe")).toContainText("26 pays de l'UE");
  await expectNoSeriousA11yViolations(page);

  await relay.getByRole("link", { name: "Modifier Point relais" }).click();
  const form = page.getByRole("region", { name: "Modifier «\u00a0Point relais\u00a0»" });
  await expect(form.getByRole("heading", { name: "Modifier «\u00a0Point relais\u00a0»" })).toBeFocused();
  await expect(form.getByLabel("Nom")).toHaveValue("Point relais");
  await expect(form.getByRole("radio", { name: "Point relais" })).toBeChecked();
  await expect(form.getByRole("checkbox", { name: "Luxembourg" })).toBeChecked();
  await expect(form.getByRole("checkbox", { name: "Allemagne" })).not.toBeChecked();
  const example = form.locator("output");
  await expect(example).toHaveText("Exemple\u00a0: un panier de 500\u00a0g à 30\u00a0€ → 3,99\u00a0€");

  // The first band's price and the threshold: the example follows as the seller types.
  await form.getByLabel("Tranche 1, Prix (€)").fill("4,20");
  await expect(example).toHaveText("Exemple\u00a0: un panier de 500\u00a0g à 30\u00a0€ → 4,20\u00a0€");
  await form.getByLabel("Offerte dès (€)").fill("25");
  await expect(example).toHaveText("Exemple\u00a0: un panier de 500\u00a0g à 30\u00a0€ → offert (dès 25\u00a0€)");
  await form.getByLabel("Offerte dès (€)").fill("50");
  await form.getByLabel("Montant (€)").fill("55");
  await expect(example).toHaveText("Exemple\u00a0: un panier de 500\u00a0g à 55\u00a0€ → offert (dès 50\u00a0€)");

  // Refused in the page with the shared schema: a band without a price, a band twice.
  await form.getByLabel("Tranche 2, Prix (€)").fill("");
  await form.getByRole("button", { name: "Ajouter une tranche" }).click();
  const fifth = form.getByLabel("Tranche 5, Jusqu'à (g)");
  await expect(fifth).toBeFocused();
  await fifth.fill("500");
  await form.getByLabel("Tranche 5, Prix (€)").fill("1");
  await form.getByRole("button", { name: "Enregistrer les modifications" }).click();
  await expect(form.getByText("Indiquez le prix de cette tranche (0 pour la rendre gratuite).")).toBeVisible();
  await expect(form.getByText(/Une autre tranche a déjà ce poids maximal \(500\u00a0g\)/)).toBeVisible();
  await expect(form.getByLabel("Tranche 2, Prix (€)")).toBeFocused();
  await expect(form.getByLabel("Tranche 2, Prix (€)")).toHaveAttribute("aria-invalid", "true");
  await expectNoSeriousA11yViolations(page);
  await form.getByLabel("Tranche 2, Prix (€)").fill("4,49");
  await expect(form.getByText("Indiquez le prix de cette tranche (0 pour la rendre gratuite).")).toHaveCount(0);
  await form.getByRole("button", { name: "Supprimer la tranche 5" }).click();
  await expect(form.getByLabel("Tranche 5, Prix (€)")).toHaveCount(0);
  // The last row gone, the focus goes to the row before it.
  await expect(form.getByLabel("Tranche 4, Jusqu'à (g)")).toBeFocused();

  await form.getByRole("button", { name: "Enregistrer les modifications" }).click();
  await expect(toast(page, "Mode de livraison mis à jour")).toContainText("«\u00a0Point relais\u00a0» est enregistré.");
  await expect(form).toHaveCount(0);
  await expect(page).toHaveURL(/\/admin\/shipping$/);
  await expect(relay.getByRole("link", { name: "Modifier Point relais" })).toBeFocused();
  await expect(relay).toContainText("4,20\u00a0€ à 8,99\u00a0€");
  await expect(relay).toContainText("4 tranches, jusqu'à 10\u00a0kg");
  await expect(relay).toContainText("dès 50,00\u00a0€");

  // Kept: a new page says the same.
  await page.reload();
  await waitForHydration(page);
  await expect(row(page, "Point relais")).toContainText("4,20\u00a0€ à 8,99\u00a0€");
  await expect(row(page, "Point relais")).toContainText("dès 50,00\u00a0€");
});

test("the seller adds a method for the whole EU, moves it up, switches it off and deletes it", async ({ page }) => {
  await openShipping(page);
  await page.getByRole("link", { name: "Ajouter un mode de livraison" }).click();
  const form = page.getByRole("region", { name: "Nouveau mode de livraison" });
  await expect(form.getByRole("heading", { name: "Nouveau mode de livraison" })).toBeFocused();
  await form.getByLabel("Nom").fill("Chronopost Europe");
  await form.getByRole("radio", { name: "À domicile" }).check();
  await form.getByLabel("Délai de livraison").fill("2 à 4 jours ouvrés");
  const eu = form.getByRole("group", { name: /^Union européenne/ });
  await expect(eu).toContainText("(0 pays sur 26)");
  await eu.getByRole("button", { name: "Tout cocher" }).click();
  await expect(eu).toContainText("(26 pays sur 26)");
  await expect(eu.getByRole("checkbox", { name: "Suède" })).toBeChecked();
  await expect(eu.getByRole("button", { name: "Tout décocher" })).toBeFocused();
  await form.getByRole("checkbox", { name: "France" }).uncheck();
  await form.getByLabel("Tranche 1, Prix (€)").fill("19,90");
  await expect(form.locator("output")).toHaveText("Exemple\u00a0: un panier de 500\u00a0g à 30\u00a0€ → 19,90\u00a0€");
  await form.getByRole("button", { name: "Ajouter le mode de livraison" }).click();
  await expect(toast(page, "Mode de livraison ajouté")).toContainText("«\u00a0Chronopost Europe\u00a0» est proposé aux clients.");
  await expect(form).toHaveCount(0);

  const added = row(page, "Chronopost Europe");
  await expect(added).toContainText("26 pays de l'UE");
  await expect(added).toContainText("19,90\u00a0€");
  await expect(added).toContainText("sans limite de poids");
  await expect(added.getByRole("link", { name: "Modifier Chronopost Europe" })).toBeFocused();
  expect(await names(page)).toEqual(["Lettre suivie", "Point relais", "Colissimo à domicile", "Colissimo Europe", "Chronopost Europe"]);

  // Last: "Descendre" says it cannot; "Monter" moves it, and keeps the focus with it.
  await expect(added.getByRole("button", { name: "Descendre Chronopost Europe" })).toHaveAttribute("aria-disabled", "true");
  await added.getByRole("button", { name: "Monter Chronopost Europe" }).click();
  await expect.poll(() => names(page)).toEqual(["Lettre suivie", "Point relais", "Colissimo à domicile", "Chronopost Europe", "Colissimo Europe"]);
  await expect(added.getByRole("button", { name: "Monter Chronopost Europe" })).toBeFocused();
  await expect(page.getByRole("status").filter({ hasText: "en position 4 sur 5" })).toHaveText("«\u00a0Chronopost Europe\u00a0» est en position 4 sur 5.");

  const active = added.getByRole("switch", { name: "Proposer Chronopost Europe aux clients" });
  await expect(active).toBeChecked();
  await active.click();
  await expect(toast(page, "Mode de livraison désactivé")).toBeVisible();
  await expect(active).not.toBeChecked();
  await page.reload();
  await waitForHydration(page);
  await expect(row(page, "Chronopost Europe").getByRole("switch")).not.toBeChecked();

  await row(page, "Chronopost Europe").getByRole("button", { name: "Supprimer Chronopost Europe" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Supprimer ce mode de livraison ?" });
  await expect(dialog).toContainText("«\u00a0Chronopost Europe\u00a0» ne sera plus proposé aux clients.");
  await dialog.getByRole("button", { name: "Supprimer" }).click();
  await expect(toast(page, "Mode de livraison supprimé")).toBeVisible();
  await expect(row(page, "Chronopost Europe")).toHaveCount(0);
  expect(await names(page)).toEqual(["Lettre suivie", "Point relais", "Colissimo à domicile", "Colissimo Europe"]);
});

test("the page works at phone width: each method is a card with its figures", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAdmin(page, ADMIN, server.url);
  await page.goto(url("/admin/shipping"));
  await waitForHydration(page);
  const relay = row(page, "Point relais");
  // The table's headers are hidden there: each figure has its name above it.
  for (const label of ["Pays", "Tarifs", "Offerte", "Délai"]) await expect(relay.getByText(label, { exact: true })).toBeVisible();
  for (const text of ["France et 4 autres pays", /\d,\d\d\u00a0€ à 8,99\u00a0€/, /dès \d+,00\u00a0€/, "3 à 5 jours ouvrés"]) await expect(relay).toContainText(text);
  await expect(relay.getByRole("switch")).toBeVisible();
  // Nothing wider than the screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectNoSeriousA11yViolations(page);
});
