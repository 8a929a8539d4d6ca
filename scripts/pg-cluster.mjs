// A throwaway PostgreSQL cluster for tests: initdb + pg_ctl on a free loopback port, in a
// temporary directory, run as the postgres user when we are root (initdb refuses root).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const BIN_DIRS = ["/usr/lib/postgresql/15/bin", "/usr/lib/postgresql/16/bin", "/usr/lib/postgresql/17/bin"];

export function findPostgresBin() {
  return BIN_DIRS.find((dir) => fs.existsSync(path.join(dir, "initdb")) && fs.existsSync(path.join(dir, "pg_ctl"))) ?? null;
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export async function startThrowawayCluster() {
  const bin = findPostgresBin();
  if (!bin) return null;
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "comptoir-pg-"));
  const dataDir = path.join(dir, "data");
  const port = await freePort();
  const run = (tool, args) => {
    const command = asRoot ? "runuser" : path.join(bin, tool);
    const fullArgs = asRoot ? ["-u", "postgres", "--", path.join(bin, tool), ...args] : args;
    return execFileSync(command, fullArgs, { stdio: ["ignore", "pipe", "pipe"], cwd: dir });
  };
  if (asRoot) {
    fs.chmodSync(dir, 0o755);
    execFileSync("chown", ["-R", "postgres:postgres", dir]);
  }
  run("initdb", ["-D", dataDir, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8", "--locale=C.UTF-8"]);
  run("pg_ctl", [
    "-D", dataDir, "-l", path.join(dir, "server.log"), "-w", "-t", "60",
    "-o", `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200${process.env.BENCH_PG_STATS ? " -c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=all" : ""}`,
    "start",
  ]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    /** Its data directory (postmaster.pid names the server's process). */
    dataDir,
    stop() {
      try {
        run("pg_ctl", ["-D", dataDir, "-m", "immediate", "-w", "stop"]);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
