// Starts the built server for end-to-end tests on its own temporary data directory,
// removed when the server stops.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "comptoir-e2e-"));
// The built server, started as `npm start` starts it (scripts/start.mjs).
const server = spawn(process.execPath, ["build/server/main.js"], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, NODE_ENV: "production", MALLOC_ARENA_MAX: "2", HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "warn", DATABASE_URL: "" },
});
const cleanup = () => fs.rmSync(dataDir, { recursive: true, force: true });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => {
  cleanup();
  process.exit(code ?? 0);
});
