// The counts behind `npm test`'s last line (scripts/test-all.mjs), read from each run's report:
// vitest's through scripts/vitest-counts-reporter.mjs, Playwright's JSON reporter's. Pure
// functions, tested in scripts/test-summary.test.ts.
//
// Nothing that went wrong may pass for a pass or a skip: a file that did not import, a suite
// whose hook threw and an error outside any test each count as one failure (vitest reports the
// tests of a suite whose beforeAll threw as skipped, a file that did not import as no test at
// all); a test that only passed when run again counts as flaky, not passed; a test that never
// ran because of a failure before it counts as "did not run", not skipped; a run that left no
// report counts as a failure.
//
// A skip is either by design (the test says why it never runs in this pass: the other database
// pass has it, tests/support/by-design.ts, or a Playwright skip described "by design: …") or
// unexpected (a tool or server missing here): those are named, and fail a run on CI. A pass that
// could not run at all (no PostgreSQL) counts its suites as unexpected skips.

/** @returns {import("./test-summary.d.mts").Counts} */
export function emptyCounts() {
  return { passed: 0, flaky: 0, failed: 0, skipped: 0, byDesign: 0, notRun: 0, failures: [], unexpectedSkips: [] };
}

/** Adds counts up (a new object). */
export function addCounts(...list) {
  const total = emptyCounts();
  for (const counts of list) {
    for (const key of ["passed", "flaky", "failed", "skipped", "byDesign", "notRun"]) total[key] += counts[key];
    total.failures.push(...counts.failures);
    total.unexpectedSkips.push(...counts.unexpectedSkips);
  }
  return total;
}

/** A pass that could not run here (`suites` test files), each counted as one unexpected skip. */
export function skippedPass(label, suites, why) {
  return { ...emptyCounts(), skipped: suites, unexpectedSkips: [`${label}: ${suites} suites (${why})`] };
}

/** Counts one skip, by design or named as unexpected. */
function countSkip(counts, name, byDesign) {
  counts.skipped += 1;
  if (byDesign) counts.byDesign += 1;
  else counts.unexpectedSkips.push(name);
}

/** A run that should have written a report and did not (it crashed, or never started). */
export function missingReport(label) {
  return { ...emptyCounts(), failed: 1, failures: [`${label}: no report (the run did not finish)`] };
}

const firstLine = (message) => String(message ?? "").trim().split("\n")[0] || "(no message)";

/**
 * Counts of a vitest run, from what scripts/vitest-counts-reporter.mjs wrote: each module with
 * its own errors, its suites with theirs, its tests with their state.
 * @param {import("./test-summary.d.mts").VitestReport} report
 */
export function vitestCounts(report, label) {
  const counts = emptyCounts();
  const fail = (what) => {
    counts.failed += 1;
    counts.failures.push(`${label}: ${what}`);
  };
  for (const module of report.modules) {
    // A file that did not import, found no test, or whose top-level hook threw.
    for (const error of module.errors) fail(`${module.file}: ${firstLine(error)}`);
    for (const suite of module.suites) for (const error of suite.errors) fail(`${module.file} > ${suite.name}: ${firstLine(error)}`);
    for (const test of module.tests) {
      if (test.state === "failed") fail(`${module.file} > ${test.name}`);
      else if (test.state === "passed") counts[test.flaky ? "flaky" : "passed"] += 1;
      else if (test.state === "skipped") {
        // Skipped by the test itself (skip, skipIf, todo, ctx.skip) or because its suite failed first.
        if (test.mode === "run" && test.note === undefined && test.suiteFailed) counts.notRun += 1;
        else countSkip(counts, `${label}: ${module.file} > ${test.name}`, Boolean(test.byDesign));
      } else counts.notRun += 1; // pending or queued: the run stopped before it
    }
  }
  for (const error of report.unhandledErrors) fail(`error outside any test: ${firstLine(error)}`);
  if (report.reason === "interrupted") fail("the run was interrupted");
  return counts;
}

/**
 * Counts of a Playwright run, from its JSON reporter's report. Each test once, whatever its
 * retries: a pass at the first try is passed, a pass on a retry flaky.
 */
export function playwrightCounts(report, label) {
  const counts = emptyCounts();
  const count = (test, name) => {
    if (test.status === "expected") counts.passed += 1;
    else if (test.status === "flaky") counts.flaky += 1;
    else if (test.status === "unexpected") {
      counts.failed += 1;
      counts.failures.push(`${label}: ${name}`);
    } else if (test.expectedStatus === "skipped") {
      const why = (test.annotations ?? []).find((annotation) => annotation.type === "skip")?.description ?? "";
      countSkip(counts, `${label}: ${name}${why ? ` (${why})` : ""}`, why.startsWith("by design:"));
    }
    // Meant to run, and never finished a run: interrupted, or after a failure in a serial file.
    else counts.notRun += 1;
  };
  const visit = (suite, file, path) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) count(test, `${file} > ${[...path, spec.title].join(" > ")}${test.projectName ? ` [${test.projectName}]` : ""}`);
    }
    for (const child of suite.suites ?? []) visit(child, file, [...path, child.title]);
  };
  // The top suites are the files (their title is the file's name).
  for (const file of report.suites ?? []) visit(file, file.file, []);
  // Errors outside any test: a spec file that did not load, a test.only with forbidOnly, the web server.
  for (const error of report.errors ?? []) {
    counts.failed += 1;
    counts.failures.push(`${label}: ${firstLine(error.message ?? error.value)}`);
  }
  return counts;
}

/** The last line of `npm test`. */
export function summaryLine(counts) {
  const parts = [`${counts.passed} passed`, `${counts.flaky} flaky`, `${counts.failed} failed`, `${counts.skipped} skipped (${counts.byDesign} by design)`];
  if (counts.notRun) parts.push(`${counts.notRun} did not run`);
  return `Tests: ${parts.join(", ")}`;
}

/** Whether the counts allow the run to pass: nothing failed, nothing left unrun, and on CI nothing skipped but by design. */
export function countsPass(counts, { onCi = false } = {}) {
  return counts.failed === 0 && counts.notRun === 0 && !(onCi && counts.unexpectedSkips.length > 0);
}
