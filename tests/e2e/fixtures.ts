import AxeBuilder from "@axe-core/playwright";
import { type Page, test as base, expect } from "@playwright/test";

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
