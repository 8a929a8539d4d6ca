import { describe, expect, it } from "vitest";
import { LruMap } from "./lru-map";

describe("LruMap", () => {
  it("drops the least recently used beyond its size, a read counting as a use and a peek not", () => {
    const map = new LruMap<string, string>(6, (value) => value.length);
    map.set("a", "aa");
    map.set("b", "bb");
    map.set("c", "cc");
    expect(map.get("a")).toBe("aa");
    expect(map.peek("b")).toBe("bb");
    map.set("d", "dd"); // b is the oldest now
    expect([...map.entries()].map(([key]) => key)).toEqual(["c", "a", "d"]);
    expect([map.count, map.size]).toEqual([3, 6]);
  });

  it("counts a replaced value once, and forgets what is deleted or cleared", () => {
    const map = new LruMap<string, number>(10);
    map.set("a", 1);
    map.set("a", 2);
    expect([map.count, map.size, map.get("a")]).toEqual([1, 1, 2]);
    map.delete("a");
    map.delete("missing");
    expect(map.size).toBe(0);
    map.set("b", 3);
    map.clear();
    expect([map.count, map.size, map.get("b")]).toEqual([0, 0, undefined]);
  });
});
