import pino from "pino";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startSiteContentTimer } from "./site-schedule";

const logger = pino({ level: "silent" });

/** Lets the timer's database read (a resolved promise) finish. */
const settle = () => vi.advanceTimersByTimeAsync(0);

describe("startSiteContentTimer", () => {
  beforeEach(() => vi.useFakeTimers({ now: new Date("2026-12-01T12:00:00Z") }));
  afterEach(() => vi.useRealTimers());

  it("fires at the next change, not before, then plans the one after", async () => {
    const changes = [new Date("2026-12-01T12:00:20Z"), new Date("2026-12-01T12:01:00Z")];
    const nextChange = vi.fn(async (now: Date) => changes.find((at) => at > now) ?? null);
    const onChange = vi.fn();
    const timer = startSiteContentTimer({ nextChange, onChange, logger });
    await settle();
    await vi.advanceTimersByTimeAsync(19_999);
    expect(onChange).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(onChange).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(40_000);
    expect(onChange).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(onChange).toHaveBeenCalledTimes(2);
    timer.stop();
  });

  it("re-reads on replan: a change moved sooner or cancelled counts, the old plan does not", async () => {
    let next: Date | null = new Date("2026-12-01T13:00:00Z");
    const onChange = vi.fn();
    const timer = startSiteContentTimer({ nextChange: async () => next, onChange, logger });
    await settle();
    next = new Date("2026-12-01T12:00:05Z");
    timer.replan();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(onChange).toHaveBeenCalledTimes(1);
    next = null;
    timer.replan();
    await vi.advanceTimersByTimeAsync(2 * 3_600_000);
    expect(onChange).toHaveBeenCalledTimes(1);
    timer.stop();
  });

  it("waits past the longest timer in steps, and retries a failed read", async () => {
    const far = new Date("2026-12-31T12:00:00Z");
    const nextChange = vi.fn().mockRejectedValueOnce(new Error("database down")).mockResolvedValue(far);
    const onChange = vi.fn();
    const timer = startSiteContentTimer({ nextChange, onChange, logger });
    await settle();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(nextChange).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(far.getTime() - Date.now() - 1);
    expect(onChange).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(onChange).toHaveBeenCalledTimes(1);
    timer.stop();
  });

  it("does nothing once stopped", async () => {
    const onChange = vi.fn();
    const timer = startSiteContentTimer({ nextChange: async () => new Date("2026-12-01T12:00:01Z"), onChange, logger });
    await settle();
    timer.stop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(onChange).not.toHaveBeenCalled();
  });
});
