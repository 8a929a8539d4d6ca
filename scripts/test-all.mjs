#!/usr/bin/env node
// `npm test`: typecheck, lint, build, unit + integration tests on PGlite, then the integration
// tests again on PostgreSQL (DATABASE_URL, or a throwaway cluster) side by side with the
// end-to-end tests in Chromium against the built server. Ends with one "Tests: N passed, N flaky,
// N failed, N skipped" line (scripts/test-summary.mjs says what each counts). On CI (CI set), no
// PostgreSQL to test on is a failure, not a skip.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startThrowawayCluster } from "./pg-cluster.mjs";
import { addCounts, countsPass, missingReport, playwrightCounts, skippedPass, summaryLine, vitestCounts } from "./test-summary.mjs";

const root = path.resolve(import.meta.dirname, "..");
const reports = path.join(root, ".tmp", "reports");
fs.rmSync(reports, { recursive: true, force: true });
fs.mkdirSync(reports, { recursive: true });

const onCi = Boolean(process.env.CI);
/** Each test run's counts, added up at the end. */
const counted = [];
const steps = [];

function run(label, command, args, env = {}) {
  console.log(`\n━━ ${label}`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  const ok = result.status === 0;
  steps.push({ label, ok, seconds: Math.round((Date.now() - started) / 1000) });
  return ok;
}

/**
 * Runs steps at the same time that each leave a core idle much of the time (tsc, eslint and the
 * build each use about one; the end-to-end tests wait on pages and timers), each one's output
 * held and printed whole once all are done. Returns each one's success.
 */
async function runTogether(list) {
  // Held output is not a terminal: keep the colours when ours is one.
  const base = { ...process.env, ...(process.stdout.isTTY ? { FORCE_COLOR: "1" } : {}) };
  const results = await Promise.all(
    list.map(
      ({ label, command, args, env = {} }) =>
        new Promise((resolve) => {
          const started = Date.now();
          const child = spawn(command, args, { cwd: root, env: { ...base, ...env } });
          let output = "";
          child.stdout.on("data", (chunk) => (output += chunk));
          child.stderr.on("data", (chunk) => (output += chunk));
          child.on("error", (error) => (output += `${error.message}\n`));
          child.on("close", (code) => resolve({ label, ok: code === 0, output, seconds: Math.round((Date.now() - started) / 1000) }));
        }),
    ),
  );
  for (const { label, ok, output, seconds } of results) {
    console.log(`\n━━ ${label}`);
    process.stdout.write(output);
    steps.push({ label, ok, seconds });
  }
  return results.map((result) => result.ok);
}

/** The integration project's test files: the suites a PostgreSQL pass would have run. */
function integrationFiles() {
  return fs.readdirSync("tests/integration", { recursive: true }).filter((file) => String(file).endsWith(".test.ts"));
}

/** Counts a run from its report; a run that left none counts as a failure. */
function count(label, file, counter) {
  counted.push(fs.existsSync(file) ? counter(JSON.parse(fs.readFileSync(file, "utf8")), label) : missingReport(label));
}

// The counts reporter writes to VITEST_COUNTS_FILE (vitest's JSON reporter cannot tell a suite
// whose hook threw from skipped tests).
const vitestArgs = (project) => ["vitest", "run", ...project.flatMap((p) => ["--project", p]), "--reporter=default", "--reporter=./scripts/vitest-counts-reporter.mjs"];
const vitest = (label, project, file, env) => run(label, "npx", vitestArgs(project), { ...env, VITEST_COUNTS_FILE: file });

let failed = false;
const must = (ok) => {
  if (!ok) failed = true;
  return ok;
};

// A test server's data directory as its first start leaves it (migrated, seeded, images drawn),
// made once here for the integration runs and the end-to-end tests, which copy it.
const runDir = fs.mkdtempSync(path.join(os.tmpdir(), "comptoir-npm-test-"));
process.env.TEST_DATA_TEMPLATE = path.join(runDir, "data-dir");
process.on("exit", () => fs.rmSync(runDir, { recursive: true, force: true }));

// tsc needs the route types first; then tsc, lint and build run side by side, and the template.
must(run("Typecheck", "npx", ["react-router", "typegen"]));
const [typed, linted, built, templated] = await runTogether([
  { label: "Typecheck (tsc)", command: "npx", args: ["tsc", "--noEmit", ...(process.stdout.isTTY ? ["--pretty"] : [])] },
  { label: "Lint", command: "npx", args: ["eslint", ".", "--max-warnings=0"] },
  { label: "Build", command: "npx", args: ["react-router", "build"] },
  { label: "Test data directory template", command: process.execPath, args: ["--import", "tsx", "tests/setup/data-dir-template.ts", process.env.TEST_DATA_TEMPLATE] },
]);
must(typed);
must(linted);
must(built);
must(templated);

const pglite = path.join(reports, "vitest-pglite.json");
must(vitest("Unit + integration tests (PGlite)", ["unit", "integration"], pglite, { TEST_DATABASE_URL: "" }));
count("unit + integration (PGlite)", pglite, vitestCounts);

let cluster = null;
let clusterFailed = false;
let pgUrl = process.env.DATABASE_URL || null;
if (!pgUrl) {
  try {
    cluster = await startThrowawayCluster();
    pgUrl = cluster?.url ?? null;
  } catch (error) {
    console.error(`\n━━ FAILED: could not start a throwaway PostgreSQL cluster: ${error.stderr?.toString() || error.message}`);
    steps.push({ label: "PostgreSQL cluster: could not start", ok: false, seconds: 0 });
    clusterFailed = true;
    failed = true;
  }
}
try {
  const together = [];
  const pgReport = path.join(reports, "vitest-postgres.json");
  if (pgUrl) {
    // One worker: it shares the two cores with the end-to-end tests.
    together.push({
      label: `Integration tests (PostgreSQL${cluster ? ", throwaway cluster" : ", DATABASE_URL"})`,
      command: "npx",
      args: vitestArgs(["integration"]),
      env: { TEST_DATABASE_URL: pgUrl, INTEGRATION_WORKERS: "1", VITEST_COUNTS_FILE: pgReport },
    });
  } else if (!clusterFailed) {
    // No binaries: a machine without PostgreSQL may skip it, CI may not.
    const why = "no DATABASE_URL and no PostgreSQL binaries in /usr/lib/postgresql/{15,16,17}/bin";
    if (onCi) {
      console.error(`\n━━ FAILED: integration and live end-to-end tests on PostgreSQL cannot run on CI: ${why}`);
      steps.push({ label: "Tests on PostgreSQL: no server (required on CI)", ok: false, seconds: 0 });
      failed = true;
    } else {
      console.log(`\n━━ SKIPPED: integration and live end-to-end tests on PostgreSQL (${why}; required on CI)`);
      steps.push({ label: "Tests on PostgreSQL: SKIPPED, no server", ok: true, seconds: 0 });
      counted.push(skippedPass("integration (PostgreSQL)", integrationFiles().length, "no PostgreSQL server"));
    }
  }
  const e2e = path.join(reports, "playwright.json");
  if (built) {
    // The live-update specs run their own server on PostgreSQL (they change rows behind its back).
    together.push({ label: "End-to-end tests (Chromium)", command: "npx", args: ["playwright", "test"], env: { PLAYWRIGHT_JSON_OUTPUT_NAME: e2e, E2E_DATABASE_URL: pgUrl ?? "" } });
  }
  for (const ok of await runTogether(together)) must(ok);
  if (pgUrl) count("integration (PostgreSQL)", pgReport, vitestCounts);
  if (built) count("end-to-end", e2e, playwrightCounts);
} finally {
  cluster?.stop();
}

const total = addCounts(...counted);
console.log("\n━━ Summary");
for (const step of steps) console.log(`  ${step.ok ? "ok  " : "FAIL"}  ${step.label} (${step.seconds} s)`);
if (total.failures.length) {
  console.log("\nFailed:");
  for (const failure of total.failures.slice(0, 40)) console.log(`  ${failure}`);
  if (total.failures.length > 40) console.log(`  … and ${total.failures.length - 40} more`);
}
if (total.unexpectedSkips.length) {
  console.log(`\nSkipped, not by design${onCi ? " (a failure on CI)" : ""}:`);
  for (const skip of total.unexpectedSkips.slice(0, 40)) console.log(`  ${skip}`);
  if (total.unexpectedSkips.length > 40) console.log(`  … and ${total.unexpectedSkips.length - 40} more`);
}
console.log(`\n${summaryLine(total)}`);
process.exit(failed || !countsPass(total, { onCi }) ? 1 : 0);
