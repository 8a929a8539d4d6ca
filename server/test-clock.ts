import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";

/**
 * A clock the end-to-end tests move forward on the server under test (TEST_CLOCK, refused by
 * app/lib/env.server.ts on a public address or with real payments): a drop scheduled an hour
 * ahead opens when the test says so, instead of the test waiting for it in real time and
 * racing its own setup on a loaded machine.
 *
 * The whole process reads the moved time: `Date.now()` and `new Date()` are shifted, once the
 * clock is installed, first thing at start. Timers still wait real milliseconds, so whoever
 * planned one from the time (the drop sweeper, the site content timer) is told to plan again,
 * and the open pages get the new time for their countdowns.
 */
export type TestClock = { advance(ms: number): number };

const RealDate = Date;

export function installTestClock(): TestClock {
  let offsetMs = 0;
  const now = () => RealDate.now() + offsetMs;
  // A Proxy rather than a subclass: `Date()` called without `new` keeps working, and every
  // date made is a real Date (instanceof, structuredClone, the database drivers).
  globalThis.Date = new Proxy(RealDate, {
    construct(target, args, newTarget) {
      return Reflect.construct(target, args.length === 0 ? [now()] : args, newTarget);
    },
    apply() {
      return new RealDate(now()).toString();
    },
    get(target, key, receiver) {
      if (key === "now") return now;
      return Reflect.get(target, key, receiver);
    },
  });
  return {
    advance(ms) {
      offsetMs += ms;
      return now();
    },
  };
}

const MAX_ADVANCE_MS = 366 * 24 * 60 * 60 * 1000;

/**
 * The app, with POST /__test/clock in front of it (before any of its guards): the token in
 * `X-Test-Clock` and `{"advanceMs": n}` move the clock forward (never back: what was written
 * stays in the past), then `moved` re-plans what waits. Anything else goes to the app.
 */
export function withTestClockRoute(app: RequestListener, token: string, clock: TestClock, moved: () => void): RequestListener {
  const expected = Buffer.from(token);
  const answer = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" });
    res.end(JSON.stringify(body));
  };
  return (req: IncomingMessage, res: ServerResponse) => {
    if (req.url !== "/__test/clock") return app(req, res);
    const given = Buffer.from(String(req.headers["x-test-clock"] ?? ""));
    if (req.method !== "POST" || given.length !== expected.length || !timingSafeEqual(given, expected)) return app(req, res);
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body = (body + chunk).slice(0, 1_000)));
    req.on("end", () => {
      let advanceMs: unknown;
      try {
        advanceMs = (JSON.parse(body) as { advanceMs?: unknown }).advanceMs;
      } catch {
        advanceMs = undefined;
      }
      if (typeof advanceMs !== "number" || !Number.isInteger(advanceMs) || advanceMs < 0 || advanceMs > MAX_ADVANCE_MS) {
        return answer(res, 400, { error: "advanceMs : un nombre entier de millisecondes, positif, d'un an au plus." });
      }
      const now = clock.advance(advanceMs);
      moved();
      answer(res, 200, { now });
    });
  };
}
