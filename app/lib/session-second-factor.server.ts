import { APIError } from "better-auth/api";
import { and, eq, lt, ne } from "drizzle-orm";
import { sessions, users, usedTotpCodes } from "~/db/schema";
import type { Db } from "~/db/types";

/**
 * The second factor belongs to a session, not only to an account: a session opened with the
 * password alone while the account had no factor (a fresh install, after a reset, after a
 * promotion) must not become an admin session once the owner enrols. Each session records when
 * it passed a TOTP or recovery code (`sessions.second_factor_at`), and enrolling or turning the
 * factor off ends every other session of the account.
 *
 * A TOTP code opens one session only: better-auth accepts a right code as often as it is sent
 * within its window, so each accepted code is claimed in `used_totp_codes` and a second use is
 * refused (the session it would have opened is ended at once). Recovery codes are single-use
 * in better-auth itself (a compare-and-swap on the list).
 *
 * better-auth's HTTP handler is not mounted (app/lib/auth.server.ts): every code check goes
 * through `auth.api`, whose three calls below are wrapped here, so no route, script or test
 * can pass a code without its session recording it.
 */

/** The token of better-auth's signed session cookie value (`<token>.<signature>`, URL-encoded). */
function tokenOfCookieValue(value: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    return null;
  }
  const dot = decoded.lastIndexOf(".");
  return dot > 0 ? decoded.slice(0, dot) : null;
}

const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?better-auth\.session_token=([^;]*)/;

/** The session token a request's Cookie header carries, if any. */
export function sessionTokenOfCookie(cookie: string | null | undefined): string | null {
  const value = cookie?.match(SESSION_COOKIE)?.[1];
  return value ? tokenOfCookieValue(value) : null;
}

/** The session token an answer's Set-Cookie headers give the browser (a new session), if any. */
export function sessionTokenSet(headers: Headers): string | null {
  for (const cookie of headers.getSetCookie()) {
    const token = sessionTokenOfCookie(cookie.split(";")[0]);
    if (token) return token;
  }
  return null;
}

/** Whether the session of this cookie belongs to an account that has no second factor yet (so a right code now enrols). */
async function enrolsNow(db: Db, cookie: string | null): Promise<boolean> {
  const token = sessionTokenOfCookie(cookie);
  if (!token) return false;
  const [row] = await db
    .select({ on: users.twoFactorEnabled })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.token, token));
  return row !== undefined && !row.on;
}

/** Ends every session of the account of `token` but that one. */
async function endOtherSessions(db: Db, token: string): Promise<void> {
  const [kept] = await db.select({ id: sessions.id, userId: sessions.userId }).from(sessions).where(eq(sessions.token, token));
  if (kept) await db.delete(sessions).where(and(eq(sessions.userId, kept.userId), ne(sessions.id, kept.id)));
}

/**
 * How long an accepted code stays claimed: better-auth takes the code of the current 30-second
 * step and of the steps on either side (@better-auth/utils/otp, window 1), so a code is right
 * for 90 s at most after its first use; five minutes leave room for a clock that steps back.
 */
const CODE_CLAIM_MS = 5 * 60_000;

/** Claims `code` for the account; false when it was already accepted within CODE_CLAIM_MS (a replay). */
export async function claimTotpCode(db: Db, userId: string, code: string, now = new Date()): Promise<boolean> {
  const stale = new Date(now.getTime() - CODE_CLAIM_MS);
  // One statement, so two requests with the same code cannot both see it unclaimed.
  const claimed = await db
    .insert(usedTotpCodes)
    .values({ userId, code, usedAt: now })
    .onConflictDoUpdate({ target: [usedTotpCodes.userId, usedTotpCodes.code], set: { usedAt: now }, setWhere: lt(usedTotpCodes.usedAt, stale) })
    .returning({ code: usedTotpCodes.code });
  await db.delete(usedTotpCodes).where(and(eq(usedTotpCodes.userId, userId), lt(usedTotpCodes.usedAt, stale)));
  return claimed.length === 1;
}

/** What a replayed code gets: the error better-auth gives a wrong one, with its own code for the French message. */
export const REUSED_CODE = "TOTP_CODE_REUSED";

type Call = (input: { headers?: HeadersInit; returnHeaders?: boolean; [key: string]: unknown }) => Promise<unknown>;
type Answered = { headers: Headers; response: { token?: string } };

/** Calls `call` with its headers returned, and hands back what the caller asked for. */
async function withHeaders(call: Call, input: Parameters<Call>[0], after: (answer: Answered) => Promise<void>) {
  const answer = (await call({ ...input, returnHeaders: true })) as Answered;
  await after(answer);
  return input.returnHeaders ? answer : answer.response;
}

/**
 * Wraps `auth.api`'s code checks and the factor's removal:
 * - verifyTOTP / verifyBackupCode: the session they open (sign-in), renew (enrolment) or were
 *   called from records the time; an enrolment ends the account's other sessions; a TOTP
 *   code already claimed is refused (REUSED_CODE) and the session it opened ended;
 * - disableTwoFactor: the renewed session proves no factor any more; the others end.
 */
export function bindSecondFactorToSessions(api: Record<string, unknown>, db: Db): void {
  const wrap = (name: string, after: (answer: Answered, input: Parameters<Call>[0], enrolling: boolean) => Promise<void>) => {
    const call = (api[name] as Call).bind(api);
    api[name] = async (input: Parameters<Call>[0]) => {
      const cookie = new Headers(input.headers).get("cookie");
      const enrolling = name === "verifyTOTP" && (await enrolsNow(db, cookie));
      return withHeaders(call, input, (answer) => after(answer, input, enrolling));
    };
  };
  const passed = async (answer: Answered, input: Parameters<Call>[0], enrolling: boolean) => {
    // A new cookie (sign-in, enrolment), else the session the call came with.
    const token = sessionTokenSet(answer.headers) ?? sessionTokenOfCookie(new Headers(input.headers).get("cookie")) ?? answer.response.token;
    if (!token) return;
    await db.update(sessions).set({ secondFactorAt: new Date() }).where(eq(sessions.token, token));
    if (enrolling) await endOtherSessions(db, token);
  };
  wrap("verifyTOTP", async (answer, input, enrolling) => {
    const userId = (answer.response as { user?: { id?: string } }).user?.id;
    const code = String((input.body as { code?: unknown } | undefined)?.code ?? "");
    // The enrolment's code is claimed too (so it cannot sign in again), but never refused:
    // better-auth has already turned the factor on by then.
    if (userId && !(await claimTotpCode(db, userId, code)) && !enrolling) {
      const opened = sessionTokenSet(answer.headers);
      if (opened) await db.delete(sessions).where(eq(sessions.token, opened));
      throw new APIError("UNAUTHORIZED", { code: REUSED_CODE, message: "This code was already used" });
    }
    await passed(answer, input, enrolling);
  });
  wrap("verifyBackupCode", passed);
  wrap("disableTwoFactor", async (answer) => {
    const token = sessionTokenSet(answer.headers);
    if (!token) return;
    // better-auth copies the old session into the new one: it proves no factor now.
    await db.update(sessions).set({ secondFactorAt: null }).where(eq(sessions.token, token));
    await endOtherSessions(db, token);
  });
}
