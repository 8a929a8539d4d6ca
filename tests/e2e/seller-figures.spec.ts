import fs from "node:fs";
import type { RunningServer } from "../integration/server-process";
import { EXPORTS_FIXTURES as F } from "../setup/exports-fixtures-data";
import { startFixtureServer } from "./fixture-server";
import { chooseRelayPointInCart, fillPaymentPage } from "./checkout-helpers";
import { expect, expectNoSeriousA11yViolations, signInAdmin, test, waitForHydration } from "./fixtures";

/**
 * The seller's figures, end to end, on a server of its own (tests/setup/exports-fixtures.ts): two
 * orders paid today, the second refunded. The seller reads the dashboard and sees a new order
 * come in without reloading it; reads the month's receipts, downloads its CSV and its FEC, and opens the year.
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
/** "Point relais" for the binder's 120 g, under its 60 € free threshold. */
const RELAY_CENTS = 399;

test("the seller reads the month's receipts, downloads its CSV and its FEC, and opens the year", async ({ page }) => {
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

  // The month's FEC (docs/decisions/052): named after the shop's SIREN and the month's last day,
  // the 18 fields' names first; two invoices, a credit note, two payments and a refund, each balanced.
  const fec = page.getByRole("region", { name: "Fichier des écritures comptables (FEC)" });
  const fecDownloading = page.waitForEvent("download");
  await fec.getByRole("link", { name: /Télécharger le FEC/ }).click();
  const fecDownload = await fecDownloading;
  const lastDay = new Date(Date.UTC(Number(year), Number(month), 0)).getUTCDate();
  expect(fecDownload.suggestedFilename()).toBe(`${F.siren}FEC${year}${month}${lastDay}.txt`);
  const [fecHeader, ...fecRows] = fs.readFileSync((await fecDownload.path())!).toString("latin1").split("\r\n");
  expect(fecHeader).toBe(
    "JournalCode\tJournalLib\tEcritureNum\tEcritureDate\tCompteNum\tCompteLib\tCompAuxNum\tCompAuxLib\tPieceRef\tPieceDate\tEcritureLib\tDebit\tCredit\tEcritureLet\tDateLet\tValidDate\tMontantdevise\tIdevise",
  );
  expect(fecRows.pop()).toBe("");
  const fields = fecRows.map((row) => row.split("\t"));
  expect(fields.every((row) => row.length === 18)).toBe(true);
  expect([...new Set(fields.map((row) => `${row[0]}${row[2]}`))].sort()).toEqual(["BQ1", "BQ2", "BQ3", "VE1", "VE2", "VE3"]);
  const fecCents = (text: string) => Number(text.replace(",", ""));
  for (const entry of new Set(fields.map((row) => `${row[0]}${row[2]}`))) {
    const lines = fields.filter((row) => `${row[0]}${row[2]}` === entry);
    expect(lines.reduce((sum, row) => sum + fecCents(row[11]!) - fecCents(row[12]!), 0)).toBe(0);
  }

  // The whole year, chosen in the form.
  await page.getByRole("form", { name: "Choisir la période" }).getByLabel("Mois").selectOption({ label: "Toute l'année" });
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

test("the seller downloads the month's e-reporting CSV: the day's consumer sales and refund by rate", async ({ page, request }) => {
  await signInAdmin(page, F.admin, server.url);
  await page.goto(url("/admin/exports"));
  const section = page.getByRole("region", { name: "E-reporting des ventes aux particuliers" });
  await expect(section.getByLabel("Mois")).toHaveValue(String(Number(month)));
  const downloading = page.waitForEvent("download");
  await section.getByRole("button", { name: "Télécharger le CSV d'e-reporting" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`e-reporting-comptoir-${year}-${month}.csv`);
  const lines = fs.readFileSync((await download.path())!).subarray(3).toString("utf8").split("\r\n");
  const day = `${year}-${month}-${parisToday.slice(0, 2)}`;
  const sales = { total: paid.totalCents + refunded.totalCents, vat: paid.vatCents + refunded.vatCents };
  expect(lines).toEqual([
    "Date;Nature;Pièces;Total TTC;Base HT 20 %;TVA 20 %;Total HT (TVA française);TVA française;Biens d'occasion, régime de la marge (TTC);Franchise en base (TTC);Ventes taxées dans un autre État membre (HT);TVA d'un autre État membre (OSS)",
    `${day};Ventes;2;${csvAmount(sales.total)};${csvAmount(sales.total - sales.vat)};${csvAmount(sales.vat)};${csvAmount(sales.total - sales.vat)};${csvAmount(sales.vat)};0,00;0,00;0,00;0,00`,
    `${day};Remboursements;1;-${csvAmount(refunded.totalCents)};-${csvAmount(refunded.totalCents - refunded.vatCents)};-${csvAmount(refunded.vatCents)};-${csvAmount(refunded.totalCents - refunded.vatCents)};-${csvAmount(refunded.vatCents)};0,00;0,00;0,00;0,00`,
    "",
  ]);
  // The platform's JSON: the same day for the admin's session, refused to a client without one.
  const json = await (await page.request.get(url(`/api/e-reporting?from=${day}&to=${day}`))).json();
  expect(json).toMatchObject({ format: 1, days: [{ date: day, sales: { documents: 2, inclVatCents: sales.total }, refunds: { documents: 1, inclVatCents: -refunded.totalCents } }] });
  const anonymous = await request.get(url(`/api/e-reporting?from=${day}&to=${day}`));
  expect(anonymous.status()).toBe(401);
});

// Last: its new order would change the receipts above.
test("the seller's dashboard shows today's sales, and a new paid order appears on it without a reload", async ({ page, browser }) => {
  await signInAdmin(page, F.admin, server.url);
  await page.getByRole("navigation", { name: "Administration" }).getByRole("link", { name: "Tableau de bord" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Tableau de bord" })).toBeVisible();
  await waitForHydration(page);
  // The launch checklist leads: the test shop has no Stripe, no SMTP, no backup, and its delivery
  // methods are the examples it started with. Stripe's keys are set on the server: no link.
  const checklist = page.getByRole("region", { name: "Avant d'ouvrir la boutique" });
  const stripe = checklist.getByTestId("checklist-stripe");
  await expect(stripe).toContainText("Page de paiement de test\u00a0: STRIPE_SECRET_KEY et STRIPE_WEBHOOK_SECRET ne sont pas définies sur le serveur");
  await expect(stripe).toContainText("ce sont les variables d'environnement STRIPE_SECRET_KEY et STRIPE_WEBHOOK_SECRET du serveur (voir .env.example et docs/operations.md)");
  await expect(stripe.getByRole("link")).toHaveCount(0);
  const shipping = checklist.getByTestId("checklist-shipping");
  await expect(shipping).toContainText("À faire\u00a0: Modes de livraison");
  await expect(shipping).toContainText("4 modes actifs sont encore des exemples de départ\u00a0: vérifiez-les, puis enregistrez-les");
  await expect(checklist.getByTestId("checklist-backup")).toContainText("Aucune sauvegarde notée");
  const today = page.getByTestId("period-today");
  await expect(today.getByTestId("revenue")).toHaveText(currency(paid.totalCents + refunded.totalCents));
  // Each period compared with the days just before, in French as it is written.
  await expect(today).toContainText(/ par rapport à hier \(/);
  await expect(page.getByTestId("period-7d")).toContainText(/ par rapport aux 7 jours précédents \(/);
  await expect(page.getByTestId("period-30d")).toContainText(/ par rapport aux 30 jours précédents \(/);
  await expect(today.getByText("Remboursements").locator("xpath=following-sibling::dd[1]")).toHaveText(`1 · ${currency(refunded.totalCents)}`);
  const toShip = page.getByRole("heading", { level: 3, name: /À expédier/ });
  await expect(toShip).toHaveText(/À expédier\s*1$/);
  // The orders listed under it (its card), by their numbers.
  const toShipOrders = toShip.locator("xpath=..").getByRole("link", { name: /^CPT-\d{6}-\d{4}$/ });
  await expect(toShipOrders).toHaveCount(1);
  const listedBefore = await toShipOrders.allInnerTexts();
  await expectNoSeriousA11yViolations(page);

  // A buyer pays an order meanwhile, in another browser; the dashboard stays open. The binder,
  // sent to a relay point: its price and the relay's, a total the test knows before paying.
  await page.evaluate(() => ((window as unknown as { stillThisPage: boolean }).stillThisPage = true));
  const newOrderCents = F.product.priceCents + RELAY_CENTS;
  const buyer = await (await browser.newContext({ locale: "fr-FR" })).newPage();
  await buyer.goto(url(`/catalog?q=${encodeURIComponent(F.product.title)}`));
  const add = buyer.getByRole("button", { name: `au panier : ${F.product.title}` });
  await add.click();
  await expect(add).toContainText("Ajouté");
  await buyer.goto(url("/cart"));
  await chooseRelayPointInCart(buyer, { relay: F.relayPoint });
  await expect(buyer.getByTestId("cart-total")).toHaveText(currency(newOrderCents));
  await buyer.getByRole("button", { name: "Procéder au paiement" }).click();
  await fillPaymentPage(buyer, { email: "nouvel.achat@example.com", relay: true });
  await expect(buyer).toHaveURL(/\/merci/);

  // That order, on the open dashboard: one more to ship, listed, and today's revenue up by
  // exactly its total.
  await expect(toShip).toHaveText(/À expédier\s*2$/);
  await expect(toShipOrders).toHaveCount(2);
  const added = (await toShipOrders.allInnerTexts()).filter((number) => !listedBefore.includes(number));
  expect(added).toHaveLength(1);
  await expect(today.getByTestId("revenue")).toHaveText(currency(paid.totalCents + refunded.totalCents + newOrderCents));
  // The order listed is the buyer's: its page, read aside (the dashboard is not reloaded), has their e-mail.
  const listed = await page.request.get(url(`/admin/orders/${added[0]}`));
  expect(listed.status()).toBe(200);
  expect(await listed.text()).toContain("nouvel.achat@example.com");
  expect(await page.evaluate(() => (window as unknown as { stillThisPage?: boolean }).stillThisPage)).toBe(true);
  await buyer.context().close();

  // The light theme passes axe too: the link to every order to ship reads on the white card.
  await page.addInitScript(() => window.localStorage.setItem("theme", "light"));
  await page.goto(url("/admin"));
  await expect(page.locator("html")).not.toHaveClass(/\bdark\b/);
  await expect(page.getByRole("link", { name: "Toutes les commandes à expédier" })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});
