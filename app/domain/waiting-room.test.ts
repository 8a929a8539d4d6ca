import { describe, expect, it } from "vitest";
import { admissionSlots, FAIR_RANK_RANGE, isSoldOut, queueOpensAt, ticketRank } from "./waiting-room";

describe("admissionSlots", () => {
  it("admits about 1.5 × the free units, less the admissions still open", () => {
    expect(admissionSlots(10, 0)).toBe(15);
    expect(admissionSlots(10, 12)).toBe(3);
    expect(admissionSlots(1, 0)).toBe(2);
    expect(admissionSlots(0, 0)).toBe(0);
    expect(admissionSlots(2, 9)).toBe(0);
  });
});

describe("ticketRank", () => {
  const opening = new Date("2026-12-05T09:00:00Z");

  it("places a fair start's early arrivals by the draw, before every later arrival", () => {
    const early = ticketRank("fair_start", opening, new Date("2026-12-05T08:55:00Z"), 123);
    expect(early).toBe(123);
    const late = ticketRank("fair_start", opening, new Date("2026-12-05T09:00:01Z"), FAIR_RANK_RANGE - 1);
    expect(late).toBeGreaterThan(FAIR_RANK_RANGE);
  });

  it("places arrivals by time otherwise, a random tie-break within the millisecond", () => {
    const first = ticketRank("first_come", opening, new Date("2026-12-05T08:55:00.000Z"), 999);
    const second = ticketRank("first_come", opening, new Date("2026-12-05T08:55:00.001Z"), 0);
    expect(first).toBeLessThan(second);
    expect(Number.isSafeInteger(second)).toBe(true);
  });
});

describe("queueOpensAt and isSoldOut", () => {
  it("opens the room the window before the drop, and calls it sold out only when nothing can come back", () => {
    expect(queueOpensAt(new Date("2026-12-05T09:00:00Z"), 10).toISOString()).toBe("2026-12-05T08:50:00.000Z");
    expect(isSoldOut({ available: 0, held: 0, sold: 10 })).toBe(true);
    expect(isSoldOut({ available: 0, held: 1, sold: 9 })).toBe(false);
  });
});
