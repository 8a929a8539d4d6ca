// Starts the built server for end-to-end tests on its own temporary data directory,
// removed when the server stops. It first makes the run's data directory template
// (E2E_DATA_TEMPLATE, see tests/setup/data-dir-template.ts), which the specs' own servers copy
// too, and starts on a copy of it; the template goes when the server stops.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "comptoir-e2e-"));
const template = process.env.E2E_DATA_TEMPLATE;
// `npm test` makes one template for all its test runs (TEST_DATA_TEMPLATE) and removes it itself.
const shared = Boolean(template) && template === process.env.TEST_DATA_TEMPLATE;
if (template) {
  if (!shared) fs.rmSync(template, { recursive: true, force: true });
  if (!fs.existsSync(template)) {
    const made = spawnSync(process.execPath, ["--import", "tsx", "tests/setup/data-dir-template.ts", template], { cwd: root, stdio: "inherit" });
    if (made.status !== 0) process.exit(made.status ?? 1);
  }
  fs.cpSync(template, dataDir, { recursive: true });
}
// The built server, started as `npm start` starts it (scripts/start.mjs).
const server = spawn(process.execPath, ["build/server/main.js"], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, NODE_ENV: "production", MALLOC_ARENA_MAX: "2", HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "warn", DATABASE_URL: "" },
});
// The admins' TOTP secrets the specs enrolled on this run's servers (tests/e2e/fixtures.ts).
const secrets = template ? `${template}.totp` : null;
if (secrets) fs.rmSync(secrets, { recursive: true, force: true });
const cleanup = () => {
  for (const dir of [dataDir, shared ? null : template, secrets]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
};
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => {
  cleanup();
  process.exit(code ?? 0);
});
