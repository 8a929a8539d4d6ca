import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { RATE_LIMITS, accountAtAddress } from "~/domain/rate-limits";
import { eraseGuest } from "~/services/gdpr.server";
import { checkRateLimit, clearRateLimit, consumeRateLimit, hasMark, recordAttempt, refundAttempt, setMark } from "~/services/rate-limit.server";
import { databaseLabel, openTestDatabase } from "./test-database";

describe(`rate limits on ${databaseLabel}`, () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  it("lets exactly the limit through when attempts arrive together", async () => {
    const { limit } = RATE_LIMITS.resetPerAccount;
    const states = await Promise.all(Array.from({ length: limit + 5 }, () => consumeRateLimit(database.db, "resetPerAccount", "Ensemble@Example.com")));
    expect(states.filter((s) => !s.blocked)).toHaveLength(limit);
    const blocked = states.find((s) => s.blocked);
    expect(blocked && blocked.blocked && blocked.retryAfterMs).toBeGreaterThan(RATE_LIMITS.resetPerAccount.windowMs - 60_000);
    // The key ignores case and surrounding spaces.
    expect((await checkRateLimit(database.db, "resetPerAccount", " ensemble@example.com ")).blocked).toBe(true);
  });

  it("counts failures until the limit, opens again when the window ends, and a clear resets", async () => {
    const start = new Date("2026-11-21T10:00:00Z");
    const { limit, windowMs } = RATE_LIMITS.signInPerIp;
    for (let i = 0; i < limit; i++) await recordAttempt(database.db, "signInPerIp", "203.0.113.9", start);
    expect(await checkRateLimit(database.db, "signInPerIp", "203.0.113.9", start)).toEqual({ blocked: true, retryAfterMs: windowMs });
    expect((await checkRateLimit(database.db, "signInPerIp", "203.0.113.10", start)).blocked).toBe(false);

    const later = new Date(start.getTime() + windowMs);
    expect((await checkRateLimit(database.db, "signInPerIp", "203.0.113.9", later)).blocked).toBe(false);
    expect((await recordAttempt(database.db, "signInPerIp", "203.0.113.9", later)).count).toBe(1);

    for (let i = 0; i < limit; i++) await recordAttempt(database.db, "signInPerIp", "203.0.113.9", later);
    await clearRateLimit(database.db, "signInPerIp", "203.0.113.9");
    expect((await checkRateLimit(database.db, "signInPerIp", "203.0.113.9", later)).blocked).toBe(false);
  });

  it("lets exactly the sign-in limit through when 200 attempts from one address arrive together", async () => {
    const states = await Promise.all(Array.from({ length: 200 }, () => consumeRateLimit(database.db, "signInPerIp", "203.0.113.200")));
    expect(states.filter((s) => !s.blocked)).toHaveLength(RATE_LIMITS.signInPerIp.limit);
  });

  it("counts a client's network, whichever of its addresses: an IPv6 /64 as one, an IPv4 address mapped into IPv6 as itself", async () => {
    const { limit } = RATE_LIMITS.signUpPerIp;
    for (let i = 1; i <= limit; i++) expect((await consumeRateLimit(database.db, "signUpPerIp", `2001:db8:9:1::${i}`)).blocked).toBe(false);
    expect((await consumeRateLimit(database.db, "signUpPerIp", "2001:db8:9:1:abcd::1")).blocked).toBe(true);
    expect((await checkRateLimit(database.db, "signUpPerIp", "2001:db8:9:2::1")).blocked).toBe(false);

    for (let i = 0; i < limit; i++) await recordAttempt(database.db, "signUpPerIp", i % 2 ? "::ffff:192.0.2.99" : "192.0.2.99");
    expect((await checkRateLimit(database.db, "signUpPerIp", "192.0.2.99")).blocked).toBe(true);
    expect((await checkRateLimit(database.db, "signUpPerIp", "::ffff:192.0.2.99")).blocked).toBe(true);
    expect((await checkRateLimit(database.db, "signUpPerIp", "192.0.2.98")).blocked).toBe(false);
  });

  it("starts a count again at 1 when its window has ended, in the same statement", async () => {
    const start = new Date("2026-11-22T10:00:00Z");
    const { limit, windowMs } = RATE_LIMITS.signInPerAccount;
    for (let i = 0; i < limit; i++) await consumeRateLimit(database.db, "signInPerAccount", "fenetre@example.com", start);
    expect((await consumeRateLimit(database.db, "signInPerAccount", "fenetre@example.com", start)).blocked).toBe(true);
    const later = new Date(start.getTime() + windowMs);
    expect((await consumeRateLimit(database.db, "signInPerAccount", "fenetre@example.com", later)).blocked).toBe(false);
    expect((await recordAttempt(database.db, "signInPerAccount", "fenetre@example.com", later)).count).toBe(2);
  });

  it("remembers a mark for its window, renews it, and forgets it after", async () => {
    const start = new Date("2026-11-23T10:00:00Z");
    const { windowMs } = RATE_LIMITS.signInKnownAddress;
    expect(await hasMark(database.db, "signInKnownAddress", "192.0.2.1:a@example.com", start)).toBe(false);
    await setMark(database.db, "signInKnownAddress", "192.0.2.1:a@example.com", start);
    expect(await hasMark(database.db, "signInKnownAddress", "192.0.2.1:A@example.com", start)).toBe(true);
    expect(await hasMark(database.db, "signInKnownAddress", "192.0.2.2:a@example.com", start)).toBe(false);
    const end = new Date(start.getTime() + windowMs);
    expect(await hasMark(database.db, "signInKnownAddress", "192.0.2.1:a@example.com", end)).toBe(false);
    await setMark(database.db, "signInKnownAddress", "192.0.2.1:a@example.com", new Date(end.getTime() - 1000));
    expect(await hasMark(database.db, "signInKnownAddress", "192.0.2.1:a@example.com", end)).toBe(true);
  });

  it("takes back one attempt, and only one, never below 0", async () => {
    const { limit } = RATE_LIMITS.signInPerIp;
    for (let i = 0; i < limit; i++) await consumeRateLimit(database.db, "signInPerIp", "192.0.2.77");
    await refundAttempt(database.db, "signInPerIp", "192.0.2.77");
    expect((await consumeRateLimit(database.db, "signInPerIp", "192.0.2.77")).blocked).toBe(false);
    expect((await consumeRateLimit(database.db, "signInPerIp", "192.0.2.77")).blocked).toBe(true);
    await consumeRateLimit(database.db, "signInPerIp", "192.0.2.78");
    for (let i = 0; i < 3; i++) await refundAttempt(database.db, "signInPerIp", "192.0.2.78");
    expect((await recordAttempt(database.db, "signInPerIp", "192.0.2.78")).count).toBe(1);
  });

  it("keeps every sign-in key of an e-mail address erasable by that address", async () => {
    const email = "efface@example.com";
    await consumeRateLimit(database.db, "signInPerAccount", email);
    await setMark(database.db, "signInKnownAddress", accountAtAddress(email, "192.0.2.90"));
    await consumeRateLimit(database.db, "signInPerKnownAddress", accountAtAddress(email, "2001:db8::90"));
    await consumeRateLimit(database.db, "signInPerKnownAddress", accountAtAddress("autre@example.com", "192.0.2.90"));
    await eraseGuest(database.db, { email: "Efface@Example.com" });
    expect(await hasMark(database.db, "signInKnownAddress", accountAtAddress(email, "192.0.2.90"))).toBe(false);
    expect((await recordAttempt(database.db, "signInPerAccount", email)).count).toBe(1);
    expect((await recordAttempt(database.db, "signInPerKnownAddress", accountAtAddress(email, "2001:db8::90"))).count).toBe(1);
    expect((await recordAttempt(database.db, "signInPerKnownAddress", accountAtAddress("autre@example.com", "192.0.2.90"))).count).toBe(2);
  });
});
