import { describe, expect, it } from "vitest";
import { missedAChange } from "./use-live-updates";

describe("missedAChange", () => {
  it("is true for a change the server heard of once the page's data was being read", () => {
    expect(missedAChange(1_000, 1_001)).toBe(true);
    // The same millisecond: which came first cannot be told, so the page reloads its data.
    expect(missedAChange(1_000, 1_000)).toBe(true);
  });

  it("is false for a change before the page's data was read, or with none heard", () => {
    expect(missedAChange(1_000, 999)).toBe(false);
    expect(missedAChange(1_000, null)).toBe(false);
    // A page without the root's data (an error page) has nothing to compare.
    expect(missedAChange(undefined, 1_000)).toBe(false);
  });
});
