import AxeBuilder from "@axe-core/playwright";
import { type Browser, type Page, test as base, expect } from "@playwright/test";
import { E2E_ADMIN } from "../../playwright.config";

const EXPECTED_HTTP_ERROR = /status of (400|401|403|404|413|415|422|429) \(/;

/** Every page test fails on a console error or an uncaught exception (hydration included). */
export const test = base.extend<{ consoleErrors: string[] }>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on("console", (message) => {
        // The not-found page logs its 404 on purpose (SPEC.md: "The error is logged"), and the
        // browser logs every 4xx answer, which form actions give on purpose for refused input.
        if (message.type() === "error" && !message.text().startsWith("404 :") && !EXPECTED_HTTP_ERROR.test(message.text())) {
          errors.push(message.text());
        }
      });
      page.on("pageerror", (error) => errors.push(error.message));
      await use(errors);
      expect(errors, "console errors").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** Runs axe-core on the page as it is and fails on any serious or critical violation. */
export async function expectNoSeriousA11yViolations(page: Page, options: { sameOriginFramesOnly?: boolean } = {}) {
  // With a sandboxed frame (the e-mail preview), axe's default run cannot finish: run it in
  // the page, on same-origin frames only.
  const results = await new AxeBuilder({ page }).setLegacyMode(options.sameOriginFramesOnly ?? false).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => `${n.target.join(" ")} ${n.failureSummary ?? ""}`).join(", ")}`)).toEqual([]);
}

/** Signs an admin in through /admin/login, as the seller does (on `baseUrl`, else the page's own). */
export async function signInAdmin(page: Page, admin: { email: string; password: string } = E2E_ADMIN, baseUrl = "") {
  await page.goto(`${baseUrl}/admin/login`);
  await page.getByLabel("Email").fill(admin.email);
  await page.getByLabel("Mot de passe").fill(admin.password);
  await page.getByRole("button", { name: "Se connecter" }).click();
  await expect(page).toHaveURL(/\/admin$/);
}

/** A new browser context with the shared server's admin signed in. */
export async function signInAsAdmin(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext({ locale: "fr-FR" })).newPage();
  await signInAdmin(page);
  return page;
}
