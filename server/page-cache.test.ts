import { describe, expect, it } from "vitest";
import { PageCache } from "./page-cache";

const page = (body: string) => ({ status: 200, headers: { "content-type": "text/html" }, body: Buffer.from(body), nonce: "n" });

describe("PageCache", () => {
  it("serves what it stored until it expires", () => {
    let now = 1_000;
    const cache = new PageCache({ ttlMs: 60_000, now: () => now });
    cache.set("/catalog", page("a"), cache.generation);
    expect(cache.get("/catalog")?.body.toString()).toBe("a");
    now += 60_000;
    expect(cache.get("/catalog")).toBeUndefined();
  });

  it("forgets everything on a purge, and refuses a render that started before it", () => {
    const cache = new PageCache();
    const startedAt = cache.generation;
    cache.set("/a", page("a"), startedAt);
    cache.clear();
    expect(cache.get("/a")).toBeUndefined();
    // A render begun before the purge may show the old stock: it must not be stored.
    expect(cache.set("/b", page("stale"), startedAt)).toBeNull();
    expect(cache.get("/b")).toBeUndefined();
    expect(cache.set("/b", page("fresh"), cache.generation)).not.toBeNull();
  });

  it("evicts the least recently used pages beyond its byte budget", () => {
    const cache = new PageCache({ maxBytes: 10_000 });
    const body = "x".repeat(600); // stored size about 1.2 kB
    for (const key of ["/1", "/2", "/3", "/4", "/5", "/6", "/7", "/8"]) cache.set(key, page(body), cache.generation);
    cache.get("/1"); // used: kept
    cache.set("/9", page(body), cache.generation);
    expect(cache.get("/1")).toBeDefined();
    expect(cache.get("/2")).toBeUndefined();
    expect(cache.get("/9")).toBeDefined();
  });

  it("does not store a page too large for its budget", () => {
    const cache = new PageCache({ maxBytes: 1_000 });
    expect(cache.set("/big", page("x".repeat(1_000)), cache.generation)).toBeNull();
  });
});
