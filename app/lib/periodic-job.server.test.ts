import type { Logger } from "pino";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startPeriodicJob } from "./periodic-job.server";

const logger = () => ({ error: vi.fn() }) as unknown as Logger & { error: ReturnType<typeof vi.fn> };

describe("startPeriodicJob", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("runs every interval, never two rounds at once, and a burst of kicks once", async () => {
    let release = () => {};
    const run = vi.fn(() => new Promise<void>((resolve) => (release = resolve)));
    const job = startPeriodicJob({ run, intervalMs: 1_000, logger: logger(), failure: "échec" });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(run).toHaveBeenCalledTimes(1);
    // Still running: the next tick and the kicks skip.
    job.kick();
    job.kick();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(run).toHaveBeenCalledTimes(1);
    release();
    await vi.advanceTimersByTimeAsync(0);
    job.kick();
    job.kick();
    await vi.advanceTimersByTimeAsync(0);
    expect(run).toHaveBeenCalledTimes(2);
    release();
    await job.stop();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(run).toHaveBeenCalledTimes(2);
  });

  it("runs a first round early when asked, and logs a failed round without stopping", async () => {
    const log = logger();
    const run = vi.fn().mockRejectedValueOnce(new Error("base indisponible")).mockResolvedValue(undefined);
    const job = startPeriodicJob({ run, intervalMs: 60_000, firstRunMs: 10, logger: log, failure: "tâche en échec" });
    await vi.advanceTimersByTimeAsync(10);
    expect(log.error).toHaveBeenCalledWith({ err: expect.any(Error) }, "tâche en échec");
    await vi.advanceTimersByTimeAsync(60_000);
    expect(run).toHaveBeenCalledTimes(2);
    await job.stop();
  });
});
