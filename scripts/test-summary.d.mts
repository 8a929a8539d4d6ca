// Types of scripts/test-summary.mjs for its test (scripts/test-summary.test.ts).
export type Counts = {
  passed: number;
  flaky: number;
  failed: number;
  skipped: number;
  /** Of the skipped: those whose test says why it never runs in this pass (tests/support/by-design.ts). */
  byDesign: number;
  notRun: number;
  failures: string[];
  /** The other skips, named: a part that did not run here (a missing tool, no PostgreSQL). */
  unexpectedSkips: string[];
};

/** What scripts/vitest-counts-reporter.mjs writes. */
export type VitestReport = {
  reason: "passed" | "failed" | "interrupted";
  unhandledErrors: string[];
  modules: {
    file: string;
    errors: string[];
    suites: { name: string; errors: string[] }[];
    tests: { name: string; state: "passed" | "failed" | "skipped" | "pending"; mode: "run" | "only" | "skip" | "todo"; note?: string; flaky: boolean; suiteFailed: boolean; byDesign?: string }[];
  }[];
};

/** The part of Playwright's JSON report that is counted. */
export type PlaywrightSuite = {
  title: string;
  file: string;
  specs?: { title: string; file?: string; tests: { status: "expected" | "unexpected" | "flaky" | "skipped"; expectedStatus: string; projectName?: string; annotations?: { type: string; description?: string }[] }[] }[];
  suites?: PlaywrightSuite[];
};
export type PlaywrightReport = { suites?: PlaywrightSuite[]; errors?: { message?: string; value?: string }[] };

export function emptyCounts(): Counts;
export function addCounts(...list: Counts[]): Counts;
export function missingReport(label: string): Counts;
export function vitestCounts(report: VitestReport, label: string): Counts;
export function playwrightCounts(report: PlaywrightReport, label: string): Counts;
export function skippedPass(label: string, suites: number, why: string): Counts;
export function summaryLine(counts: Counts): string;
export function countsPass(counts: Counts, options?: { onCi?: boolean }): boolean;
