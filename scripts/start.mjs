#!/usr/bin/env node
// `npm start`: build when the build is missing or older than the sources, then serve.
// Migrations and the first-start seed run inside the server (server/main.ts, built into
// build/server/main.js with the rest: docs/decisions/006-built-server-and-memory.md).
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const stamps = [path.join(root, "build", "server", "index.js"), path.join(root, "build", "server", "main.js")];
const sources = ["app", "server", "public", "vite.config.ts", "react-router.config.ts", "package-lock.json"];

function newestMtime(entry) {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(full)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

const builtAt = Math.min(...stamps.map((stamp) => (fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0)));
if (builtAt === 0 || sources.some((s) => newestMtime(s) > builtAt)) {
  console.log(builtAt === 0 ? "Construction de l'application..." : "Sources modifiées : reconstruction...");
  const build = spawnSync("npx", ["react-router", "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const server = spawn(process.execPath, ["build/server/main.js"], {
  cwd: root,
  stdio: "inherit",
  // Two glibc malloc arenas instead of 8 per core: sharp's image threads otherwise leave
  // over 100 MB of fragmented memory behind them (docs/performance.md).
  env: { NODE_ENV: "production", MALLOC_ARENA_MAX: "2", ...process.env },
});
// The server shuts down gracefully on these; pass them on rather than dying first.
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
