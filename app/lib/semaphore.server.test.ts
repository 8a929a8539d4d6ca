import { describe, expect, it } from "vitest";
import { Semaphore } from "./semaphore.server";

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
