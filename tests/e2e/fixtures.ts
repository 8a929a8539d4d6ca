import AxeBuilder from "@axe-core/playwright";
import { type Browser, type Page, test as base, expect } from "@playwright/test";
import { E2E_ADMIN } from "../../playwright.config";

const EXPECTED_HTTP_ERROR = /status of (400|401|403|404|413|415|422|429) \(/;

const pageErrors = new WeakMap<Page, string[]>();

export const test = base.extend<{ consoleErrors: string[] }>({
  /**
   * Every test with a page fails on a console error or an uncaught exception (hydration
   * included). A test that only sends HTTP requests opens no page.
   */
  page: async ({ page }, provide) => {
    const errors: string[] = [];
    pageErrors.set(page, errors);
    page.on("console", (message) => {
      // The not-found page logs its 404 on purpose (SPEC.md: "The error is logged"), and the
      // browser logs every 4xx answer, which form actions give on purpose for refused input.
      if (message.type() === "error" && !message.text().startsWith("404 :") && !EXPECTED_HTTP_ERROR.test(message.text())) {
        errors.push(message.text());
      }
    });
    page.on("pageerror", (error) => errors.push(error.message));
    await provide(page);
    expect(errors, "console errors").toEqual([]);
  },
  /** The page's console errors so far, for a test that causes some on purpose. */
  consoleErrors: async ({ page }, provide) => provide(pageErrors.get(page)!),
});

export { expect };

/** A new data directory for a spec's own server: a copy of the run's template (already seeded, images drawn). */
export async function specDataDir(prefix: string): Promise<string> {
  const { dataDirFromTemplate } = await import("../setup/data-dir-template");
  return dataDirFromTemplate(process.env.E2E_DATA_TEMPLATE!, prefix);
}

/** Runs axe-core on the page as it is and fails on any serious or critical violation. */
export async function expectNoSeriousA11yViolations(page: Page) {
  // In the page and its same-origin frames: the shop has no cross-origin frame, axe's default
  // run cannot finish with the sandboxed e-mail preview, and it opens an extra page each time.
  // A colour in mid-transition (a toast fading in or out) is not the page's own: scan with
  // motion reduced, where the toasts drop their transitions (axe's first style read applies it).
  await page.emulateMedia({ reducedMotion: "reduce" });
  const results = await new AxeBuilder({ page }).setLegacyMode(true).analyze();
  await page.emulateMedia({ reducedMotion: null });
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => `${n.target.join(" ")} ${n.failureSummary ?? ""}`).join(", ")}`)).toEqual([]);
}

/** Switches from the dark default to the light theme with the header's menu, as a visitor does. */
export async function chooseLightTheme(page: Page) {
  const html = page.locator("html");
  await expect(html).toHaveClass(/\bdark\b/);
  await page.getByRole("button", { name: "Changer le thème" }).click();
  await page.getByRole("menuitemradio", { name: "Clair" }).click();
  await expect(page.getByRole("menu")).toBeHidden();
  await expect(html).not.toHaveClass(/\bdark\b/);
}

/**
 * Signs an admin in (on `baseUrl`, else the page's own server) and opens /admin. The form is
 * posted by the page's request context, which shares the browser's cookies: the seller's way
 * through the /admin/login page, hydration and typing included, is driven once, by
 * signInAdminWithForm in accounts.spec.ts; the other specs only need the session.
 */
export async function signInAdmin(page: Page, admin: { email: string; password: string } = E2E_ADMIN, baseUrl = "") {
  const answer = await page.request.post(`${baseUrl}/admin/login`, { form: admin, maxRedirects: 0 });
  expect(answer.status(), "admin sign-in").toBe(302);
  await page.goto(`${baseUrl}/admin`);
  await expect(page).toHaveURL(/\/admin$/);
  // Ready for clicks, as after the form's client-side navigation.
  await waitForHydration(page);
}

/** Resolves once the page has hydrated (the root layout marks <html>): a click on a link before that may be lost. */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => document.documentElement.hasAttribute("data-hydrated"));
}

/** Signs an admin in through the /admin/login form, as the seller does. */
export async function signInAdminWithForm(page: Page, admin: { email: string; password: string } = E2E_ADMIN, baseUrl = "") {
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

/**
 * A slow phone: the page shows, its code comes later. Holds the page's entry script back until
 * the returned `release` is called. Call before `page.goto`.
 */
export async function holdPageCode(page: Page): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/assets/entry.client-*.js", async (route) => {
    await held;
    await route.continue();
  });
  return release;
}
