#!/usr/bin/env node
// `npm start`: build when the build is missing or older than the sources, then serve.
// Migrations and the first-start seed run inside the server (server/main.ts, built into
// build/server/main.js with the rest: docs/decisions/006-built-server-and-memory.md).
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { buildState } from "./build-state.mjs";

const root = path.resolve(import.meta.dirname, "..");
const state = buildState();
if (state !== "fresh") {
  console.log(state === "missing" ? "Construction de l'application..." : "Sources modifiées : reconstruction...");
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
