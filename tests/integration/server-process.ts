import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

/** Builds once if the build is missing (npm test builds before this runs). */
export function ensureBuild() {
  if (["build/server/index.js", "build/server/main.js"].every((file) => fs.existsSync(path.join(root, file)))) return;
  const result = spawnSync("npx", ["react-router", "build"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) throw new Error("build failed");
}

export type RunningServer = { url: string; output: () => string; stop: () => Promise<number | null>; child: ChildProcess };

/** Starts the built server the way `npm start` does, on a free port, and waits until it listens (its url: PUBLIC_URL when set). */
/** A first start migrates and seeds: about 10 s here, over 60 s beside a loaded CI's other runs. A hang guard. */
const START_TIMEOUT_MS = 150_000;

export function startServer(env: Record<string, string>): Promise<RunningServer> {
  const child = spawn(process.execPath, ["build/server/main.js"], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production", MALLOC_ARENA_MAX: "2", PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "warn", SHUTDOWN_DRAIN_SECONDS: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    // A server that did not start in time is stopped: it would go on writing in a data
    // directory the suite is removing.
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`server did not start:\n${output}`));
    }, START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /est en ligne : (https?:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({
          url: match[1]!,
          output: () => output,
          child,
          stop: async () => {
            child.kill("SIGTERM");
            return exited;
          },
        });
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`server exited with ${code}:\n${output}`), { code, output }));
    });
  });
}

/** Runs the server expecting it to refuse to start; returns its exit code and output. */
export function runServerExpectingFailure(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return startServer(env).then(
    async (server) => {
      await server.stop();
      throw new Error(`server started but should not have:\n${server.output()}`);
    },
    (error: { code?: number | null; output?: string; message: string }) => {
      if (error.output === undefined) throw error;
      return { code: error.code ?? null, output: error.output };
    },
  );
}

/**
 * A data directory for one suite: named now, made when the suite starts, removed when it ends.
 * A suite skipped on PostgreSQL runs neither hook, so it leaves nothing behind in /tmp.
 */
export function suiteDataDir(prefix: string): string {
  const dir = path.join(os.tmpdir(), `${prefix}${randomUUID().slice(0, 8)}`);
  beforeAll(() => fs.mkdirSync(dir, { recursive: true }));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}
