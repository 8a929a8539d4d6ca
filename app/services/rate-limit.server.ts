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
export async function recordAttempt(db: Db, name: RateLimitName, subject: string, now = new Date()): Promise<{ count: number; resetAt: Date }> {
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
    .returning({ count: rateLimits.count, resetAt: rateLimits.resetAt });
  return row ?? { count: 1, resetAt };
}

/**
 * Counts this attempt and says whether it is over the limit, in one statement: concurrent
 * attempts cannot all slip under it (for limits on every attempt: sign-up, reset requests).
 */
export async function consumeRateLimit(db: Db, name: RateLimitName, subject: string, now = new Date()): Promise<LimitState> {
  const { count, resetAt } = await recordAttempt(db, name, subject, now);
  if (count <= RATE_LIMITS[name].limit) return { blocked: false };
  return { blocked: true, retryAfterMs: resetAt.getTime() - now.getTime() };
}

export async function clearRateLimit(db: Db, name: RateLimitName, subject: string): Promise<void> {
  await db.delete(rateLimits).where(eq(rateLimits.key, rateLimitKey(name, subject)));
}
