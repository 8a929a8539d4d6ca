import { EventEmitter } from "node:events";
import type { Request, Response } from "express";
import pino from "pino";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LiveHub } from "./live";

/** An open page: what the hub wrote to its stream, frame by frame. */
function openPage(hub: LiveHub) {
  const writes: string[] = [];
  const req = new EventEmitter() as unknown as Request;
  const res = { writeHead: () => res, write: (chunk: string) => writes.push(chunk), end: () => {} } as unknown as Response;
  hub.handler(req, res);
  writes.length = 0; // the retry line and the clock
  return { writes, leave: () => (req as unknown as EventEmitter).emit("close") };
}

describe("LiveHub.broadcast", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const hub = () => new LiveHub(pino({ level: "silent" }), { batchMs: 100, now: () => Date.now() });

  it("sends a change after a quiet spell at the end of the turn, changes announced together in one write", () => {
    const live = hub();
    const page = openPage(live);
    live.broadcast({ op: "update", id: 1 });
    live.broadcast({ op: "update", id: 2 });
    expect(page.writes).toEqual([]);
    vi.advanceTimersByTime(0);
    expect(page.writes).toEqual(['event: catalog\ndata: {"op":"update","id":1}\n\nevent: catalog\ndata: {"op":"update","id":2}\n\n']);
    live.close();
  });

  it("holds the changes of a busy spell for the next batch, each change once", () => {
    const live = hub();
    const page = openPage(live);
    live.broadcast({ op: "update", id: 7 });
    vi.advanceTimersByTime(0);
    vi.advanceTimersByTime(30);
    live.broadcast({ op: "update", id: 7 });
    live.broadcast({ op: "update", id: 7 });
    live.broadcast({ op: "delete", id: 8 });
    vi.advanceTimersByTime(69);
    expect(page.writes).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(page.writes).toHaveLength(2);
    expect(page.writes[1]).toBe('event: catalog\ndata: {"op":"update","id":7}\n\nevent: catalog\ndata: {"op":"delete","id":8}\n\n');
    // A quiet spell again: the next change leaves at once.
    vi.advanceTimersByTime(500);
    live.broadcast({ op: "update", id: 9 });
    vi.advanceTimersByTime(0);
    expect(page.writes).toHaveLength(3);
    live.close();
  });

  it("writes to the pages still open, and nothing after close", () => {
    const live = hub();
    const staying = openPage(live);
    const leaving = openPage(live);
    leaving.leave();
    live.broadcast({ op: "update", id: 1 });
    vi.advanceTimersByTime(0);
    expect(staying.writes).toHaveLength(1);
    expect(leaving.writes).toHaveLength(0);
    live.broadcast({ op: "update", id: 2 });
    live.close();
    vi.advanceTimersByTime(1_000);
    expect(staying.writes).toHaveLength(1);
  });
});

describe("LiveHub.handler", () => {
  const connect = (live: LiveHub) => {
    const writes: string[] = [];
    const res = { writeHead: () => res, write: (chunk: string) => writes.push(chunk), end: () => {} } as unknown as Response;
    live.handler(new EventEmitter() as unknown as Request, res);
    return writes.join("");
  };

  it("sends the server's clock first, for the countdowns, and when it last heard of a change", () => {
    let now = 1_764_000_000_000;
    const live = new LiveHub(pino({ level: "silent" }), { now: () => now });
    expect(connect(live)).toBe('retry: 2000\n\nevent: clock\ndata: {"now":1764000000000,"changedAt":null}\n\n');
    live.broadcast({ op: "update", id: 3 });
    now += 5_000;
    // A page opening its stream now learns that a change came 5 s ago (its data may be older).
    expect(connect(live)).toBe('retry: 2000\n\nevent: clock\ndata: {"now":1764000005000,"changedAt":1764000000000}\n\n');
    live.close();
  });
});

describe("LiveHub.handler, streams per client network", () => {
  /** A stream asked for by `ip`: its status and whether it stays open. */
  function ask(hub: LiveHub, ip: string) {
    const req = Object.assign(new EventEmitter(), { ip }) as unknown as Request;
    let status = 0;
    let headers: Record<string, string> = {};
    let ended = false;
    const res = {
      writeHead: (code: number, given: Record<string, string>) => ((status = code), (headers = given), res),
      write: () => true,
      end: () => (ended = true),
    } as unknown as Response;
    hub.handler(req, res);
    return { status, headers, ended, leave: () => (req as unknown as EventEmitter).emit("close") };
  }

  it("refuses a stream past the limit with a 429 to that address only, and counts a closed one out", () => {
    const hub = new LiveHub(pino({ level: "silent" }), { maxPerClient: 2 });
    const first = ask(hub, "203.0.113.7");
    expect(ask(hub, "203.0.113.7").status).toBe(200);
    const refused = ask(hub, "203.0.113.7");
    expect(refused).toMatchObject({ status: 429, ended: true });
    expect(refused.headers["Retry-After"]).toBe("30");
    expect(ask(hub, "198.51.100.2")).toMatchObject({ status: 200, ended: false });
    first.leave();
    expect(ask(hub, "203.0.113.7").status).toBe(200);
    hub.close();
  });

  it("counts the addresses of one IPv6 /64 as one client, and an IPv4 address mapped into IPv6 as itself", () => {
    const hub = new LiveHub(pino({ level: "silent" }), { maxPerClient: 2 });
    const first = ask(hub, "2001:db8:1:2::1");
    expect(ask(hub, "2001:db8:1:2::2").status).toBe(200);
    expect(ask(hub, "2001:db8:1:2:ffff::3")).toMatchObject({ status: 429, ended: true });
    // Another /64 is another client.
    expect(ask(hub, "2001:db8:1:3::1")).toMatchObject({ status: 200, ended: false });
    first.leave();
    expect(ask(hub, "2001:db8:1:2::4").status).toBe(200);
    expect(ask(hub, "203.0.113.9").status).toBe(200);
    expect(ask(hub, "::ffff:203.0.113.9").status).toBe(200);
    expect(ask(hub, "203.0.113.9").status).toBe(429);
    hub.close();
  });
});

describe("LiveHub.handler, streams in all and their lifetime", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function ask(hub: LiveHub, ip: string) {
    const req = Object.assign(new EventEmitter(), { ip }) as unknown as Request;
    const page = { status: 0, headers: {} as Record<string, string>, ended: false, last: "", leave: () => (req as unknown as EventEmitter).emit("close") };
    const res = {
      writeHead: (code: number, given: Record<string, string>) => ((page.status = code), (page.headers = given), res),
      write: () => true,
      end: (chunk?: string) => ((page.ended = true), (page.last = chunk ?? "")),
    } as unknown as Response;
    hub.handler(req, res);
    return page;
  }

  it("refuses a stream past the global cap with a 503, whatever the address, and counts a closed one out", () => {
    const hub = new LiveHub(pino({ level: "silent" }), { maxStreams: 3 });
    const pages = ["192.0.2.1", "192.0.2.2", "192.0.2.3"].map((ip) => ask(hub, ip));
    expect(pages.map((page) => page.status)).toEqual([200, 200, 200]);
    const refused = ask(hub, "192.0.2.4");
    expect(refused).toMatchObject({ status: 503, ended: true });
    expect(refused.headers["Retry-After"]).toBe("60");
    expect(hub.size).toBe(3);
    pages[0]!.leave();
    expect(ask(hub, "192.0.2.4").status).toBe(200);
    hub.close();
  });

  it("ends a stream at its lifetime, jittered by ± 10 %, with a retry hint and a bye, and frees its slots", () => {
    // Drawn in turn: the lifetimes of the first two streams, the first's retry hint, the third's lifetime, the second's hint.
    const draws = [0, 0.75, 0, 0.5, 0.999_9];
    const hub = new LiveHub(pino({ level: "silent" }), { maxStreams: 2, maxPerClient: 1, lifetimeMs: 10_000, random: () => draws.shift()!, now: () => 42 });
    const early = ask(hub, "192.0.2.1"); // 9 s, then a retry hint of 1 s
    const late = ask(hub, "192.0.2.2"); // 10.5 s, then 5 s
    vi.advanceTimersByTime(8_999);
    expect(early.ended).toBe(false);
    vi.advanceTimersByTime(1);
    expect(early).toMatchObject({ ended: true, last: 'retry: 1000\n\nevent: bye\ndata: {"now":42}\n\n' });
    expect(hub.size).toBe(1);
    // Its address may open a stream again at once (the per-address count was released too).
    expect(ask(hub, "192.0.2.1").status).toBe(200);
    vi.advanceTimersByTime(1_499);
    expect(late.ended).toBe(false);
    vi.advanceTimersByTime(1);
    expect(late.last).toMatch(/^retry: 5000\n\n/);
    // The socket's close after the end counts nothing twice.
    early.leave();
    late.leave();
    expect(hub.size).toBe(1);
    hub.close();
    expect(hub.size).toBe(0);
  });
});

describe("LiveHub.close (the instance stops)", () => {
  it("tells every open page to reconnect within 0.2 to 2 s, and sends new streams elsewhere", () => {
    const live = new LiveHub(pino({ level: "silent" }), { now: () => 1_000, random: () => 0.5 });
    const ends: string[] = [];
    const req = new EventEmitter() as unknown as Request;
    const res = { writeHead: () => res, write: () => true, end: (chunk: string) => ends.push(chunk) } as unknown as Response;
    live.handler(req, res);
    live.close();
    expect(ends).toEqual(['retry: 1100\n\nevent: bye\ndata: {"now":1000}\n\n']);
    expect(live.size).toBe(0);

    let status = 0;
    const late = { writeHead: (code: number) => ((status = code), late), end: () => {} } as unknown as Response;
    live.handler(new EventEmitter() as unknown as Request, late);
    expect(status).toBe(503);
    expect(live.size).toBe(0);
  });
});

describe("LiveHub order changes", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("sends an order's change only to the streams that asked for it (the admin's pages)", () => {
    const live = new LiveHub(pino({ level: "silent" }), { batchMs: 100, now: () => Date.now() });
    const page = (query: Record<string, string>) => {
      const writes: string[] = [];
      const req = Object.assign(new EventEmitter(), { query }) as unknown as Request;
      const res = { writeHead: () => res, write: (chunk: string) => writes.push(chunk), end: () => {} } as unknown as Response;
      live.handler(req, res);
      writes.length = 0;
      return writes;
    };
    const shop = page({});
    const admin = page({ topics: "orders" });
    live.broadcast({ op: "orders" });
    live.broadcast({ op: "orders" });
    vi.advanceTimersByTime(0);
    expect(shop).toEqual([]);
    expect(admin).toEqual(['event: catalog\ndata: {"op":"orders"}\n\n']);
    live.broadcast({ op: "update", id: 3 });
    vi.advanceTimersByTime(100);
    expect(shop).toEqual(['event: catalog\ndata: {"op":"update","id":3}\n\n']);
    expect(admin).toHaveLength(2);
    live.close();
  });
});
