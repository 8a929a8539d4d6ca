import fs from "node:fs";
import { HAS_PDFTOTEXT, pdfText } from "../support/pdf-text";
import type { Page } from "@playwright/test";
import type { RunningServer } from "../integration/server-process";
import { startFixtureServer } from "./fixture-server";
import { ADMIN_ORDERS_FIXTURES as F } from "../setup/admin-orders-fixtures-data";
import { chooseLightTheme, expect, expectNoSeriousA11yViolations, signInAdmin, test } from "./fixtures";

/**
 * The seller's orders, end to end, on a server of its own: a customer's two paid orders
 * (made by tests/setup/admin-orders-fixtures.ts through the real checkout and payment webhook),
 * their figures on the users page, then one shipped with its tracking e-mail and the other
 * cancelled and refunded with its stock back.
 */
test.describe.configure({ mode: "serial" });

const ADMIN = { email: "admin-commandes@comptoir.test", password: "admin-commandes-mot-de-passe" };
let server: RunningServer;
let stopServer: () => Promise<void> = async () => {};
const url = (p: string) => `${server.url}${p}`;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  ({ server, stop: stopServer } = await startFixtureServer("comptoir-e2e-orders-", "tests/setup/admin-orders-fixtures.ts", ADMIN));
});

test.afterAll(() => stopServer());

/** The order the first test ships: the next one refunds part of it. */
let shippedNumber = "";

const signIn = (page: Page) => signInAdmin(page, ADMIN, server.url);

const today = new Intl.DateTimeFormat("fr-FR", { day: "2-digit", month: "2-digit", year: "numeric", timeZone: "Europe/Paris" }).format(new Date());
const euros = (cents: number) => new Intl.NumberFormat("fr-FR", { style: "currency", currency: "EUR" }).format(cents / 100);

test("the seller sees a customer's two orders, ships one with its tracking e-mail and refunds the other", async ({ page }) => {
  test.slow();
  await signIn(page);

  // The users page counts the two paid orders, the last one's day and the exact total.
  await page.goto(url(`/admin/users?q=${encodeURIComponent(F.customer.email)}`));
  const customerRow = page.getByRole("row", { name: new RegExp(F.customer.name) });
  await expect(customerRow.getByRole("cell").nth(2)).toHaveText("2");
  await expect(customerRow.getByRole("cell").nth(3)).toHaveText(today);
  await expect(customerRow.getByRole("cell").nth(4)).toHaveText(euros(F.orders[0].totalCents + F.orders[1].totalCents));

  // The list: newest first, both waiting to be shipped.
  await page.goto(url("/admin/orders"));
  await expect(page.getByRole("heading", { level: 1, name: "Commandes" })).toBeVisible();
  await expect(page.getByRole("link", { name: /À expédier/ })).toContainText("2");
  const rows = page.getByRole("row").filter({ hasText: F.customer.email });
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText(euros(F.orders[1].totalCents));
  await expect(rows.nth(1)).toContainText(euros(F.orders[0].totalCents));
  await expect(rows.nth(0)).toContainText("Payée");
  const [toRefund, toShip] = await Promise.all([0, 1].map((n) => rows.nth(n).getByRole("link").innerText()));
  shippedNumber = toShip!;
  await expectNoSeriousA11yViolations(page);
  await page.getByLabel("Rechercher une commande").fill(toShip!.toLowerCase());
  await page.getByRole("button", { name: "Filtrer" }).click();
  await expect(page).toHaveURL(/q=cpt-/);
  await expect(page.getByText(/^1 commande trouvée · Page 1 sur 1$/)).toBeVisible();

  // Ship the older one: the dialog checks its fields, then the order turns Expédiée.
  await page.getByRole("link", { name: toShip }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Commande ${toShip}` })).toBeVisible();
  await expect(page.getByText("Tabac de la Gare")).toBeVisible();
  await expect(page.getByText("pi_test_fixture_0", { exact: true })).toBeVisible();
  await expect(page.getByText("Paiement reçu")).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.getByRole("button", { name: "Marquer comme expédiée" }).click();
  const shipDialog = page.getByRole("alertdialog", { name: "Marquer comme expédiée" });
  await shipDialog.getByRole("button", { name: "Marquer comme expédiée" }).click();
  await expect(shipDialog.getByText("Choisissez un transporteur.")).toBeVisible();
  await expect(shipDialog.getByText("Indiquez le numéro de suivi.")).toBeVisible();
  await shipDialog.getByLabel("Transporteur").selectOption({ label: "Colissimo" });
  await shipDialog.getByLabel("Numéro de suivi").fill("6a 1234 5678 901");
  await shipDialog.getByRole("button", { name: "Marquer comme expédiée" }).click();
  // The toast, then the page as the server now sees it.
  await expect(page.getByText(`Le numéro de suivi 6A12345678901 (Colissimo) part par e-mail à ${F.customer.email}.`)).toBeVisible();
  await expect(shipDialog).toBeHidden();
  await expect(page.getByText("Expédiée", { exact: true }).first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Marquer comme expédiée" })).toHaveCount(0);
  // The button that opened the dialog is gone with the new status: focus is on the page's title.
  await expect(page.getByRole("heading", { level: 1 })).toBeFocused();
  const tracking = "https://www.laposte.fr/outils/suivre-vos-envois?code=6A12345678901";
  await expect(page.getByRole("link", { name: /Suivre le colis/ }).first()).toHaveAttribute("href", tracking);
  // The history says who shipped it.
  await expect(page.getByRole("region", { name: "Historique" }).getByRole("listitem").filter({ hasText: "Commande expédiée" })).toContainText("par Administrateur");

  // The customer's tracking e-mail is in the outbox. Read on a page of its own: the trace
  // recorder's script is refused by the preview's sandboxed frame, which logs a console error.
  const outbox = await page.context().newPage();
  await outbox.goto(url("/admin/emails"));
  await outbox.getByRole("link", { name: `Votre commande ${toShip} a été expédiée – Comptoir` }).click();
  await expect(outbox.getByTestId("email-text")).toContainText("Numéro de suivi : 6A12345678901");
  await expect(outbox.getByTestId("email-text")).toContainText(`Suivre mon colis : ${tracking}`);
  await outbox.close();

  // Cancel and refund the other: refunded, its two units back on the shelf.
  await page.goto(url(`/admin/orders/${toRefund}`));
  await page.getByRole("button", { name: "Annuler et rembourser" }).click();
  const refundDialog = page.getByRole("alertdialog", { name: "Annuler et rembourser ?" });
  await expect(refundDialog).toContainText(euros(F.orders[1].totalCents));
  await refundDialog.getByRole("button", { name: "Annuler et rembourser" }).click();
  await expect(page.getByText(`${euros(F.orders[1].totalCents)} remboursés au client, articles remis en stock.`, { exact: false })).toBeVisible();
  await expect(page.getByText("Remboursée", { exact: true }).first()).toBeVisible();
  await expect(page.getByText(/^re_test_/)).toBeVisible();
  await expect(page.getByText("Commande annulée par le vendeur")).toBeVisible();
  await expect(page.getByRole("link", { name: new RegExp(`Commande ${toRefund} annulée et remboursée`) })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await page.goto(url(`/admin/products?q=${encodeURIComponent(F.product.title)}`));
  const productRow = page.getByRole("row", { name: new RegExp(F.product.title) });
  await expect(productRow.getByRole("cell").nth(3)).toHaveText(String(F.product.stock - F.orders[0].quantity));

  await page.goto(url("/admin/orders?status=refunded"));
  await expect(page.getByRole("row").filter({ hasText: toRefund! })).toContainText("Remboursée");
});

test("the seller refunds part of a shipped order: one unit back in stock less a deduction, a partial credit note, the customer told", async ({ page }) => {
  test.slow();
  expect(shippedNumber, "set by the test above").not.toBe("");
  await signIn(page);
  await page.goto(url(`/admin/orders/${shippedNumber}`));
  await expect(page.getByRole("heading", { level: 1, name: `Commande ${shippedNumber}` })).toBeVisible();
  await page.getByRole("button", { name: "Rembourser une partie" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Rembourser une partie de la commande" });
  await expect(dialog).toContainText(`${euros(F.orders[0].totalCents)} restent à rembourser`);
  await expect(dialog.getByText(`1 sur 1 à rembourser · ${euros(F.product.priceCents)} l'unité`)).toBeVisible();

  // A deduction needs its amount and its reason: the form says so before anything is sent.
  await dialog.getByLabel(`Quantité à rembourser : ${F.product.title}`).fill("1");
  await dialog.getByLabel("Type").selectOption("depreciation");
  await dialog.getByRole("button", { name: "Rembourser" }).click();
  await expect(dialog.getByText("Indiquez le montant.")).toBeVisible();
  await expect(dialog.getByText("Indiquez le motif de la déduction (l'état de l'article retourné).")).toBeVisible();
  await dialog.getByLabel("Montant (€)").fill("5");
  await dialog.getByLabel("Motif").fill("Boîte enfoncée");
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: test.info().outputPath("rembourser-une-partie-1280.png") });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: test.info().outputPath("rembourser-une-partie-390.png") });
  await page.setViewportSize({ width: 1280, height: 900 });

  // 49,90 € less 5,00 €: the server's reckoning, with its credit note.
  const refunded = F.product.priceCents - 500;
  await dialog.getByRole("button", { name: "Rembourser" }).click();
  await expect(page.getByText(new RegExp(`^${euros(refunded)} remboursés au client, prévenu par e-mail\\. Avoir A-\\d{4}-\\d{6}\\.$`))).toBeVisible();
  await expect(dialog).toBeHidden();
  const refunds = page.getByRole("region", { name: "Remboursements" });
  await expect(refunds).toContainText(`${euros(refunded)} remboursés sur ${euros(F.orders[0].totalCents)}.`);
  await expect(refunds).toContainText(`1 × ${F.product.title} (remis en stock)`);
  await expect(refunds).toContainText(`Déduction pour dépréciation : ${euros(-500)} (Boîte enfoncée)`);
  const note = refunds.getByRole("link", { name: /^Avoir A-\d{4}-\d{6} \(PDF\)$/ });
  await expect(note).toBeVisible();
  const pdf = await page.request.get(new URL((await note.getAttribute("href"))!, server.url).toString());
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()["content-type"]).toContain("application/pdf");
  fs.writeFileSync(test.info().outputPath("avoir-partiel.pdf"), await pdf.body());
  if (HAS_PDFTOTEXT || process.env.CI) {
    // The credit note read as text: what went back, negated, the deduction and the invoice it refers to.
    const text = pdfText(await pdf.body());
    expect(text).toMatch(/Avoir partiel sur la facture\s+F-\d{4}-\d{6}/);
    expect(text).toContain(`${F.product.title}`);
    expect(text).toContain("-41,59 €");
    expect(text).toContain("Déduction pour dépréciation : Boîte enfoncée");
    expect(text).toMatch(/Total TTC\s+-44,90 €/);
  }
  // Still shipped, the delivery still refundable: the button stays for what is left.
  await expect(page.getByText("Expédiée", { exact: true }).first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Rembourser une partie" })).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await refunds.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath("commande-remboursements-390.png") });
  await page.setViewportSize({ width: 1280, height: 900 });
  // The same in the light theme: the refunds, and the dialog opened again for what is left.
  await chooseLightTheme(page);
  await page.screenshot({ path: test.info().outputPath("commande-remboursements-clair-1280.png") });
  await page.getByRole("button", { name: "Rembourser une partie" }).click();
  await expect(dialog).toContainText(`${euros(F.orders[0].totalCents - refunded)} restent à rembourser`);
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: test.info().outputPath("rembourser-une-partie-clair-1280.png") });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: test.info().outputPath("rembourser-une-partie-clair-390.png") });
  await page.setViewportSize({ width: 1280, height: 900 });
  await dialog.getByRole("button", { name: "Retour" }).click();
  await expect(dialog).toBeHidden();

  // The customer's order page: the amount refunded so far and the credit note beside the invoice.
  const customer = await page.context().browser()!.newContext({ colorScheme: "light" });
  const own = await customer.newPage();
  await own.goto(url("/login"));
  await own.getByLabel("Email").fill(F.customer.email);
  await own.getByLabel("Mot de passe").fill(F.customer.password);
  await own.getByRole("button", { name: "Se connecter" }).click();
  await expect(own).toHaveURL(/\/account/);
  await own.goto(url(`/account/orders/${shippedNumber}`));
  await expect(own.getByText("Remboursé (en partie, voir les avoirs)")).toBeVisible();
  await expect(own.getByText(`−${euros(refunded)}`)).toBeVisible();
  const documents = own.getByRole("region", { name: "Factures" });
  await expect(documents.getByRole("link", { name: /^Facture F-\d{4}-\d{6} \(PDF\)$/ })).toBeVisible();
  await expect(documents.getByRole("link", { name: /^Avoir A-\d{4}-\d{6} \(PDF\)$/ })).toBeVisible();
  await expectNoSeriousA11yViolations(own);
  await documents.scrollIntoViewIfNeeded();
  await own.screenshot({ path: test.info().outputPath("client-avoir-1280.png") });
  await own.setViewportSize({ width: 390, height: 844 });
  await documents.scrollIntoViewIfNeeded();
  await own.screenshot({ path: test.info().outputPath("client-avoir-390.png") });
  await chooseLightTheme(own);
  await expectNoSeriousA11yViolations(own);
  await documents.scrollIntoViewIfNeeded();
  await own.screenshot({ path: test.info().outputPath("client-avoir-clair-390.png") });
  await customer.close();

  // The list marks it; the customer's e-mail is in the outbox.
  await page.goto(url(`/admin/orders?q=${encodeURIComponent(shippedNumber)}`));
  await expect(page.getByRole("row").filter({ hasText: shippedNumber })).toContainText("Remboursée en partie");
  await page.goto(url("/admin/emails"));
  await page.getByRole("link", { name: `Commande ${shippedNumber} : remboursement de ${euros(refunded)} – Comptoir` }).click();
  const mail = page.getByTestId("email-text");
  await expect(mail).toContainText(`Nous vous avons remboursé ${euros(refunded)} sur votre commande ${shippedNumber}`);
  await expect(mail).toContainText(`1 × ${F.product.title} : ${euros(F.product.priceCents)}`);
  await expect(mail).toContainText(`Déduction pour dépréciation (Boîte enfoncée) : ${euros(-500)}`);
  await expect(mail).toContainText(`Montant remboursé : ${euros(refunded)}`);
  await expect(mail).toContainText(`Remboursé à ce jour sur cette commande : ${euros(refunded)} sur ${euros(F.orders[0].totalCents)}.`);
});
