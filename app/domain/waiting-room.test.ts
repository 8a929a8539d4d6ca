import { describe, expect, it } from "vitest";
import { admissionSlots, FAIR_RANK_RANGE, IDLE_POLL_MS, isSoldOut, nextLookDelay, QUEUE_POLL_MS, type QueueView, queueOpensAt, RETRY_MAX_MS, ticketRank } from "./waiting-room";

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

describe("nextLookDelay", () => {
  const figures = { available: 1, held: 0, sold: 0 };
  const waiting: QueueView = { state: "waiting", position: 2, figures };
  const open: QueueView = { state: "open", figures };

  it("looks at the pace of the state after an answer, and never again after sold out", () => {
    expect(nextLookDelay(waiting, 0, 0.3)).toBe(QUEUE_POLL_MS);
    expect(nextLookDelay({ state: "admitted", expiresAt: "2026-11-28T12:00:00Z", figures } as QueueView, 0, 0.3)).toBe(QUEUE_POLL_MS);
    expect(nextLookDelay(open, 0, 0.3)).toBe(IDLE_POLL_MS);
    expect(nextLookDelay(null, 0, 0.3)).toBe(QUEUE_POLL_MS);
    expect(nextLookDelay({ state: "sold_out", figures }, 0, 0.3)).toBeNull();
  });

  it("keeps trying after failures, twice as late each time up to 30 s, spread by the jitter", () => {
    // Jitter 0.5 is the middle: the backoff itself.
    expect([1, 2, 3, 4, 5, 6, 10].map((failures) => nextLookDelay(waiting, failures, 0.5))).toEqual([2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
    expect(nextLookDelay(waiting, 1, 0)).toBe(1_000);
    expect(nextLookDelay(waiting, 1, 0.999)).toBe(2_998);
    expect(nextLookDelay(open, 50, 0.999)).toBeLessThan(RETRY_MAX_MS * 1.5);
    // A failure on a page whose last answer was sold out cannot happen: it stopped looking.
    expect(nextLookDelay({ state: "sold_out", figures }, 3, 0.5)).toBeNull();
  });
});
