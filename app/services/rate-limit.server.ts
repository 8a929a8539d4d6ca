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

/**
 * Takes back one attempt counted by consumeRateLimit (a sign-in whose password was right): the
 * failures around it stay counted, so this is no reset. Never below 0.
 */
export async function refundAttempt(db: Db, name: RateLimitName, subject: string): Promise<void> {
  await db
    .update(rateLimits)
    .set({ count: sql`greatest(${rateLimits.count} - 1, 0)` })
    .where(eq(rateLimits.key, rateLimitKey(name, subject)));
}

/** Whether `subject` holds a mark of `name` that has not ended (a remembered address, not a limit). */
export async function hasMark(db: Db, name: RateLimitName, subject: string, now = new Date()): Promise<boolean> {
  const [row] = await db.select({ resetAt: rateLimits.resetAt }).from(rateLimits).where(eq(rateLimits.key, rateLimitKey(name, subject))).limit(1);
  return row !== undefined && row.resetAt > now;
}

/** Sets the mark `name` on `subject` for the rule's window from now (renewing one that exists). */
export async function setMark(db: Db, name: RateLimitName, subject: string, now = new Date()): Promise<void> {
  const resetAt = new Date(now.getTime() + RATE_LIMITS[name].windowMs);
  await db
    .insert(rateLimits)
    .values({ key: rateLimitKey(name, subject), count: 1, resetAt })
    .onConflictDoUpdate({ target: rateLimits.key, set: { count: 1, resetAt } });
}

export async function clearRateLimit(db: Db, name: RateLimitName, subject: string): Promise<void> {
  await db.delete(rateLimits).where(eq(rateLimits.key, rateLimitKey(name, subject)));
}
