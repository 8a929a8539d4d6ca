import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

export const LOCAL_S3_BUCKET = "comptoir-test";
export const LOCAL_S3_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

export type LocalS3 = { endpoint: string; stop: () => Promise<void> };

/**
 * s3rver (a dev dependency) plays S3 on a free loopback port, in a temporary folder. It runs
 * in a node process of its own: its ListObjectsV2 continuation tokens use DES, which OpenSSL 3
 * offers only through the legacy provider. It prints its port, and exits when our stdin closes
 * (so it never outlives the test run).
 */
const SERVER_SCRIPT = `
  const S3rver = require("s3rver");
  const { S3_DIR: directory, S3_BUCKET: name } = process.env;
  process.stdin.on("end", () => process.exit(0)).resume();
  new S3rver({ address: "127.0.0.1", port: 0, directory, silent: true, configureBuckets: [{ name, configs: [] }] })
    .run()
    .then(({ port }) => console.log(port), (error) => { console.error(error.message); process.exit(1); });
`;

/**
 * The local S3 server, or why it could not start (the caller skips its tests and says so). On CI
 * (CI set) it must start: there it throws instead, and the test file fails.
 */
export async function startLocalS3(): Promise<LocalS3 | { skipped: string }> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), "comptoir-s3-"));
  const child = spawn(process.execPath, ["--openssl-legacy-provider", "-e", SERVER_SCRIPT], {
    cwd: process.cwd(),
    env: { ...process.env, S3_DIR: directory, S3_BUCKET: LOCAL_S3_BUCKET },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const fail = (error: Error) => {
        clearTimeout(timer);
        reject(error);
      };
      const timer = setTimeout(() => fail(new Error("no answer within 10 s")), 10_000);
      child.stdout.once("data", (chunk: Buffer) => {
        clearTimeout(timer);
        resolve(Number(chunk.toString().trim()));
      });
      child.once("error", fail);
      child.once("exit", (code) => {
        const lines = stderr.trim().split("\n");
        fail(new Error(`exited with code ${code}: ${lines.find((line) => /error/i.test(line)) ?? lines[0]}`));
      });
    });
    return { endpoint: `http://127.0.0.1:${port}`, stop: () => stop(child, directory) };
  } catch (error) {
    child.kill();
    await fs.rm(directory, { recursive: true, force: true });
    const why = error instanceof Error ? error.message : String(error);
    if (process.env.CI) throw new Error(`the local S3 server (s3rver) could not start, and CI does not skip its tests: ${why}`);
    return { skipped: why };
  }
}

async function stop(child: ChildProcess, directory: string) {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.stdin!.end();
  await exited;
  await fs.rm(directory, { recursive: true, force: true });
}
