import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";

// Chosen once in the runner process; workers and the web server inherit them through the
// environment. The web server makes the data directory template, which the specs' own servers
// copy (tests/setup/data-dir-template.ts).
// Below the ports the system hands out by itself (32768 and up on Linux, 49152 and up elsewhere):
// up to 39999, the test servers `npm test` starts on port 0 beside these tests, or any client
// connection, could already hold it (EADDRINUSE, seen once on CI).
process.env.E2E_PORT ??= String(20_000 + (process.pid % 12_000));
const port = Number(process.env.E2E_PORT);
process.env.E2E_DATA_TEMPLATE ??= process.env.TEST_DATA_TEMPLATE || path.join(os.tmpdir(), `comptoir-e2e-template-${port}`);

export const E2E_ADMIN = { email: "admin@comptoir.test", password: "admin-e2e-mot-de-passe" };

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  // A test.only left in a spec would run alone and pass: on CI it fails the run instead.
  forbidOnly: !!process.env.CI,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: [["list"], ["json", { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? ".tmp/playwright.json" }]],
  // The admin flows (sign in, several pages, axe on each) need more than 30 s when both workers
  // and the specs' own servers share 2 cores.
  timeout: 60_000,
  // An answer that waits its turn while both workers' pages, the specs' own servers and the
  // PostgreSQL suite share 2 cores has taken over 5 s (Playwright's default) on CI: a client
  // navigation's loaders, a form's action. Only a failing check waits this long.
  expect: { timeout: 15_000 },
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    locale: "fr-FR",
    timezoneId: "Europe/Paris",
    // A test that fails on CI is run again with a trace (actions, DOM snapshots, network,
    // console); elsewhere ask for one with --trace on. Tracing every test cost about a sixth of
    // the end-to-end run's CPU (its DOM snapshots), and the screencast a tenth more.
    trace: { mode: "on-first-retry", screenshots: false },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync"],
    },
  },
  projects: [
    { name: "desktop", use: { ...devices["Desktop Chrome"], channel: undefined }, testIgnore: /mobile\.spec\.ts/ },
    { name: "mobile", use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }, testMatch: /mobile\.spec\.ts/ },
  ],
  webServer: {
    command: "node tests/setup/e2e-server.mjs",
    url: `http://127.0.0.1:${port}/healthz`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "pipe",
    env: { PORT: String(port), ADMIN_EMAIL: E2E_ADMIN.email, ADMIN_PASSWORD: E2E_ADMIN.password },
  },
});
