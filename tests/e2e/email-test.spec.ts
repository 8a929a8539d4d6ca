import type { Page } from "@playwright/test";
import { E2E_ADMIN } from "../../playwright.config";
import { expect, expectNoSeriousA11yViolations, signInAsAdmin, test } from "./fixtures";

/**
 * The order e-mail test (SPEC.md section 2, Test-email page), on the shared server: no SMTP
 * relay there, so both e-mails wait in the outbox. The SMTP outcomes, the refusals and the
 * failures are covered over HTTP in tests/integration/email-test.test.ts.
 */
const link = (page: Page) => page.getByRole("link", { name: "Test e-mail" });

test("the admin finds the header link and runs the test: both e-mails queued, the test order shown", async ({ browser }) => {
  test.slow(); // an admin session, two accessibility scans
  const page = await signInAsAdmin(browser);
  await page.goto("/");
  await link(page).click();
  await expect(page).toHaveURL(/\/test-email$/);
  await expect(page.getByRole("heading", { level: 1, name: "Test des e-mails de commande" })).toBeVisible();

  await page.goto("/admin/test-email");
  await expect(page.getByText(E2E_ADMIN.email).first()).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.getByRole("button", { name: "Tester les e-mails de commande" }).click();

  await expect(page.getByText("Test réussi").first()).toBeVisible();
  await expect(page.getByText("Les emails de test ont été envoyés avec succès.").first()).toBeVisible();
  for (const title of ["Confirmation client", "Notification vendeur"]) {
    const box = page.getByRole("region", { name: title });
    await expect(box.getByText("En file d'attente")).toBeVisible();
    await expect(box.getByText("Identifiant (boîte d'envoi)")).toBeVisible();
  }
  await expect(page.getByRole("region", { name: "Confirmation client" }).getByText(E2E_ADMIN.email)).toBeVisible();
  const order = page.getByRole("region", { name: "Commande de test" });
  await expect(order.getByText(/^TEST-\d{6}-\d{4}$/)).toBeVisible();
  await expect(order.getByText(/^[\d\s]+,\d{2}\s€$/)).toBeVisible();
  await expect(order.getByText("3", { exact: true })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // The confirmation waits in the outbox, with the test order's number in its subject.
  const number = await order.getByText(/^TEST-/).innerText();
  await page.getByRole("region", { name: "Confirmation client" }).getByRole("link", { name: "Voir l'e-mail dans la boîte d'envoi" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Confirmation de votre commande ${number} – Comptoir`);

  // On a phone, the link is in the menu.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  await page.getByRole("button", { name: "Ouvrir le menu" }).click();
  await expect(page.getByRole("dialog").getByRole("link", { name: "Test e-mail" })).toBeVisible();
});

test("visitors and customers see no link, and /test-email refuses a customer", async ({ page, browser }) => {
  test.slow(); // a sign-up confirmed through the admin's outbox
  await page.goto("/");
  await expect(page.getByRole("link", { name: "Connexion" }).first()).toBeVisible();
  await expect(link(page)).toHaveCount(0);
  await page.goto("/test-email");
  await expect(page).toHaveURL(/\/admin\/login$/);

  const email = `testeur-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  await page.goto("/signup");
  await page.getByLabel("Nom").fill("Testeur");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Mot de passe").fill("Salameche-2026");
  await page.getByRole("button", { name: "S'inscrire" }).click();
  await expect(page.getByText("Inscription réussie").first()).toBeVisible();
  const admin = await signInAsAdmin(browser);
  await admin.goto("/admin/emails");
  await admin.getByRole("row").filter({ hasText: email }).getByRole("link").click();
  const confirm = new URL((await admin.getByTestId("email-text").innerText()).match(/https?:\/\/\S+/)![0]);
  await page.goto(confirm.pathname + confirm.search);
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Mot de passe").fill("Salameche-2026");
  await page.getByRole("button", { name: "Se connecter" }).click();
  await expect(page).toHaveURL(/\/account$/);

  await page.goto("/");
  await expect(page.getByRole("link", { name: /Mon compte/ })).toBeVisible();
  await expect(link(page)).toHaveCount(0);
  await page.goto("/test-email");
  await expect(page).toHaveURL(/\/admin\/unauthorized$/);
});
