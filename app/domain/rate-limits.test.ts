import { describe, expect, it } from "vitest";
import { RATE_LIMITS, accountAtAddress, rateLimitKey, tooManyAttemptsMessage } from "./rate-limits";

describe("rate limits", () => {
  it("keys are case-insensitive per subject", () => {
    expect(rateLimitKey("signInPerAccount", " Alice@Example.com ")).toBe("signInPerAccount:alice@example.com");
  });

  it("says how long to wait, in whole minutes", () => {
    expect(tooManyAttemptsMessage(30_000)).toBe("Trop de tentatives. Réessayez dans 1 minute.");
    expect(tooManyAttemptsMessage(14 * 60_000 + 1)).toBe("Trop de tentatives. Réessayez dans 15 minutes.");
  });

  it("keys an account's own count from one address by both", () => {
    expect(rateLimitKey("signInPerKnownAddress", accountAtAddress(" Alice@Example.com ", "192.0.2.1"))).toBe("signInPerKnownAddress:192.0.2.1:alice@example.com");
    // Ends in ":<e-mail>", as the keys an erase by e-mail address deletes (gdpr.server.ts), IPv6 too.
    expect(rateLimitKey("signInKnownAddress", accountAtAddress("alice@example.com", "2001:db8::1"))).toMatch(/:alice@example\.com$/);
  });

  it("leaves the owner attempts that five attacking addresses cannot use up", () => {
    // Five addresses together can use the account's shared count; the owner's own address has
    // its own, and no single address can use up the shared count alone.
    expect(RATE_LIMITS.signInPerAccount.limit).toBeGreaterThan(RATE_LIMITS.signInPerIp.limit);
    expect(RATE_LIMITS.signInPerKnownAddress.limit).toBeGreaterThanOrEqual(3);
    expect(RATE_LIMITS.signInKnownAddress.windowMs).toBeGreaterThanOrEqual(30 * 24 * 3600_000);
  });
});
