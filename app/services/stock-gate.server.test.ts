import { describe, expect, it } from "vitest";
import { StockGate } from "./stock-gate.server";

describe("StockGate", () => {
  it("refuses more than the known stock, and forgets it when the product changes", () => {
    const gate = new StockGate();
    const v = gate.version(7);
    gate.remember(7, 0, "Coffret", v);
    expect(gate.shortage([{ productId: 7, quantity: 1 }])).toEqual({ productId: 7, name: "Coffret", stock: 0 });
    expect(gate.shortage([{ productId: 8, quantity: 1 }])).toBeNull();
    gate.changed(7);
    expect(gate.shortage([{ productId: 7, quantity: 1 }])).toBeNull();
  });

  it("never keeps a stock read before a change", () => {
    const gate = new StockGate();
    const before = gate.version(7);
    gate.changed(7); // a restock committed while the read was on its way
    gate.remember(7, 0, "Coffret", before);
    expect(gate.shortage([{ productId: 7, quantity: 1 }])).toBeNull();
    const everything = gate.version(7);
    gate.changed(); // lost connection: anything may have changed
    gate.remember(7, 0, "Coffret", everything);
    expect(gate.shortage([{ productId: 7, quantity: 1 }])).toBeNull();
  });

  it("lets a known stock expire", () => {
    let now = 0;
    const gate = new StockGate({ ttlMs: 1_000, now: () => now });
    gate.remember(1, 2, "Booster", gate.version(1));
    expect(gate.shortage([{ productId: 1, quantity: 3 }])?.stock).toBe(2);
    expect(gate.shortage([{ productId: 1, quantity: 2 }])).toBeNull();
    now = 1_001;
    expect(gate.shortage([{ productId: 1, quantity: 3 }])).toBeNull();
  });

  it("runs tasks on the same product one at a time, and others alongside", async () => {
    const gate = new StockGate();
    const log: string[] = [];
    const task = (name: string, ms: number) => async () => {
      log.push(`start ${name}`);
      await new Promise((r) => setTimeout(r, ms));
      log.push(`end ${name}`);
      return name;
    };
    const results = await Promise.all([
      gate.exclusive([1], task("a", 20)),
      gate.exclusive([1, 2], task("b", 5)),
      gate.exclusive([3], task("c", 1)),
      gate.exclusive([2], task("d", 1)),
    ]);
    expect(results).toEqual(["a", "b", "c", "d"]);
    expect(log.indexOf("end a")).toBeLessThan(log.indexOf("start b"));
    // b and d share product 2: never at the same time (d may go first while b waits for 1).
    const at = (entry: string) => log.indexOf(entry);
    expect(at("end b") < at("start d") || at("end d") < at("start b")).toBe(true);
    expect(log.indexOf("start c")).toBeLessThan(log.indexOf("end a"));
  });

  it("releases the turn when a task fails", async () => {
    const gate = new StockGate();
    await expect(gate.exclusive([1], () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(gate.exclusive([1], async () => "next")).resolves.toBe("next");
  });
});
