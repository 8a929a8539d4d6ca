import fs from "node:fs";
import type { RunningServer } from "../integration/server-process";
import { EXPORTS_FIXTURES as F } from "../setup/exports-fixtures-data";
import { startFixtureServer } from "./fixture-server";
import { expect, expectNoSeriousA11yViolations, signInAdmin, test } from "./fixtures";

/**
 * The receipts book, end to end, on a server of its own (tests/setup/exports-fixtures.ts): two
 * orders paid this month, the second refunded. The seller reads the month's figures, downloads
 * its CSV and opens the year.
 */
test.describe.configure({ mode: "serial" });

let server: RunningServer;
let stopServer: () => Promise<void> = async () => {};
const url = (p: string) => `${server.url}${p}`;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  ({ server, stop: stopServer } = await startFixtureServer("comptoir-e2e-exports-", "tests/setup/exports-fixtures.ts", F.admin));
});

test.afterAll(() => stopServer());

const parisToday = new Intl.DateTimeFormat("fr-FR", { day: "2-digit", month: "2-digit", year: "numeric", timeZone: "Europe/Paris" }).format(new Date());
const [, month, year] = parisToday.split("/") as [string, string, string];
const currency = (cents: number) => new Intl.NumberFormat("fr-FR", { style: "currency", currency: "EUR" }).format(cents / 100);
/** As the CSV writes an amount: "53,89", "-99,80". */
const csvAmount = (cents: number) => (cents / 100).toFixed(2).replace(".", ",");
const [paid, refunded] = F.orders;

test("the seller reads the month's receipts, downloads its CSV and opens the year", async ({ page }) => {
  await signInAdmin(page, F.admin, server.url);
  await page.goto(url("/admin/exports"));
  await expect(page.getByRole("heading", { level: 1, name: "Exports comptables" })).toBeVisible();
  const summary = page.getByRole("region", { name: new RegExp(`${year}$`) });
  await expect(summary.getByText("3 lignes : 2 paiements, 1 remboursement")).toBeVisible();
  // The refund takes the second order off: the month keeps the first one's amounts.
  await expect(summary.getByRole("definition").first()).toHaveText(currency(paid.totalCents));
  await expect(summary.getByText(/^TVA 20\s%$/).locator("xpath=following-sibling::dd[1]")).toHaveText(currency(paid.vatCents));
  await expectNoSeriousA11yViolations(page);

  const downloading = page.waitForEvent("download");
  await summary.getByRole("link", { name: /Télécharger le CSV/ }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`recettes-comptoir-${year}-${month}.csv`);
  const bytes = fs.readFileSync((await download.path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.subarray(3).toString("utf8").split("\r\n");
  expect(lines[0]).toBe("Date;Pièce;Commande;Client;Montant TTC;Montant HT;TVA 20 %;Moyen de paiement;Référence du paiement");
  const order = "CPT-\\d{6}-\\d{4}";
  const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  // The formula in the customer's name is neutralised; the refund's amounts stay numbers.
  expect(lines[1]).toMatch(
    new RegExp(`^${escaped(`${parisToday};F-${year}-000001;`)}${order}${escaped(`;"'=HYPERLINK(""http://evil.example"",""Cliquez"")";${csvAmount(paid.totalCents)};${csvAmount(paid.totalCents - paid.vatCents)};${csvAmount(paid.vatCents)};Carte bancaire (paiement de test);pi_test_exports_0`)}$`),
  );
  expect(lines[2]).toMatch(new RegExp(`^${escaped(`${parisToday};F-${year}-000002;`)}${order};Camille Compta;${csvAmount(refunded.totalCents)};`));
  expect(lines[3]).toMatch(
    new RegExp(`^${escaped(`${parisToday};A-${year}-000001;`)}${order}${escaped(`;Camille Compta;-${csvAmount(refunded.totalCents)};-${csvAmount(refunded.totalCents - refunded.vatCents)};-${csvAmount(refunded.vatCents)};Carte bancaire (paiement de test);re_test_`)}`),
  );
  expect(lines.slice(4)).toEqual([""]);

  // The whole year, chosen in the form.
  await page.getByLabel("Mois").selectOption({ label: "Toute l'année" });
  await page.getByRole("button", { name: "Afficher" }).click();
  await expect(page).toHaveURL(new RegExp(`year=${year}&month=$`));
  await expect(page.getByRole("heading", { level: 2, name: `année ${year}` })).toBeVisible();
  await expect(page.getByText("3 lignes : 2 paiements, 1 remboursement")).toBeVisible();

  // A bad period: a French message, as a 400.
  const bad = await page.request.get(url("/admin/exports/recettes.csv?year=2026&month=13"));
  expect(bad.status()).toBe(400);
  expect(await bad.text()).toBe("Mois invalide : choisissez un mois de 1 à 12, ou toute l'année.");
  await page.goto(url("/admin/exports?year=26&month=1"));
  await expect(page.getByRole("alert")).toContainText("Année invalide : indiquez une année entre 2000 et 2100.");

  // The light theme passes axe too.
  await page.addInitScript(() => window.localStorage.setItem("theme", "light"));
  await page.goto(url("/admin/exports"));
  await expect(page.locator("html")).not.toHaveClass(/\bdark\b/);
  await expectNoSeriousA11yViolations(page);
});
