import AxeBuilder from "@axe-core/playwright";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type APIRequestContext, type Browser, type Cookie, type Page, test as base, expect } from "@playwright/test";
import { type UsedSteps, unusedTotpCode } from "../support/totp";
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
 * The admins' second factor in these tests: every admin enrols TOTP the first time it signs in
 * on a server (requireAdmin opens nothing else), and later sign-ins give a code computed from
 * the secret (tests/support/totp.ts). The secret is kept in a file per server and address,
 * beside the run's data directory template, so both workers share it; a lock lets one enrol.
 */
function secretFile(origin: string, email: string): string {
  const dir = `${process.env.E2E_DATA_TEMPLATE ?? path.join(os.tmpdir(), "comptoir-e2e")}.totp`;
  fs.mkdirSync(dir, { recursive: true });
  return path.join(dir, createHash("sha256").update(`${origin} ${email}`).digest("hex").slice(0, 24));
}
const readSecret = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim() : null);

/**
 * The steps whose code was sent for the secret of `file`, beside it: the server takes each code
 * once, and both workers sign its admin in. Read and written under the file's lock.
 */
function stepsSent(file: string): UsedSteps {
  const ledger = `${file}.steps`;
  const steps = new Set<number>(fs.existsSync(ledger) ? JSON.parse(fs.readFileSync(ledger, "utf8")) : []);
  return {
    has: (step) => steps.has(step),
    add: (step) => {
      steps.add(step);
      fs.writeFileSync(ledger, JSON.stringify([...steps].slice(-20)));
    },
  };
}
const codeFor = (file: string, secret: string) => unusedTotpCode(secret, stepsSent(file));

/** The session cookies of the admin of `file` last signed in by signInAdmin, beside it. */
const sessionFile = (file: string) => `${file}.session.json`;

/** Runs `work` holding the lock of `file` (a directory beside it), one process at a time. */
async function withLock<T>(file: string, work: () => Promise<T>): Promise<T> {
  const lock = `${file}.lock`;
  const started = Date.now();
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (Date.now() - started > 60_000) throw new Error(`lock ${lock} held for a minute`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    return await work();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

const originOf = (baseUrl: string) => baseUrl || `http://127.0.0.1:${process.env.E2E_PORT}`;

/**
 * Signs the admin in through the request context (sharing its browser's cookies when it is a
 * page's): the password, then the code; the first time, the enrolment on /admin/securite.
 */
export async function signInAdminRequest(request: APIRequestContext, admin: { email: string; password: string } = E2E_ADMIN, baseUrl = "") {
  const file = secretFile(originOf(baseUrl), admin.email);
  // One sign-in at a time per server and admin: the first one enrols (a server on a reused
  // port starts with its admin not enrolled: the password alone then signs in, and it enrols).
  await withLock(file, async () => {
    const first = await request.post(`${baseUrl}/admin/login`, { form: admin, maxRedirects: 0 });
    expect(first.status(), "admin sign-in").toBe(302);
    if (first.headers().location === "/admin/login?etape=code") {
      const secret = readSecret(file);
      expect(secret, `${admin.email} enrolled by these tests on ${originOf(baseUrl)}`).toBeTruthy();
      const done = await request.post(`${baseUrl}/admin/login`, { form: { intent: "code", code: await codeFor(file, secret!) }, maxRedirects: 0 });
      expect(done.status(), "admin sign-in with the code").toBe(302);
      return;
    }
    const started = await request.post(`${baseUrl}/admin/securite`, { form: { intent: "start", password: admin.password }, maxRedirects: 0 });
    expect(started.status(), "enrolment started").toBe(200);
    const html = await started.text();
    const found = html.match(/data-testid="totp-secret"[^>]*>([A-Z2-7]+)</)?.[1];
    const totpUri = html.match(/data-testid="totp-uri"[^>]*>([^<]+)</)?.[1]?.replaceAll("&amp;", "&");
    expect(found && totpUri, "the secret on /admin/securite").toBeTruthy();
    const confirmed = await request.post(`${baseUrl}/admin/securite`, {
      form: { intent: "confirm", code: await codeFor(file, found!), totpUri: totpUri! },
      maxRedirects: 0,
    });
    expect(confirmed.status(), "enrolment confirmed").toBe(302);
    fs.writeFileSync(file, found!);
  });
}

/**
 * Signs an admin in (on `baseUrl`, else the page's own server) and opens the product list. The forms are
 * posted by the page's request context, which shares the browser's cookies: the seller's way
 * through the /admin/login page, hydration and typing included, is driven by
 * signInAdminWithForm (accounts.spec.ts, admin-2fa.spec.ts); the other specs only need the session.
 */
export async function signInAdmin(page: Page, admin: { email: string; password: string } = E2E_ADMIN, baseUrl = "") {
  // The admin's session is shared by the tests that only need one (a TOTP code opens one session,
  // and three codes come every 30 s): the last one, while the server still takes it.
  const file = sessionFile(secretFile(originOf(baseUrl), admin.email));
  const saved = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as Cookie[]) : [];
  if (saved.length) await page.context().addCookies(saved);
  if (!saved.length || (await page.request.get(`${baseUrl}/admin`, { maxRedirects: 0 })).status() !== 200) {
    await signInAdminRequest(page.request, admin, baseUrl);
    const signedIn = (await page.context().cookies()).filter((cookie) => /^(__Secure-)?better-auth\.session_(token|data)$|^comptoir_viewer$/.test(cookie.name));
    fs.writeFileSync(file, JSON.stringify(signedIn));
  }
  await page.goto(`${baseUrl}/admin/products`);
  await expect(page).toHaveURL(/\/admin\/products$/);
  // Ready for clicks, as after the form's client-side navigation.
  await waitForHydration(page);
}

/**
 * The link in the newest e-mail to `to` whose subject starts with `subject`, read in /admin/emails
 * (on `baseUrl`, else the page's own server): its path and query. `link`: a path followed by a
 * query (a signed link), or a pattern of the whole path and query.
 */
export async function linkInEmail(admin: Page, to: string, subject: string, link: string | RegExp, baseUrl = ""): Promise<string> {
  await admin.goto(`${baseUrl}/admin/emails`);
  const row = admin.getByRole("row").filter({ hasText: to }).filter({ hasText: subject }).first();
  await row.getByRole("link", { name: new RegExp(`^${subject}`) }).click();
  const text = await admin.getByTestId("email-text").innerText();
  const pattern = typeof link === "string" ? `${link.replaceAll("/", "\\/")}\\?[^\\s]+` : link.source;
  const found = text.match(new RegExp(`https?://[^\\s/]+${pattern}`))?.[0];
  expect(found, "the e-mail carries the link").toBeTruthy();
  const { pathname, search } = new URL(found!);
  return pathname + search;
}

/** Resolves once the page has hydrated (the root layout marks <html>): a click on a link before that may be lost. */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => document.documentElement.hasAttribute("data-hydrated"));
}

/**
 * Enrols the signed-in admin's second factor on /admin/securite, as the seller does: the
 * password again, the secret read from the page, a first code. Returns the secret.
 */
export async function enrolSecondFactorWithForm(
  page: Page,
  admin: { email: string; password: string },
  codeOf: (secret: string) => Promise<string> = (secret) => unusedTotpCode(secret),
): Promise<string> {
  await expect(page).toHaveURL(/\/admin\/securite$/);
  await waitForHydration(page);
  await page.getByLabel("Mot de passe actuel").fill(admin.password);
  await page.getByRole("button", { name: "Configurer la double authentification" }).click();
  const secret = (await page.getByTestId("totp-secret").textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await expect(page.getByTestId("totp-uri")).toContainText(`otpauth://totp/Comptoir:`);
  await page.getByLabel("Code de vérification").fill(await codeOf(secret));
  await page.getByRole("button", { name: "Activer la double authentification" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  return secret;
}

/** Signs an admin in through the /admin/login form, as the seller does: the password, then the code (enrolling first if needed). */
export async function signInAdminWithForm(page: Page, admin: { email: string; password: string } = E2E_ADMIN, baseUrl = "") {
  const file = secretFile(originOf(baseUrl), admin.email);
  await withLock(file, async () => {
    await page.goto(`${baseUrl}/admin/login`);
    await waitForHydration(page);
    await page.getByLabel("Email").fill(admin.email);
    await page.getByLabel("Mot de passe").fill(admin.password);
    await page.getByRole("button", { name: "Se connecter" }).click();
    const code = page.getByLabel("Code de vérification");
    await expect(code.or(page.getByLabel("Mot de passe actuel"))).toBeVisible();
    if (await code.isVisible()) {
      const secret = readSecret(file);
      expect(secret, `${admin.email} enrolled by these tests on ${originOf(baseUrl)}`).toBeTruthy();
      await code.fill(await codeFor(file, secret!));
      await page.getByRole("button", { name: "Vérifier" }).click();
      await expect(page).toHaveURL(/\/admin$/);
      return;
    }
    fs.writeFileSync(file, await enrolSecondFactorWithForm(page, admin, (secret) => codeFor(file, secret)));
  });
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

/**
 * The token of a spec server's test clock: `startServer({ TEST_CLOCK: TEST_CLOCK_TOKEN, … })`
 * lets advanceServerClock move that server's time (server/test-clock.ts). Only on a server of
 * the spec's own: the shared server's other tests would see their reservations expire.
 */
export const TEST_CLOCK_TOKEN = "e2e-horloge-de-test-pour-les-specs";

/** A spec server's clock, moved by the test: its time, and a move forward by `ms`. */
export function serverClock(serverUrl: string) {
  let offsetMs = 0;
  return {
    now: () => Date.now() + offsetMs,
    async advance(ms: number) {
      const answer = await fetch(`${serverUrl}/__test/clock`, {
        method: "POST",
        headers: { "X-Test-Clock": TEST_CLOCK_TOKEN, "Content-Type": "application/json" },
        body: JSON.stringify({ advanceMs: Math.max(0, Math.round(ms)) }),
      });
      expect(answer.status, "the server's test clock moved").toBe(200);
      offsetMs = ((await answer.json()) as { now: number }).now - Date.now();
    },
    /** Moves the clock to `at` (a millisecond after it), when it is still ahead. */
    async reach(at: Date) {
      await this.advance(at.getTime() - this.now() + 1);
    },
  };
}

/** The day in Paris as the admin's calendar names it ("23 novembre 2026"), and the time, `seconds` after `from` (to the second). */
export function parisLaunch(seconds: number, from = Date.now()) {
  const at = new Date(Math.floor((from + seconds * 1000) / 1000) * 1000);
  const day = new Intl.DateTimeFormat("fr-FR", { day: "numeric", month: "long", year: "numeric", timeZone: "Europe/Paris" }).format(at);
  const time = new Intl.DateTimeFormat("fr-FR", { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23", timeZone: "Europe/Paris" }).format(at);
  return { day, time, at };
}
