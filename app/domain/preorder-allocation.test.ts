import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { type PreorderClaim, allocateByDraw, allocateByOrder, drawOrder } from "./preorder-allocation";

const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 9, minute));
const claim = (orderId: string, customerKey: string, units: number, minute: number, seq = minute): PreorderClaim => ({ orderId, customerKey, units, placedAt: at(minute), seq });
const ticket = (seed: string) => (key: string) => createHmac("sha256", seed).update(key).digest("hex");

describe("allocateByOrder", () => {
  it("serves whole orders first placed first, then part of the first that no longer fits", () => {
    const claims = [claim("c", "carol", 3, 2), claim("a", "alice", 2, 0), claim("b", "bob", 1, 1), claim("d", "dan", 1, 3)];
    const result = allocateByOrder(claims, 5);
    expect(result.allocated).toBe(5);
    expect(result.orders.map((o) => [o.orderId, o.allocated, o.refunded])).toEqual([
      ["a", 2, 0],
      ["b", 1, 0],
      ["c", 2, 1],
      ["d", 0, 1],
    ]);
  });

  it("confirms every order when the delivery covers them, and allocates nothing of nothing", () => {
    const claims = [claim("a", "alice", 2, 0), claim("b", "bob", 3, 1)];
    expect(allocateByOrder(claims, 9).orders.every((o) => o.refunded === 0)).toBe(true);
    expect(allocateByOrder(claims, 9).allocated).toBe(5);
    expect(allocateByOrder(claims, 0).orders.map((o) => o.refunded)).toEqual([2, 3]);
  });

  it("breaks a tie on the same instant by sequence", () => {
    const result = allocateByOrder([claim("late", "x", 1, 0, 2), claim("early", "y", 1, 0, 1)], 1);
    expect(result.orders.find((o) => o.orderId === "early")!.allocated).toBe(1);
  });

  it("refuses nonsense", () => {
    expect(() => allocateByOrder([claim("a", "x", 0, 0)], 1)).toThrow(RangeError);
    expect(() => allocateByOrder([claim("a", "x", 1, 0)], -1)).toThrow(RangeError);
    expect(() => allocateByOrder([claim("a", "x", 1, 0), claim("a", "y", 1, 1)], 1)).toThrow(RangeError);
  });
});

describe("allocateByDraw", () => {
  it("gives one unit to each customer in the draw's order before anyone gets a second", () => {
    const claims = [claim("a", "alice", 3, 0), claim("b", "bob", 2, 1), claim("c", "carol", 1, 2)];
    const result = allocateByDraw(claims, 4, ["carol", "alice", "bob"]);
    expect(Object.fromEntries(result.orders.map((o) => [o.customerKey, o.allocated]))).toEqual({ carol: 1, alice: 2, bob: 1 });
    expect(result.allocated).toBe(4);
  });

  it("with fewer units than customers, serves the first drawn only", () => {
    const claims = [claim("a", "alice", 3, 0), claim("b", "bob", 2, 1), claim("c", "carol", 1, 2)];
    const result = allocateByDraw(claims, 2, ["bob", "carol", "alice"]);
    expect(Object.fromEntries(result.orders.map((o) => [o.customerKey, o.allocated]))).toEqual({ bob: 1, carol: 1, alice: 0 });
  });

  it("gives a customer's units to their earliest order first", () => {
    const claims = [claim("later", "alice", 1, 5), claim("first", "alice", 1, 0)];
    const result = allocateByDraw(claims, 1, ["alice"]);
    expect(result.orders.find((o) => o.orderId === "first")!.allocated).toBe(1);
  });

  it("refuses a draw that misses or repeats a customer", () => {
    const claims = [claim("a", "alice", 1, 0), claim("b", "bob", 1, 1)];
    expect(() => allocateByDraw(claims, 1, ["alice"])).toThrow(RangeError);
    expect(() => allocateByDraw(claims, 1, ["alice", "alice"])).toThrow(RangeError);
  });

  it("120 pre-orders against 50 units: exactly 50 allocated, none above its order, the same again from the seed", () => {
    const claims = Array.from({ length: 120 }, (_, i) => claim(`o${i}`, `client${i % 100}`, 1 + (i % 3), i));
    const run = (seed: string) => allocateByDraw(claims, 50, drawOrder(claims.map((c) => c.customerKey), ticket(seed)));
    const first = run("graine-1");
    expect(first.allocated).toBe(50);
    expect(first.orders.every((o) => o.allocated >= 0 && o.allocated <= o.ordered && o.allocated + o.refunded === o.ordered)).toBe(true);
    // One unit each for 50 different customers: nobody got a second while others had none.
    expect(new Set(first.orders.filter((o) => o.allocated > 0).map((o) => o.customerKey)).size).toBe(50);
    expect(run("graine-1")).toEqual(first);
    expect(run("graine-2")).not.toEqual(first);
  });
});

describe("drawOrder", () => {
  it("orders each customer once by their ticket", () => {
    expect(drawOrder(["b", "a", "b", "c"], (key) => ({ a: "3", b: "1", c: "2" })[key]!)).toEqual(["b", "c", "a"]);
  });
});
