import { describe, expect, it } from "vitest";
import { OneAtATimePerKey, Semaphore } from "./semaphore.server";

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("Semaphore", () => {
  it("runs at most `size` tasks at once, the others in the order they came", async () => {
    const queue = new Semaphore(2);
    const started: number[] = [];
    const finish: (() => void)[] = [];
    const tasks = [0, 1, 2, 3, 4].map((i) =>
      queue.run(async () => {
        started.push(i);
        await new Promise<void>((resolve) => (finish[i] = resolve));
        return i;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    expect(queue.load).toEqual({ running: 2, waiting: 3 });
    finish[1]!();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    finish[0]!();
    finish[2]!();
    await tick();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    finish[3]!();
    finish[4]!();
    expect(await Promise.all(tasks)).toEqual([0, 1, 2, 3, 4]);
    expect(queue.load).toEqual({ running: 0, waiting: 0 });
  });

  it("hands the turn on when a task throws", async () => {
    const queue = new Semaphore(1);
    const failing = queue.run(() => Promise.reject(new Error("illisible")));
    const next = queue.run(async () => "suivante");
    await expect(failing).rejects.toThrow("illisible");
    expect(await next).toBe("suivante");
    expect(queue.load).toEqual({ running: 0, waiting: 0 });
  });

  it("refuses a size that is not a positive integer", () => {
    expect(() => new Semaphore(0)).toThrow(RangeError);
  });
});

describe("OneAtATimePerKey", () => {
  it("runs one task at a time per key, the keys side by side, and forgets a key once its tasks are done", async () => {
    const turns = new OneAtATimePerKey();
    const started: string[] = [];
    const finish: Record<string, () => void> = {};
    const task = (key: string, name: string) =>
      turns.run(key, async () => {
        started.push(name);
        await new Promise<void>((resolve) => (finish[name] = resolve));
        return name;
      });
    const tasks = [task("2001:db8::/64", "a1"), task("2001:db8::/64", "a2"), task("203.0.113.7", "b1"), task("2001:db8::/64", "a3")];
    await tick();
    expect(started).toEqual(["a1", "b1"]);
    expect(turns.keys).toBe(2);
    expect([turns.pending("2001:db8::/64"), turns.pending("203.0.113.7"), turns.pending("198.51.100.1")]).toEqual([3, 1, 0]);
    finish.b1!();
    await tick();
    expect(turns.keys).toBe(1);
    finish.a1!();
    await tick();
    expect(started).toEqual(["a1", "b1", "a2"]);
    finish.a2!();
    await tick();
    finish.a3!();
    expect(await Promise.all(tasks)).toEqual(["a1", "a2", "b1", "a3"]);
    await tick();
    expect(turns.keys).toBe(0);
  });

  it("hands a key's turn on when a task throws", async () => {
    const turns = new OneAtATimePerKey();
    const failing = turns.run("k", () => Promise.reject(new Error("illisible")));
    const next = turns.run("k", async () => "suivante");
    await expect(failing).rejects.toThrow("illisible");
    expect(await next).toBe("suivante");
    expect(turns.keys).toBe(0);
  });
});
