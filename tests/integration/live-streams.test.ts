import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuild, type RunningServer, startServer } from "./server-process";
import { databaseLabel, onPostgresPass, suiteServerDataDir, suiteServerDatabase } from "./test-database";
import { runsOn } from "../support/by-design";

/**
 * /api/live on the built server: a global cap on open streams (LIVE_MAX_STREAMS) besides the
 * per-address one, and a lifetime (LIVE_STREAM_LIFETIME_SECONDS) after which the server ends a
 * stream with a `retry:` hint, and a client that follows the SSE rules comes back by itself.
 */

const MAX_STREAMS = 50;
const LIFETIME_SECONDS = 3;

/** A stream asked for on its own socket: its status, then its text as it comes. */
function openStream(url: string) {
  return new Promise<{ status: number; response: http.IncomingMessage; request: http.ClientRequest }>((resolve, reject) => {
    const request = http.get(`${url}/api/live`, { agent: false, headers: { accept: "text/event-stream" } }, (response) => resolve({ status: response.statusCode!, response, request }));
    request.on("error", reject);
  });
}

type Frame = { event: string; data: string; at: number };

/**
 * What an EventSource does, reduced to what is tested: reads a stream's frames, and when the
 * server ends it, waits the last `retry:` it was given and connects again.
 */
async function followStream(url: string, streams: number) {
  const log: { frames: Frame[]; endedAt: number; retryMs: number }[] = [];
  let retryMs = 3_000; // the spec's default, before any hint
  for (let index = 0; index < streams; index++) {
    if (index > 0) await new Promise((resolve) => setTimeout(resolve, retryMs));
    const { status, response } = await openStream(url);
    expect(status).toBe(200);
    const frames: Frame[] = [];
    let buffer = "";
    response.setEncoding("utf8");
    await new Promise<void>((resolve, reject) => {
      response.on("data", (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const fields = Object.fromEntries(block.split("\n").filter((line) => !line.startsWith(":")).map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 1).trim()]));
          if (fields.retry !== undefined) retryMs = Number(fields.retry);
          if (fields.data !== undefined) frames.push({ event: fields.event ?? "message", data: fields.data, at: Date.now() });
        }
      });
      response.on("end", resolve);
      response.on("error", reject);
    });
    log.push({ frames, endedAt: Date.now(), retryMs });
  }
  return log;
}

describe.skipIf(onPostgresPass)(`live-update streams on the built server on ${databaseLabel}`, runsOn("PGlite"), () => {
  const dataDir = suiteServerDataDir("comptoir-live-streams-");
  const database = suiteServerDatabase("comptoir_live_streams");
  let server: RunningServer;

  beforeAll(async () => {
    ensureBuild();
    server = await startServer({ DATA_DIR: dataDir, ...database, LIVE_MAX_STREAMS: String(MAX_STREAMS), LIVE_STREAM_LIFETIME_SECONDS: String(LIFETIME_SECONDS) });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it(`holds at most ${MAX_STREAMS} streams open in all: 80 asked at once, the rest get a 503 with Retry-After`, async () => {
    const streams = await Promise.all(Array.from({ length: 80 }, () => openStream(server.url)));
    try {
      const statuses = streams.map((stream) => stream.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(MAX_STREAMS);
      const refused = streams.filter((stream) => stream.status === 503);
      expect(refused).toHaveLength(80 - MAX_STREAMS);
      expect(refused[0]!.response.headers["retry-after"]).toBe("60");
    } finally {
      for (const stream of streams) stream.request.destroy();
    }
    // The closed streams are counted out: a new one is taken again.
    await expect.poll(async () => {
      const stream = await openStream(server.url);
      stream.request.destroy();
      return stream.status;
    }).toBe(200);
  });

  it("ends a stream at its lifetime with a retry hint, and the client reconnects to a new stream", async () => {
    const openedAt = Date.now();
    const [first, second] = await followStream(server.url, 2);
    const lived = first!.endedAt - openedAt;
    expect(lived).toBeGreaterThanOrEqual(LIFETIME_SECONDS * 900 - 100);
    // Ended by its lifetime, not by the test's timeout: a ceiling far above it, which a loaded
    // machine's delays cannot reach (the lower bound is the precise one).
    expect(lived).toBeLessThan(LIFETIME_SECONDS * 1_000 + 20_000);
    expect(first!.frames.map((frame) => frame.event)).toEqual(["clock", "bye"]);
    expect(first!.retryMs).toBeGreaterThanOrEqual(1_000);
    expect(first!.retryMs).toBeLessThanOrEqual(5_000);
    // The new stream starts with the server's clock, as the first did, and ends in turn.
    expect(second!.frames[0]!.event).toBe("clock");
    expect(second!.frames[0]!.at - first!.endedAt).toBeGreaterThanOrEqual(first!.retryMs - 50);
  }, 30_000);
});
