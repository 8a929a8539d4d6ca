import { describe, expect, it } from "vitest";
import { rateLimitKey, tooManyAttemptsMessage } from "./rate-limits";

describe("rate limits", () => {
  it("keys are case-insensitive per subject", () => {
    expect(rateLimitKey("signInPerAccount", " Alice@Example.com ")).toBe("signInPerAccount:alice@example.com");
  });

  it("says how long to wait, in whole minutes", () => {
    expect(tooManyAttemptsMessage(30_000)).toBe("Trop de tentatives. Réessayez dans 1 minute.");
    expect(tooManyAttemptsMessage(14 * 60_000 + 1)).toBe("Trop de tentatives. Réessayez dans 15 minutes.");
  });
});
