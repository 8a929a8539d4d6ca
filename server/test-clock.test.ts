import http, { type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { installTestClock, withTestClockRoute } from "./test-clock";

const RealDate = Date;
const HOUR = 3_600_000;

describe("the test clock", () => {
  afterEach(() => {
    globalThis.Date = RealDate;
  });

  it("moves Date.now and new Date() forward, leaves dates given as they are, and keeps real Dates", () => {
    const clock = installTestClock();
    const before = RealDate.now();
    const moved = clock.advance(HOUR);
    expect(moved - before).toBeGreaterThanOrEqual(HOUR);
    expect(Date.now() - RealDate.now()).toBeGreaterThanOrEqual(HOUR - 5);
    expect(new Date().getTime() - RealDate.now()).toBeGreaterThanOrEqual(HOUR - 5);
    expect(new Date("2026-11-28T12:00:00Z").toISOString()).toBe("2026-11-28T12:00:00.000Z");
    expect(new Date(0).getTime()).toBe(0);
    expect(new Date()).toBeInstanceOf(RealDate);
    expect(new RealDate()).toBeInstanceOf(Date);
    expect(typeof (Date as unknown as () => string)()).toBe("string");
    expect(Date.parse("2026-11-28T12:00:00Z")).toBe(RealDate.parse("2026-11-28T12:00:00Z"));
  });
});

describe("POST /__test/clock", () => {
  afterEach(() => {
    globalThis.Date = RealDate;
  });

  async function serve(listener: RequestListener) {
    const server = http.createServer(listener);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { base, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  }
  const app: RequestListener = (_req, res) => {
    res.writeHead(404);
    res.end("la boutique");
  };

  it("moves the clock with the token, then says so; anything else reaches the shop", async () => {
    const clock = installTestClock();
    let moves = 0;
    const { base, close } = await serve(withTestClockRoute(app, "jeton-de-seize-caracteres", clock, () => moves++));
    try {
      const post = (body: string, token = "jeton-de-seize-caracteres") =>
        fetch(`${base}/__test/clock`, { method: "POST", headers: { "X-Test-Clock": token, "Content-Type": "application/json" }, body });
      const answer = await post(JSON.stringify({ advanceMs: 10 * 60_000 }));
      expect(answer.status).toBe(200);
      const { now } = (await answer.json()) as { now: number };
      expect(now - RealDate.now()).toBeGreaterThanOrEqual(10 * 60_000 - 1_000);
      expect(moves).toBe(1);
      // Never back, nothing but whole milliseconds, a year at most.
      for (const body of [JSON.stringify({ advanceMs: -1 }), JSON.stringify({ advanceMs: 1.5 }), JSON.stringify({ advanceMs: 400 * 24 * HOUR }), "pas du JSON"]) {
        expect((await post(body)).status).toBe(400);
      }
      // A wrong token, or another method: the shop answers (its 404), the clock stays.
      expect(await (await post(JSON.stringify({ advanceMs: HOUR }), "mauvais-jeton-de-seize")).text()).toBe("la boutique");
      expect(await (await fetch(`${base}/__test/clock`, { headers: { "X-Test-Clock": "jeton-de-seize-caracteres" } })).text()).toBe("la boutique");
      expect(moves).toBe(1);
      expect(Date.now() - RealDate.now()).toBeLessThan(11 * 60_000);
    } finally {
      await close();
    }
  });
});
