import { eq, sql } from "drizzle-orm";
import { rateLimits } from "~/db/schema";
import type { Db } from "~/db/types";
import { RATE_LIMITS, type RateLimitName, rateLimitKey } from "~/domain/rate-limits";

export type LimitState = { blocked: false } | { blocked: true; retryAfterMs: number };

/** Whether `subject` has used up its attempts for `name` (without counting this one). */
export async function checkRateLimit(db: Db, name: RateLimitName, subject: string, now = new Date()): Promise<LimitState> {
  const [row] = await db.select().from(rateLimits).where(eq(rateLimits.key, rateLimitKey(name, subject))).limit(1);
  if (!row || row.resetAt <= now || row.count < RATE_LIMITS[name].limit) return { blocked: false };
  return { blocked: true, retryAfterMs: row.resetAt.getTime() - now.getTime() };
}

/**
 * Counts one attempt, atomically (one upsert: concurrent requests on several instances all
 * count); a window that has ended starts again at 1.
 */
export async function recordAttempt(db: Db, name: RateLimitName, subject: string, now = new Date()): Promise<number> {
  const resetAt = new Date(now.getTime() + RATE_LIMITS[name].windowMs);
  const [row] = await db
    .insert(rateLimits)
    .values({ key: rateLimitKey(name, subject), count: 1, resetAt })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${rateLimits.resetAt} <= ${now} then 1 else ${rateLimits.count} + 1 end`,
        resetAt: sql`case when ${rateLimits.resetAt} <= ${now} then ${resetAt} else ${rateLimits.resetAt} end`,
      },
    })
    .returning({ count: rateLimits.count });
  return row?.count ?? 1;
}

/** Checks and counts in one step: for limits on every attempt (sign-up, reset requests). */
export async function consumeRateLimit(db: Db, name: RateLimitName, subject: string, now = new Date()): Promise<LimitState> {
  const state = await checkRateLimit(db, name, subject, now);
  if (state.blocked) return state;
  await recordAttempt(db, name, subject, now);
  return state;
}

export async function clearRateLimit(db: Db, name: RateLimitName, subject: string): Promise<void> {
  await db.delete(rateLimits).where(eq(rateLimits.key, rateLimitKey(name, subject)));
}
