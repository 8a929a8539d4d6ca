import { describe, expect, it } from "vitest";
import { isPermanentSmtpFailure, RETRY_MAX_MS, retryDelayMs } from "./email-delivery";

describe("retryDelayMs", () => {
  const noJitter = () => 0;

  it("waits 30 s after the first failure, then doubles", () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, noJitter))).toEqual([30_000, 60_000, 120_000, 240_000]);
  });

  it("is capped at 30 min, however many attempts failed", () => {
    expect(retryDelayMs(7, noJitter)).toBe(RETRY_MAX_MS);
    expect(retryDelayMs(500, noJitter)).toBe(RETRY_MAX_MS);
    expect(retryDelayMs(5_000, noJitter)).toBe(RETRY_MAX_MS);
  });

  it("shortens the delay by at most 20 % at random, never above the cap", () => {
    expect(retryDelayMs(1, () => 0.5)).toBe(27_000);
    expect(retryDelayMs(1, () => 0.999_999)).toBe(24_000);
    expect(retryDelayMs(50, () => 0.5)).toBe(RETRY_MAX_MS * 0.9);
  });
});

describe("isPermanentSmtpFailure", () => {
  it("treats a 5xx reply about this message's recipient or content as permanent", () => {
    expect(isPermanentSmtpFailure({ responseCode: 550, command: "RCPT TO" })).toBe(true);
    expect(isPermanentSmtpFailure({ responseCode: 554, command: "DATA" })).toBe(true);
  });

  it("retries temporary replies and the 503 session error", () => {
    expect(isPermanentSmtpFailure({ responseCode: 450, command: "RCPT TO" })).toBe(false);
    expect(isPermanentSmtpFailure({ responseCode: 421, command: "DATA" })).toBe(false);
    expect(isPermanentSmtpFailure({ responseCode: 503, command: "RCPT TO" })).toBe(false);
  });

  it("retries what concerns every e-mail: connection, authentication, a refused sender", () => {
    expect(isPermanentSmtpFailure({ command: "CONN" })).toBe(false);
    expect(isPermanentSmtpFailure({})).toBe(false);
    expect(isPermanentSmtpFailure({ responseCode: 535, command: "AUTH PLAIN" })).toBe(false);
    expect(isPermanentSmtpFailure({ responseCode: 550, command: "MAIL FROM" })).toBe(false);
  });
});
