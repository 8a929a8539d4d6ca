import fs from "node:fs";
import type { Page } from "@playwright/test";
import { type RunningServer, startServer } from "../integration/server-process";
import { totpCode, unusedTotpCode } from "../support/totp";
import { expect, expectNoSeriousA11yViolations, specDataDir, test, waitForHydration } from "./fixtures";

/**
 * The admin's TOTP second factor end to end, on a server of its own (its admin starts without
 * one): signed in with the password alone, every admin page leads to /admin/securite; the
 * seller enrols (the password again, the secret and the recovery codes shown, a wrong code
 * refused, the code computed here from the secret as an app would); then signs in with the
 * password and a code, and once with a recovery code. The refusals in detail are in
 * tests/integration/admin-two-factor.test.ts.
 */
const ADMIN = { email: "admin-2fa@comptoir.test", password: "admin-2fa-mot-de-passe" };
let server: RunningServer;
let dataDir = "";
const url = (p: string) => `${server.url}${p}`;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dataDir = await specDataDir("comptoir-e2e-2fa-");
  server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: "", ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
});

test.afterAll(async () => {
  await server?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

async function typePassword(page: Page) {
  await page.goto(url("/admin/login"));
  await waitForHydration(page);
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Mot de passe").fill(ADMIN.password);
  await page.getByRole("button", { name: "Se connecter" }).click();
}

test("the admin enrols TOTP, then signs in with the password and a code, or a recovery code", async ({ page, browser }) => {
  test.slow(); // three sign-ins and an accessibility scan
  // The password alone: only the enrolment page opens.
  await typePassword(page);
  await expect(page).toHaveURL(/\/admin\/securite$/);
  await expect(page.getByRole("heading", { name: "Double authentification" })).toBeVisible();
  await page.goto(url("/admin/orders"));
  await expect(page).toHaveURL(/\/admin\/securite$/);
  await expectNoSeriousA11yViolations(page);

  // A wrong password is refused before any secret is shown.
  await page.getByLabel("Mot de passe actuel").fill("pas-le-bon");
  await page.getByRole("button", { name: "Configurer la double authentification" }).click();
  await expect(page.getByText("Mot de passe incorrect").first()).toBeVisible();
  await expect(page.getByTestId("totp-secret")).toHaveCount(0);

  // A wrong code keeps the enrolment on screen; then the enrolment as the seller does it.
  await page.getByLabel("Mot de passe actuel").fill(ADMIN.password);
  await page.getByRole("button", { name: "Configurer la double authentification" }).click();
  const secret = (await page.getByTestId("totp-secret").textContent())!.trim();
  // The QR code is drawn (its content is read back in tests/integration/admin-two-factor.test.ts).
  await expect(page.getByRole("img", { name: /^QR code du compte/ })).toBeVisible();
  expect(await page.getByTestId("totp-qr").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  const recoveryCodes = await page.getByRole("list", { name: "Codes de récupération" }).getByRole("listitem").allTextContents();
  expect(recoveryCodes).toHaveLength(10);
  await expectNoSeriousA11yViolations(page);
  await page.getByLabel("Code de vérification").fill(totpCode(secret) === "000000" ? "111111" : "000000");
  await page.getByRole("button", { name: "Activer la double authentification" }).click();
  await expect(page.getByText("Code incorrect").first()).toBeVisible();
  await expect(page.getByTestId("totp-secret")).toHaveText(secret);
  await page.getByLabel("Code de vérification").fill(await unusedTotpCode(secret));
  await page.getByRole("button", { name: "Activer la double authentification" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();

  // Another browser: the password, then the code (a wrong one first).
  const second = await (await browser.newContext({ locale: "fr-FR" })).newPage();
  await typePassword(second);
  await expect(second.getByLabel("Code de vérification")).toBeVisible();
  await expect(second).toHaveURL(/\/admin\/login\?etape=code$/);
  await second.getByLabel("Code de vérification").fill(totpCode(secret) === "123456" ? "654321" : "123456");
  await second.getByRole("button", { name: "Vérifier" }).click();
  await expect(second.getByText("Code incorrect").first()).toBeVisible();
  const code = await unusedTotpCode(secret);
  await second.getByLabel("Code de vérification").fill(code);
  await second.getByRole("button", { name: "Vérifier" }).click();
  await expect(second).toHaveURL(/\/admin$/);
  await expect(second.getByText("Bienvenue dans l'espace administrateur.")).toBeVisible();
  await second.goto(url("/admin/orders"));
  await expect(second).toHaveURL(/\/admin\/orders$/);

  // The same code seen over the shoulder, typed at once in another browser with the password: refused.
  const copycat = await (await browser.newContext({ locale: "fr-FR" })).newPage();
  await typePassword(copycat);
  await copycat.getByLabel("Code de vérification").fill(code);
  await copycat.getByRole("button", { name: "Vérifier" }).click();
  await expect(copycat.getByText("Code déjà utilisé").first()).toBeVisible();
  await expect(copycat.getByLabel("Mot de passe")).toBeVisible();
  await copycat.goto(url("/admin/orders"));
  await expect(copycat).toHaveURL(/\/admin\/login$/);

  // A third: a recovery code instead of the app's.
  const third = await (await browser.newContext({ locale: "fr-FR" })).newPage();
  await typePassword(third);
  await third.getByLabel("Code de vérification").fill(recoveryCodes[0]!);
  await third.getByRole("button", { name: "Vérifier" }).click();
  await expect(third).toHaveURL(/\/admin$/);
});
