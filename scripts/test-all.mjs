#!/usr/bin/env node
// `npm test`: typecheck, lint, build, unit + integration tests on PGlite, then the integration
// tests again on PostgreSQL (DATABASE_URL, or a throwaway cluster) side by side with the
// end-to-end tests in Chromium against the built server. Ends with one "N passed, N failed" line.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startThrowawayCluster } from "./pg-cluster.mjs";

const root = path.resolve(import.meta.dirname, "..");
const reports = path.join(root, ".tmp", "reports");
fs.rmSync(reports, { recursive: true, force: true });
fs.mkdirSync(reports, { recursive: true });

const totals = { passed: 0, failed: 0, skipped: 0 };
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

function countVitest(file) {
  if (!fs.existsSync(file)) return;
  const report = JSON.parse(fs.readFileSync(file, "utf8"));
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  totals.skipped += report.numPendingTests + (report.numTodoTests ?? 0);
}

function countPlaywright(file) {
  if (!fs.existsSync(file)) return;
  const { stats } = JSON.parse(fs.readFileSync(file, "utf8"));
  totals.passed += stats.expected + stats.flaky;
  totals.failed += stats.unexpected;
  totals.skipped += stats.skipped;
}

const vitestArgs = (project, file) => ["vitest", "run", ...project.flatMap((p) => ["--project", p]), "--reporter=default", "--reporter=json", `--outputFile.json=${file}`];
const vitest = (label, project, file, env) => run(label, "npx", vitestArgs(project, file), env);

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
countVitest(pglite);

let cluster = null;
let pgUrl = process.env.DATABASE_URL || null;
if (!pgUrl) {
  try {
    cluster = await startThrowawayCluster();
    pgUrl = cluster?.url ?? null;
  } catch (error) {
    console.error(`Could not start a throwaway PostgreSQL cluster: ${error.stderr?.toString() || error.message}`);
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
      args: vitestArgs(["integration"], pgReport),
      env: { TEST_DATABASE_URL: pgUrl, INTEGRATION_WORKERS: "1" },
    });
  } else {
    console.log("\n━━ SKIPPED: integration and live end-to-end tests on PostgreSQL (no DATABASE_URL and no PostgreSQL binaries in /usr/lib/postgresql/*/bin)");
    steps.push({ label: "Tests on PostgreSQL: skipped, no server", ok: true, seconds: 0 });
  }
  const e2e = path.join(reports, "playwright.json");
  if (built) {
    // The live-update specs run their own server on PostgreSQL (they change rows behind its back).
    together.push({ label: "End-to-end tests (Chromium)", command: "npx", args: ["playwright", "test"], env: { PLAYWRIGHT_JSON_OUTPUT_NAME: e2e, E2E_DATABASE_URL: pgUrl ?? "" } });
  }
  for (const ok of await runTogether(together)) must(ok);
  if (pgUrl) countVitest(pgReport);
  if (built) countPlaywright(e2e);
} finally {
  cluster?.stop();
}

console.log("\n━━ Summary");
for (const step of steps) console.log(`  ${step.ok ? "ok  " : "FAIL"}  ${step.label} (${step.seconds} s)`);
console.log(`\nTests: ${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ""}`);
process.exit(failed || totals.failed > 0 ? 1 : 0);
