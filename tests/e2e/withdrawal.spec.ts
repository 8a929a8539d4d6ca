import type { Page } from "@playwright/test";
import { HAS_PDFTOTEXT, pdfText } from "../support/pdf-text";
import type { RunningServer } from "../integration/server-process";
import { startFixtureServer } from "./fixture-server";
import { WITHDRAWAL_FIXTURES as F } from "../setup/withdrawal-fixtures-data";
import { expect, expectNoSeriousA11yViolations, signInAdmin, test } from "./fixtures";

/**
 * The withdrawal function, end to end, on a server of its own (tests/setup/withdrawal-fixtures.ts):
 * a customer pays through the test payment page's order button, withdraws from their account
 * ("Se rétracter du contrat ici", then their name and "Confirmer la rétractation") and sees the
 * acknowledgement; the seller finds it in the outbox and on the order, with the name given. A
 * guest uses the public form.
 */
test.describe.configure({ mode: "serial" });

const ADMIN = { email: "admin-retractation@comptoir.test", password: "admin-retractation-mot-de-passe" };
let server: RunningServer;
let stopServer: () => Promise<void> = async () => {};
const url = (p: string) => `${server.url}${p}`;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  ({ server, stop: stopServer } = await startFixtureServer("comptoir-e2e-withdrawal-", "tests/setup/withdrawal-fixtures.ts", ADMIN));
});

test.afterAll(() => stopServer());

/** "21 juin 2026 à 14:05": what the pages and the e-mail show of the request. */
const MOMENT = /\d{1,2} \p{L}+ \d{4} à \d{2}:\d{2}/u;
const NAME_MISSING = "Indiquez votre nom et votre prénom (au moins 2 caractères).";
/** The name the customer gives in the withdrawal form (both buyers: the EU model's "Nom du (des) consommateur(s)"). */
const DECLARED_NAME = `${F.customer.name} et Jules Rétractation`;

async function buyAsCustomer(page: Page): Promise<string> {
  await page.goto(url("/login"));
  await page.getByLabel("Email").fill(F.customer.email);
  await page.getByLabel("Mot de passe").fill(F.customer.password);
  await page.getByRole("button", { name: "Se connecter" }).click();
  await expect(page).toHaveURL(/\/account$/);
  await page.goto(url(`/catalog?q=${encodeURIComponent(F.product.title)}`));
  await page.getByRole("button", { name: `au panier : ${F.product.title}` }).click();
  await expect(page.getByRole("button", { name: `au panier : ${F.product.title}` })).toContainText("Ajouté");
  await page.goto(url("/cart"));
  // Home delivery (the cart offers a relay point first): the payment page then asks for the address.
  await page.getByRole("radio", { name: /^Colissimo à domicile/ }).check();
  await page.getByRole("button", { name: "Procéder au paiement" }).click();
  await expect(page).toHaveURL(/\/paiement\/cs_test_/);
  await page.getByLabel("Adresse", { exact: true }).fill("12 rue des Lilas");
  await page.getByLabel("Nom complet du destinataire").fill(F.customer.name);
  await page.getByLabel("Code postal").fill("69001");
  await page.getByLabel("Ville").fill("Lyon");
  await page.getByLabel("Téléphone").fill("06 12 34 56 78");
  await page.getByLabel("Numéro de carte").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiration (MM/AA)").fill("12/30");
  await page.getByLabel("Cryptogramme").fill("123");
  // L221-14: the order button says that ordering means paying.
  await page.getByRole("button", { name: /^Payer [\d\s,]+\s€ – commande avec obligation de paiement$/ }).click();
  await expect(page.getByRole("heading", { name: "Merci pour votre commande !" })).toBeVisible();
  return (await page.getByText(/^CPT-\d{6}-\d{4}$/).first().innerText()).trim();
}

test("a customer withdraws from their paid order; the seller sees the acknowledgement e-mail and the request on the order", async ({ page, browser }) => {
  test.slow();
  const number = await buyAsCustomer(page);

  await page.goto(url("/account"));
  await page.getByRole("link", { name: `Se rétracter du contrat ici – commande ${number}` }).click();
  await expect(page).toHaveURL(url(`/retractation?commande=${number}`));
  await expect(page.getByRole("heading", { level: 2, name: "Confirmez votre rétractation" })).toBeVisible();
  await expect(page.getByText(`Commande ${number}`)).toBeVisible();
  await expect(page.getByText(F.product.title)).toBeVisible();
  // Every unit by default (the only article, once).
  await expect(page.getByRole("spinbutton", { name: new RegExp(`^${F.product.title}`) })).toHaveValue("1");
  // The name, filled in with the account's, and the address the acknowledgement goes to.
  const name = page.getByLabel("Nom et prénom");
  await expect(name).toHaveValue(F.customer.name);
  await expect(page.getByText(`L'accusé de réception sera envoyé à ${F.customer.email}.`)).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  // Without a name: refused in the browser, in French, the field focused.
  await name.fill("  ");
  await page.getByRole("button", { name: "Confirmer la rétractation" }).click();
  await expect(page.getByText(NAME_MISSING)).toBeVisible();
  await expect(name).toBeFocused();
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await name.fill(DECLARED_NAME);
  await expect(page.getByText(NAME_MISSING)).toHaveCount(0);
  await page.getByRole("button", { name: "Confirmer la rétractation" }).click();

  await expect(page.getByRole("heading", { level: 2, name: "Rétractation enregistrée" })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "a été enregistrée le" })).toContainText(`au nom de ${DECLARED_NAME}`);
  const receipt = page.getByRole("status").filter({ hasText: "a été enregistrée le" });
  const moment = (await receipt.locator("time").innerText()).trim();
  expect(moment).toMatch(MOMENT);
  await expect(page.getByText(`Un accusé de réception vient de vous être envoyé par e-mail à ${F.customer.email}.`)).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // The account now says when, instead of the button.
  await page.goto(url("/account"));
  await expect(page.getByText(`Rétractation demandée le ${moment}`)).toBeVisible();
  await expect(page.getByRole("link", { name: /^Se rétracter du contrat ici/ })).toHaveCount(0);

  // The seller: the acknowledgement in the outbox, with the date and time; the request on the order.
  const admin = await (await browser.newContext({ locale: "fr-FR" })).newPage();
  await signInAdmin(admin, ADMIN, server.url);
  await admin.goto(url("/admin/emails"));
  await admin.getByRole("link", { name: `Accusé de réception de votre rétractation – commande ${number}` }).click();
  await expect(admin.getByTestId("email-text")).toContainText(`Demande reçue le : ${moment} (heure de Paris)`);
  await expect(admin.getByTestId("email-text")).toContainText(F.product.title);
  await expect(admin.getByTestId("email-text")).toContainText(`Au nom de : ${DECLARED_NAME}`);
  await admin.goto(url(`/admin/orders/${number}`));
  await expect(admin.getByText(`Rétractation demandée le ${moment}`)).toBeVisible();
  await expect(admin.getByText(/^Nom indiqué dans la rétractation\s:/)).toContainText(DECLARED_NAME);
  const history = admin.getByRole("region", { name: "Historique" });
  await expect(history.getByRole("listitem").filter({ hasText: "Rétractation demandée par le client" }).first()).toContainText(F.customer.email);
  await expectNoSeriousA11yViolations(admin);
});

test("a guest withdraws with the public form: a wrong e-mail finds nothing, the right one leads to the acknowledgement, which a catalogue change leaves in place", async ({ page, browser }) => {
  await page.goto(url("/retractation"));
  await expect(page.getByRole("heading", { level: 1, name: "Se rétracter d'une commande" })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  // Checked in the browser first, with the form's French messages.
  await page.getByRole("button", { name: "Continuer" }).click();
  await expect(page.getByText("Numéro de commande invalide : il s'écrit comme CPT-123456-0042.")).toBeVisible();

  // The form says where the acknowledgement goes.
  await expect(page.getByText("L'adresse donnée lors de la commande. L'accusé de réception de votre rétractation sera envoyé à cette adresse.")).toBeVisible();
  await page.getByLabel("Numéro de commande").fill(F.guestOrder.number.toLowerCase());
  await page.getByLabel("Email").fill("quelquun@example.com");
  await page.getByRole("button", { name: "Continuer" }).click();
  await expect(page.getByRole("alert")).toContainText("Commande introuvable");

  await page.getByLabel("Email").fill(F.guestOrder.email.toLowerCase());
  await page.getByRole("button", { name: "Continuer" }).click();
  await expect(page.getByRole("heading", { level: 2, name: "Confirmez votre rétractation" })).toBeVisible();
  await expect(page.getByText(`Commande ${F.guestOrder.number}`)).toBeVisible();
  // The address the acknowledgement goes to: the order's, the one typed.
  await expect(page.getByText(`L'accusé de réception sera envoyé à ${F.guestOrder.email}.`)).toBeVisible();
  const name = page.getByLabel("Nom et prénom");
  await expect(name).toHaveValue("");
  // Both boosters by default.
  await expect(page.getByRole("spinbutton", { name: new RegExp(`^${F.product.title}`) })).toHaveValue(String(F.guestOrder.quantity));
  await page.getByRole("button", { name: "Confirmer la rétractation" }).click();
  await expect(page.getByText(NAME_MISSING)).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Confirmez votre rétractation" })).toBeVisible();
  await name.fill(F.guestOrder.name);
  await page.getByRole("button", { name: "Confirmer la rétractation" }).click();
  await expect(page.getByRole("heading", { level: 2, name: "Rétractation enregistrée" })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "a été enregistrée le" })).toContainText(`au nom de ${F.guestOrder.name}`);
  await expect(page.getByRole("status").filter({ hasText: "a été enregistrée le" }).locator("time")).toHaveText(MOMENT);
  await expect(page.getByText(`Un accusé de réception vient de vous être envoyé par e-mail à ${F.guestOrder.email}.`)).toBeVisible();

  // The catalogue changes meanwhile (a drop, the seller): the page hears it, and the
  // acknowledgement stays (React Router's reload of the page's data used to drop it).
  // Its live connection is open (it hears what the test's own stream below hears).
  await expect(page.locator("html")).toHaveAttribute("data-live", "connected");
  const dataRequests: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.endsWith(".data")) dataRequests.push(new URL(request.url()).pathname);
  });
  const heard = page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const stream = new EventSource("/api/live");
        stream.addEventListener("catalog", () => (stream.close(), resolve()));
      }),
  );
  const admin = await (await browser.newContext({ locale: "fr-FR" })).newPage();
  await signInAdmin(admin, ADMIN, server.url);
  for (const featured of ["true", "false"]) {
    expect((await admin.request.post(url("/admin/products"), { form: { intent: "featured", id: "1", featured } })).status()).toBe(200);
  }
  await heard;
  // The page would reload its data 150 ms after hearing it (use-live-updates.ts); it holds the
  // reload while the acknowledgement shows (use-idle-revalidate.ts). A second for it to go wrong:
  await page.waitForTimeout(1_000);
  expect(dataRequests).toEqual([]);
  await expect(page.getByRole("heading", { level: 2, name: "Rétractation enregistrée" })).toBeVisible();
  await admin.context().close();
});

test("a guest withdraws one line of two; the seller marks the return received with a deduction and refunds it", async ({ page, browser }) => {
  test.slow();
  const S = F.shippedGuestOrder;
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(url("/retractation"));
  await page.getByLabel("Numéro de commande").fill(S.number);
  await page.getByLabel("Email").fill(S.email);
  await page.getByRole("button", { name: "Continuer" }).click();
  await expect(page.getByRole("heading", { level: 2, name: "Confirmez votre rétractation" })).toBeVisible();
  // Every unit of every article by default; 0 keeps an article.
  const booster = page.getByRole("spinbutton", { name: new RegExp(`^${F.product.title}`) });
  const display = page.getByRole("spinbutton", { name: new RegExp(`^${S.display.title}`) });
  await expect(booster).toHaveValue("1");
  await expect(display).toHaveValue("1");
  // Nothing chosen: refused in the browser, in French.
  await booster.fill("0");
  await display.fill("0");
  await page.getByLabel("Nom et prénom").fill(S.name);
  await page.getByRole("button", { name: "Confirmer la rétractation" }).click();
  await expect(page.getByText("Choisissez au moins un article dont vous vous rétractez (une quantité d'au moins 1).")).toBeVisible();
  await booster.fill("1");
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: "test-results/withdrawal-confirm-390.png", fullPage: true });
  await page.getByRole("button", { name: "Confirmer la rétractation" }).click();
  await expect(page.getByRole("heading", { level: 2, name: "Rétractation enregistrée" })).toBeVisible();

  const admin = await (await browser.newContext({ locale: "fr-FR", viewport: { width: 1280, height: 900 } })).newPage();
  await signInAdmin(admin, ADMIN, server.url);
  // The acknowledgement lists the booster only, with the return address and the refund's terms.
  await admin.goto(url("/admin/emails"));
  await admin.getByRole("link", { name: `Accusé de réception de votre rétractation – commande ${S.number}` }).click();
  const ack = admin.getByTestId("email-text");
  await expect(ack).toContainText("Articles dont vous vous rétractez");
  await expect(ack).toContainText(F.product.title);
  await expect(ack).not.toContainText(S.display.title);
  await expect(ack).toContainText("éventuellement une fois les articles reçus ou la preuve de leur envoi fournie");

  await admin.goto(url(`/admin/orders/${S.number}`));
  const notice = admin.getByRole("status").filter({ hasText: "Rétractation demandée le" });
  await expect(notice).toContainText("Articles retirés (une partie de la commande)");
  await expect(notice.getByRole("list", { name: "Articles de la rétractation" })).toHaveText(`${F.product.title} (× 1)`);
  await expect(notice).toContainText("Remboursement à faire au plus tard le");
  await admin.getByRole("button", { name: "Marquer le retour reçu" }).click();
  const dialog = admin.getByRole("alertdialog");
  await expect(dialog).toContainText("La livraison n'est pas remboursée : le client garde une partie de la commande.");
  await expect(dialog.getByRole("checkbox", { name: "Remettre en stock" })).toBeChecked();
  await dialog.getByLabel("Montant retenu (€)").fill("2,00");
  // A deduction without its reason: refused, in French.
  await dialog.getByRole("button", { name: "Retour reçu, rembourser" }).click();
  await expect(dialog.getByText("Indiquez le motif de la déduction (l'état de l'article retourné).")).toBeVisible();
  await dialog.getByLabel("Motif").fill("Booster ouvert");
  await expectNoSeriousA11yViolations(admin);
  await admin.screenshot({ path: "test-results/withdrawal-return-dialog-1280.png" });
  await dialog.getByRole("button", { name: "Retour reçu, rembourser" }).click();
  await expect(admin.getByText("12,90 € remboursés au client, prévenu par e-mail.").first()).toBeVisible();
  await expect(notice).toContainText("Retour reçu le");
  await expect(notice).toContainText(/Remboursement fait le .+ : 12,90\s€/u);
  await expect(admin.getByRole("button", { name: "Marquer le retour reçu" })).toHaveCount(0);
  // The partial credit note, read as text: the booster given back, the deduction, the total.
  const note = admin.getByRole("region", { name: "Remboursements" }).getByRole("link", { name: /^Avoir A-\d{4}-\d{6} \(PDF\)$/ });
  const pdf = await admin.request.get(url((await note.getAttribute("href"))!));
  expect(pdf.status()).toBe(200);
  if (HAS_PDFTOTEXT || process.env.CI) {
    const text = pdfText(await pdf.body());
    expect(text).toMatch(/Avoir partiel sur la facture\s+F-\d{4}-\d{6}/);
    expect(text).toContain("Déduction pour dépréciation : Booster ouvert");
    expect(text).toMatch(/Total TTC\s+-12,90 €/);
  }
  // The buyer's e-mail: the amount and the deduction with its reason.
  await admin.goto(url("/admin/emails"));
  await admin.getByRole("link", { name: /remboursement de 12,90\s€/u }).first().click();
  await expect(admin.getByTestId("email-text")).toContainText("Booster ouvert");
  await expect(admin.getByTestId("email-text")).toContainText(/-?2,00\s€/u);
  await expect(admin.getByTestId("email-text")).toContainText(/Montant remboursé : 12,90\s€/u);
  await admin.context().close();
});
