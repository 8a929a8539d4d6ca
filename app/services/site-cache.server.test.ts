import { describe, expect, it } from "vitest";
import type { Db } from "~/db/types";
import { invalidateSiteCaches, siteCache } from "./site-cache.server";

// The cache never looks inside the handle: two plain objects stand for two databases.
const dbA = {} as Db;
const dbB = {} as Db;

function counter() {
  let reads = 0;
  const cache = siteCache(async () => ++reads);
  return { cache, reads: () => reads };
}

describe("siteCache", () => {
  it("reads once per database until invalidated, concurrent readers sharing the query", async () => {
    const { cache, reads } = counter();
    expect(await Promise.all([cache.get(dbA), cache.get(dbA)])).toEqual([1, 1]);
    expect(await cache.get(dbB)).toBe(2);
    expect(await cache.get(dbA)).toBe(1);
    cache.invalidate();
    expect(await cache.get(dbA)).toBe(3);
    expect(reads()).toBe(3);
  });

  it("invalidateSiteCaches forgets every cache", async () => {
    const one = counter();
    const two = counter();
    await one.cache.get(dbA);
    await two.cache.get(dbA);
    invalidateSiteCaches();
    expect(await one.cache.get(dbA)).toBe(2);
    expect(await two.cache.get(dbA)).toBe(2);
  });

  it("does not keep a failed read", async () => {
    let fail = true;
    const cache = siteCache(async () => {
      if (fail) throw new Error("connexion perdue");
      return "ok";
    });
    await expect(cache.get(dbA)).rejects.toThrow("connexion perdue");
    fail = false;
    expect(await cache.get(dbA)).toBe("ok");
  });

  it("a read under way when invalidated is not kept for later readers", async () => {
    let release!: (value: string) => void;
    let calls = 0;
    const cache = siteCache(() => (++calls === 1 ? new Promise<string>((resolve) => (release = resolve)) : Promise.resolve("nouveau")));
    const before = cache.get(dbA);
    cache.invalidate();
    release("ancien");
    expect(await before).toBe("ancien");
    expect(await cache.get(dbA)).toBe("nouveau");
  });
});
