import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { type RunningServer, startServer } from "../integration/server-process";
import { specDataDir } from "./fixtures";

/**
 * A server of a spec's own: PGlite in a copy of the run's data directory template, into which
 * `fixtures` (a script of tests/setup/, given the directory) writes what the spec needs before
 * the server starts, so the spec's rows do not touch the shared server's catalogue that other
 * specs count. Call from test.beforeAll; `stop` from test.afterAll.
 */
export async function startFixtureServer(
  prefix: string,
  fixtures: string,
  admin: { email: string; password: string },
): Promise<{ server: RunningServer; stop: () => Promise<void> }> {
  const dataDir = await specDataDir(prefix);
  const prepared = spawnSync(process.execPath, ["--import", "tsx", fixtures, dataDir], { encoding: "utf8" });
  if (prepared.status !== 0) throw new Error(`fixtures failed:\n${prepared.stdout}${prepared.stderr}`);
  const server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: "", ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password });
  return {
    server,
    stop: async () => {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
