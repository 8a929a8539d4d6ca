import { and, eq, ne } from "drizzle-orm";
import { sessions, users } from "~/db/schema";
import type { Db } from "~/db/types";

/**
 * The second factor belongs to a session, not only to an account: a session opened with the
 * password alone while the account had no factor (a fresh install, after a reset, after a
 * promotion) must not become an admin session once the owner enrols. Each session records when
 * it passed a TOTP or recovery code (`sessions.second_factor_at`), and enrolling or turning the
 * factor off ends every other session of the account.
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
 *   called from records the time; an enrolment ends the account's other sessions;
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
  wrap("verifyTOTP", passed);
  wrap("verifyBackupCode", passed);
  wrap("disableTwoFactor", async (answer) => {
    const token = sessionTokenSet(answer.headers);
    if (!token) return;
    // better-auth copies the old session into the new one: it proves no factor now.
    await db.update(sessions).set({ secondFactorAt: null }).where(eq(sessions.token, token));
    await endOtherSessions(db, token);
  });
}
