import { describe, expect, it } from "vitest";
import { formatCalendarDate } from "./calendar-date";

describe("formatCalendarDate", () => {
  it("writes a date column's day in French", () => {
    expect(formatCalendarDate("2026-12-05")).toBe("5 décembre 2026");
    expect(formatCalendarDate("2027-01-01")).toBe("1 janvier 2027");
  });
});
