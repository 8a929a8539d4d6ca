import type { Page } from "@playwright/test";
import type { RunningServer } from "../integration/server-process";
import { HAS_PDFTOTEXT, pdfText } from "../support/pdf-text";
import { INVOICE_FIXTURES as F } from "../setup/invoice-fixtures-data";
import { chooseAddressDeliveryInCart, fillPaymentPage } from "./checkout-helpers";
import { startFixtureServer } from "./fixture-server";
import { chooseLightTheme, expect, expectNoSeriousA11yViolations, signInAdmin, test } from "./fixtures";

/**
 * The CGV as a durable medium (issue 52), end to end, on a server of its own with the seller's
 * complete identity (tests/setup/invoice-fixtures.ts): a guest orders; /merci links the CGV
 * version the order was placed under; the seller finds the confirmation e-mail in the outbox
 * with that version as its attached PDF, and the same version on the order's page; the PDF reads
 * as the CGV in force (the /legal page's articles, the seller's name). The recording rules
 * (one row per version, a new one when the identity changes, kept past the purge, the SMTP
 * attachment) are in tests/integration/cgv-snapshots.test.ts.
 */
test.describe.configure({ mode: "default" });

const ADMIN = { email: "admin-cgv@comptoir.test", password: "admin-cgv-mot-de-passe-2026" };
const PRODUCT = "Booster Astres Radieux";

let server: RunningServer;
let stopServer: () => Promise<void> = async () => {};
const url = (p: string) => `${server.url}${p}`;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  ({ server, stop: stopServer } = await startFixtureServer("comptoir-e2e-cgv-", "tests/setup/invoice-fixtures.ts", ADMIN));
});
test.afterAll(() => stopServer());

async function download(page: Page, href: string): Promise<Buffer> {
  const answer = await page.request.get(url(href));
  expect(answer.status(), href).toBe(200);
  expect(answer.headers()["content-type"]).toBe("application/pdf");
  return answer.body();
}

test("a guest's order keeps the CGV it was placed under: linked from /merci and the seller's order, sent as a PDF with the confirmation", async ({ page, browser }) => {
  test.slow();
  await page.goto(url(`/catalog?q=${encodeURIComponent(PRODUCT)}`));
  const add = page.getByRole("button", { name: `au panier : ${PRODUCT}` });
  await add.click();
  await expect(add).toContainText("Ajouté");
  await page.goto(url("/cart"));
  await chooseAddressDeliveryInCart(page);
  await page.getByRole("button", { name: "Procéder au paiement" }).click();
  await fillPaymentPage(page, { email: "invite-cgv@example.com" });

  // /merci: the CGV version of the order, as a PDF link.
  await expect(page.getByRole("heading", { name: "Merci pour votre commande !" })).toBeVisible();
  const number = (await page.getByText(/^CPT-\d{6}-\d{4}$/).first().innerText()).trim();
  const terms = page.getByRole("region", { name: "Conditions de vente" });
  const link = terms.getByRole("link", { name: /^CGV, version [0-9a-f]{8} du \d{1,2} \S+ \d{4} \(PDF\)$/ });
  await expect(link).toBeVisible();
  const href = (await link.getAttribute("href"))!;
  const version = /^\/cgv\/([0-9a-f]{64})\.pdf$/.exec(href)![1]!;
  await expect(link).toContainText(`version ${version.slice(0, 8)}`);
  await expectNoSeriousA11yViolations(page);
  await terms.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath("merci-cgv-sombre-1280.png") });
  await page.setViewportSize({ width: 390, height: 844 });
  await terms.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath("merci-cgv-sombre-390.png") });
  await chooseLightTheme(page);
  await terms.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath("merci-cgv-clair-390.png") });
  await page.setViewportSize({ width: 1280, height: 800 });
  await terms.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath("merci-cgv-clair-1280.png") });
  await expectNoSeriousA11yViolations(page);

  // The seller: the confirmation e-mail carries that version as its attachment.
  const seller = await (await browser.newContext({ locale: "fr-FR" })).newPage();
  await signInAdmin(seller, ADMIN, server.url);
  await seller.goto(url("/admin/emails"));
  await seller.getByRole("link", { name: `Confirmation de votre commande ${number}` }).click();
  const attachment = seller.getByRole("link", { name: `CGV-${version.slice(0, 8)}.pdf` });
  await expect(attachment).toHaveAttribute("href", href);
  await expect(seller.getByTestId("email-text")).toContainText(`elles sont jointes à cet e-mail (CGV-${version.slice(0, 8)}.pdf)`);
  await expect(seller.getByTestId("email-text")).toContainText(`${server.url}${href}`);
  // The order's page shows the version too (short hash and date).
  await seller.goto(url(`/admin/orders/${number}`));
  await expect(seller.getByRole("region", { name: "Conditions de vente" }).getByRole("link")).toHaveAttribute("href", href);
  const pdf = await download(seller, href);

  // The CGV in force: every article /legal shows, and the seller's name, read from the PDF.
  await seller.goto(url("/legal"));
  const articles = await seller.locator("#cgv").locator("xpath=..").getByRole("heading", { level: 3 }).allInnerTexts();
  expect(articles.length).toBeGreaterThan(10);
  await seller.context().close();
  test.skip(!HAS_PDFTOTEXT, "pdftotext (poppler-utils) is not installed: the PDF cannot be read as text");
  const text = pdfText(pdf);
  expect(text).toContain("2. Conditions générales de vente");
  for (const article of articles) expect(text).toContain(article.replace(/[\u00a0\u202f]/g, " ").trim());
  expect(text).toContain(F.identity.companyName);
  expect(text).toContain(F.identity.mediatorName);
  expect(text).toContain(`Version ${version.slice(0, 8)}`);
});
