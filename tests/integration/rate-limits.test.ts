import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { RATE_LIMITS } from "~/domain/rate-limits";
import { checkRateLimit, clearRateLimit, consumeRateLimit, recordAttempt } from "~/services/rate-limit.server";
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
});
