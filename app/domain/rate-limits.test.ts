import { describe, expect, it } from "vitest";
import { RATE_LIMITS, type RateLimitRule, accountAtAddress, rateLimitKey, tooManyAttemptsMessage } from "./rate-limits";

describe("rate limits", () => {
  it("keys are case-insensitive per subject", () => {
    expect(rateLimitKey("signInPerAccount", " Alice@Example.com ")).toBe("signInPerAccount:alice@example.com");
  });

  it("keys every per-address limit by the client's network: an IPv4 address, an IPv6 /64", () => {
    const perAddress = (Object.keys(RATE_LIMITS) as (keyof typeof RATE_LIMITS)[]).filter((name) => name.endsWith("PerIp"));
    expect(perAddress).toHaveLength(10);
    for (const name of perAddress) {
      expect(rateLimitKey(name, "2001:db8:1:2::1"), name).toBe(`${name}:2001:db8:1:2::/64`);
      expect(rateLimitKey(name, "2001:DB8:1:2:aaaa:bbbb:cccc:dddd"), name).toBe(rateLimitKey(name, "2001:db8:1:2::1"));
      expect(rateLimitKey(name, "2001:db8:1:3::1"), name).not.toBe(rateLimitKey(name, "2001:db8:1:2::1"));
      expect(rateLimitKey(name, "::ffff:192.0.2.1"), name).toBe(`${name}:192.0.2.1`);
      expect(rateLimitKey(name, "192.0.2.2"), name).not.toBe(rateLimitKey(name, "192.0.2.1"));
    }
    // The others count their subject as given (an e-mail, an account).
    for (const name of Object.keys(RATE_LIMITS) as (keyof typeof RATE_LIMITS)[]) {
      const rule: RateLimitRule = RATE_LIMITS[name];
      expect(perAddress.includes(name), name).toBe(rule.perNetwork === true);
    }
  });

  it("says how long to wait, in whole minutes", () => {
    expect(tooManyAttemptsMessage(30_000)).toBe("Trop de tentatives. Réessayez dans 1 minute.");
    expect(tooManyAttemptsMessage(14 * 60_000 + 1)).toBe("Trop de tentatives. Réessayez dans 15 minutes.");
  });

  it("keys an account's own count from one address by both", () => {
    expect(rateLimitKey("signInPerKnownAddress", accountAtAddress(" Alice@Example.com ", "192.0.2.1"))).toBe("signInPerKnownAddress:192.0.2.1:alice@example.com");
    // Ends in ":<e-mail>", as the keys an erase by e-mail address deletes (gdpr.server.ts), IPv6 too.
    expect(rateLimitKey("signInKnownAddress", accountAtAddress("alice@example.com", "2001:db8::1"))).toMatch(/:alice@example\.com$/);
    // The address by its network: the owner's next IPv6 address of their /64 is still known.
    expect(accountAtAddress("alice@example.com", "2001:db8:5:6::a")).toBe("2001:db8:5:6::/64:alice@example.com");
    expect(accountAtAddress("alice@example.com", "2001:db8:5:6::b")).toBe(accountAtAddress("alice@example.com", "2001:db8:5:6::a"));
    expect(accountAtAddress("alice@example.com", "::ffff:192.0.2.1")).toBe("192.0.2.1:alice@example.com");
  });

  it("leaves the owner attempts that five attacking addresses cannot use up", () => {
    // Five addresses together can use the account's shared count; the owner's own address has
    // its own, and no single address can use up the shared count alone.
    expect(RATE_LIMITS.signInPerAccount.limit).toBeGreaterThan(RATE_LIMITS.signInPerIp.limit);
    expect(RATE_LIMITS.signInPerKnownAddress.limit).toBeGreaterThanOrEqual(3);
    expect(RATE_LIMITS.signInKnownAddress.windowMs).toBeGreaterThanOrEqual(30 * 24 * 3600_000);
  });
});
