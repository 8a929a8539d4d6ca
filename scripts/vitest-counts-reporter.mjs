// A vitest reporter for `npm test` (scripts/test-all.mjs): writes what the summary counts to the
// file named by VITEST_COUNTS_FILE. Vitest's JSON reporter cannot say it: it reports the tests of
// a suite whose beforeAll threw as skipped, and neither that suite's error nor which file did
// not import (only "failed" files, whether their own error or a failed test failed them).
// Counted by scripts/test-summary.mjs (vitestCounts).
import fs from "node:fs";
import path from "node:path";

const messages = (errors) => (errors ?? []).map((error) => error.message ?? String(error));

export default class VitestCountsReporter {
  onTestRunEnd(testModules, unhandledErrors, reason) {
    const file = process.env.VITEST_COUNTS_FILE;
    if (!file) return;
    const modules = testModules.map((module) => {
      const suites = [];
      const tests = [];
      // Depth first, knowing whether the module or a suite around each test failed on its own.
      const visit = (collection, failedAbove) => {
        for (const child of collection) {
          if (child.type === "suite") {
            const errors = messages(child.errors());
            suites.push({ name: child.fullName, errors });
            visit(child.children, failedAbove || errors.length > 0);
          } else {
            const result = child.result();
            tests.push({
              name: child.fullName,
              state: result.state,
              mode: child.options.mode,
              ...(result.note !== undefined ? { note: result.note } : {}),
              flaky: child.diagnostic()?.flaky ?? false,
              // tests/support/by-design.ts: a test (or its suite) that runs on the other pass only.
              ...(child.meta().skippedByDesign ? { byDesign: child.meta().skippedByDesign } : {}),
              suiteFailed: failedAbove,
            });
          }
        }
      };
      const errors = messages(module.errors());
      visit(module.children, errors.length > 0);
      return { file: module.relativeModuleId, errors, suites, tests };
    });
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ reason, unhandledErrors: messages(unhandledErrors), modules }, null, 1));
  }
}
