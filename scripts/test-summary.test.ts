import { describe, expect, it } from "vitest";
import { addCounts, countsPass, emptyCounts, missingReport, playwrightCounts, skippedPass, summaryLine, vitestCounts, type PlaywrightReport, type VitestReport } from "./test-summary.mjs";

type VitestTest = VitestReport["modules"][number]["tests"][number];
const test = (name: string, state: VitestTest["state"], extra: Partial<VitestTest> = {}): VitestTest => ({ name, state, mode: "run", flaky: false, suiteFailed: false, ...extra });

/** What the reporter writes for a run with one of everything (as vitest 4 reported it, checked by hand). */
const VITEST: VitestReport = {
  reason: "failed",
  unhandledErrors: ["Error: ECONNRESET\n    at somewhere"],
  modules: [
    {
      file: "tests/integration/clean.test.ts",
      errors: [],
      suites: [{ name: "clean", errors: [] }],
      tests: [test("clean > a", "passed"), test("clean > b", "passed"), test("clean > retried", "passed", { flaky: true })],
    },
    // Did not import: no test at all, only the file's error.
    { file: "tests/integration/broken-import.test.ts", errors: ["Cannot find module '~/gone'\nRequire stack: …"], suites: [], tests: [] },
    {
      file: "tests/integration/hooks.test.ts",
      errors: [],
      suites: [
        { name: "server", errors: ["server did not start"] },
        { name: "other", errors: [] },
      ],
      // Vitest reports the tests of a suite whose beforeAll threw as skipped.
      tests: [test("server > x", "skipped", { suiteFailed: true }), test("server > y", "skipped", { suiteFailed: true }), test("other > z", "failed")],
    },
    {
      file: "app/domain/skips.test.ts",
      errors: [],
      suites: [{ name: "on PostgreSQL only", errors: [] }],
      tests: [
        test("on PostgreSQL only > p", "skipped", { mode: "skip", byDesign: "runs on the PostgreSQL pass" }),
        test("todo", "skipped", { mode: "todo" }),
        test("skipped at run time", "skipped", { note: "no server" }),
        test("never reached", "pending"),
      ],
    },
  ],
};

describe("vitestCounts", () => {
  it("counts a file that did not import, a suite whose hook threw and an error outside tests as failures", () => {
    const counts = vitestCounts(VITEST, "integration (PGlite)");
    expect(counts).toEqual({
      passed: 2,
      flaky: 1,
      failed: 4,
      skipped: 3,
      byDesign: 1,
      notRun: 3,
      failures: [
        "integration (PGlite): tests/integration/broken-import.test.ts: Cannot find module '~/gone'",
        "integration (PGlite): tests/integration/hooks.test.ts > server: server did not start",
        "integration (PGlite): tests/integration/hooks.test.ts > other > z",
        "integration (PGlite): error outside any test: Error: ECONNRESET",
      ],
      unexpectedSkips: ["integration (PGlite): app/domain/skips.test.ts > todo", "integration (PGlite): app/domain/skips.test.ts > skipped at run time"],
    });
    expect(countsPass(counts)).toBe(false);
  });

  it("a clean run passes, and an interrupted one does not", () => {
    const clean: VitestReport = { reason: "passed", unhandledErrors: [], modules: [VITEST.modules[0]!] };
    expect(countsPass(vitestCounts(clean, "unit"))).toBe(true);
    expect(summaryLine(vitestCounts(clean, "unit"))).toBe("Tests: 2 passed, 1 flaky, 0 failed, 0 skipped (0 by design)");
    const stopped = vitestCounts({ ...clean, reason: "interrupted" }, "unit");
    expect(stopped.failures).toEqual(["unit: the run was interrupted"]);
  });
});

type PlaywrightTest = NonNullable<NonNullable<PlaywrightReport["suites"]>[number]["specs"]>[number]["tests"][number];
const run = (status: PlaywrightTest["status"], expectedStatus = "passed"): PlaywrightTest[] => [{ status, expectedStatus, projectName: "desktop" }];

/** The shape of Playwright 1.65's JSON report, reduced to what is counted. */
const PLAYWRIGHT: PlaywrightReport = {
  suites: [
    {
      title: "catalog.spec.ts",
      file: "catalog.spec.ts",
      specs: [
        { title: "lists", tests: run("expected") },
        { title: "passed on its retry", tests: run("flaky") },
        { title: "fails", tests: run("unexpected") },
        { title: "test.skip", tests: run("skipped", "skipped") },
        { title: "on one database", tests: [{ status: "skipped", expectedStatus: "skipped", projectName: "desktop", annotations: [{ type: "skip", description: "by design: runs on the other server" }] }] },
        { title: "needs a tool", tests: [{ status: "skipped", expectedStatus: "skipped", projectName: "desktop", annotations: [{ type: "skip", description: "no pdftotext" }] }] },
      ],
      suites: [
        {
          title: "serial",
          file: "catalog.spec.ts",
          specs: [
            { title: "first", tests: run("unexpected") },
            // After a failure in a serial group: marked to run, never run.
            { title: "second", tests: run("skipped") },
          ],
        },
      ],
    },
  ],
  errors: [{ message: "Error: item focused with '.only' is not allowed due to the 'forbidOnly' option in 'playwright.config.ts'\n  at …" }],
};

describe("playwrightCounts", () => {
  it("counts retried passes as flaky, tests that never ran apart from skips, and errors outside tests as failures", () => {
    expect(playwrightCounts(PLAYWRIGHT, "e2e")).toEqual({
      passed: 1,
      flaky: 1,
      failed: 3,
      skipped: 3,
      byDesign: 1,
      notRun: 1,
      failures: [
        "e2e: catalog.spec.ts > fails [desktop]",
        "e2e: catalog.spec.ts > serial > first [desktop]",
        "e2e: Error: item focused with '.only' is not allowed due to the 'forbidOnly' option in 'playwright.config.ts'",
      ],
      unexpectedSkips: ["e2e: catalog.spec.ts > test.skip [desktop]", "e2e: catalog.spec.ts > needs a tool [desktop] (no pdftotext)"],
    });
  });
});

describe("the summary line", () => {
  it("adds the runs up, with a missing report as a failure", () => {
    const total = addCounts(vitestCounts(VITEST, "integration"), playwrightCounts(PLAYWRIGHT, "e2e"), missingReport("integration (PostgreSQL)"));
    expect(summaryLine(total)).toBe("Tests: 3 passed, 2 flaky, 8 failed, 6 skipped (2 by design), 4 did not run");
    expect(total.failures.at(-1)).toBe("integration (PostgreSQL): no report (the run did not finish)");
    expect(countsPass(total)).toBe(false);
  });

  it("says 0 failed, and passes, when nothing failed", () => {
    const fine = addCounts({ ...emptyCounts(), passed: 1200, flaky: 2, skipped: 57, byDesign: 57 });
    expect(summaryLine(fine)).toBe("Tests: 1200 passed, 2 flaky, 0 failed, 57 skipped (57 by design)");
    expect(countsPass(fine, { onCi: true })).toBe(true);
  });

  it("counts a pass that could not run as skipped suites, which fail CI but not a run elsewhere", () => {
    const total = addCounts({ ...emptyCounts(), passed: 10, skipped: 2, byDesign: 2 }, skippedPass("integration (PostgreSQL)", 140, "no server"));
    expect(summaryLine(total)).toBe("Tests: 10 passed, 0 flaky, 0 failed, 142 skipped (2 by design)");
    expect(total.unexpectedSkips).toEqual(["integration (PostgreSQL): 140 suites (no server)"]);
    expect(countsPass(total)).toBe(true);
    expect(countsPass(total, { onCi: true })).toBe(false);
  });
});
