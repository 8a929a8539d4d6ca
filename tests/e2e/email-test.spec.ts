import type { Page } from "@playwright/test";
import { E2E_ADMIN } from "../../playwright.config";
import { expect, expectNoSeriousA11yViolations, signInAsAdmin, test, waitForHydration } from "./fixtures";

/**
 * The order e-mail test (SPEC.md section 2, Test-email page), on the shared server: no SMTP
 * relay there, so both e-mails wait in the outbox. The SMTP outcomes, the failures, and the
 * refusals (no link for visitors and customers, /test-email sending them to /admin/login and
 * /admin/unauthorized) are covered over HTTP in tests/integration/email-test.test.ts; the
 * header without the link in home-and-shell.spec.ts (visitor) and accounts.spec.ts (customer).
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
  await waitForHydration(page);
  // The server takes one test per admin every 5 s: a retry of this test, started right after a
  // failed attempt whose test was still running on a saturated machine, would be refused.
  if (test.info().retry > 0) await page.waitForTimeout(5_000);
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
