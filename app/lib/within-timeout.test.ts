import { afterEach, describe, expect, it, vi } from "vitest";
import { withinTimeout } from "./within-timeout";

describe("withinTimeout", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("gives the result when it comes in time, and leaves no timer behind", async () => {
    vi.useFakeTimers();
    await expect(withinTimeout(Promise.resolve("<html>"), 6_000)).resolves.toBe("<html>");
    await expect(withinTimeout("<html>", 6_000)).resolves.toBe("<html>");
    expect(vi.getTimerCount()).toBe(0);
  });

  it("passes a failure on as it is", async () => {
    await expect(withinTimeout(Promise.reject(new Error("loader failed")), 6_000)).rejects.toThrow("loader failed");
  });

  it("rejects once the time is up when the work never settles", async () => {
    vi.useFakeTimers();
    const result = withinTimeout(new Promise<string>(() => {}), 6_000);
    const settled = vi.fn();
    result.then(settled, settled);
    await vi.advanceTimersByTimeAsync(5_999);
    expect(settled).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).rejects.toThrow("Gave up after 6000 ms");
  });
});
