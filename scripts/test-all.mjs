#!/usr/bin/env node
// `npm test`: typecheck, lint, build, unit + integration tests on PGlite, the integration
// tests again on PostgreSQL (DATABASE_URL, or a throwaway cluster), then end-to-end tests
// in Chromium against the built server. Ends with one "N passed, N failed" line.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
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

const vitest = (label, project, file, env) =>
  run(label, "npx", ["vitest", "run", ...project.flatMap((p) => ["--project", p]), "--reporter=default", "--reporter=json", `--outputFile.json=${file}`], env);

let failed = false;
const must = (ok) => {
  if (!ok) failed = true;
  return ok;
};

must(run("Typecheck", "npx", ["react-router", "typegen"]) && run("Typecheck (tsc)", "npx", ["tsc", "--noEmit"]));
must(run("Lint", "npx", ["eslint", ".", "--max-warnings=0"]));
const built = must(run("Build", "npx", ["react-router", "build"]));

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
  if (pgUrl) {
    const pgReport = path.join(reports, "vitest-postgres.json");
    must(vitest(`Integration tests (PostgreSQL${cluster ? ", throwaway cluster" : ", DATABASE_URL"})`, ["integration"], pgReport, { TEST_DATABASE_URL: pgUrl }));
    countVitest(pgReport);
  } else {
    console.log("\n━━ SKIPPED: integration and live end-to-end tests on PostgreSQL (no DATABASE_URL and no PostgreSQL binaries in /usr/lib/postgresql/*/bin)");
    steps.push({ label: "Tests on PostgreSQL: skipped, no server", ok: true, seconds: 0 });
  }

  if (built) {
    // The live-update specs run their own server on PostgreSQL (they change rows behind its back).
    const e2e = path.join(reports, "playwright.json");
    must(run("End-to-end tests (Chromium)", "npx", ["playwright", "test"], { PLAYWRIGHT_JSON_OUTPUT_NAME: e2e, E2E_DATABASE_URL: pgUrl ?? "" }));
    countPlaywright(e2e);
  }
} finally {
  cluster?.stop();
}

console.log("\n━━ Summary");
for (const step of steps) console.log(`  ${step.ok ? "ok  " : "FAIL"}  ${step.label} (${step.seconds} s)`);
console.log(`\nTests: ${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ""}`);
process.exit(failed || totals.failed > 0 ? 1 : 0);
