import { eq } from "drizzle-orm";
import { data, redirect } from "react-router";
import { sessions } from "~/db/schema";
import type { AppContext } from "~/lib/context";
import { SESSION_MAX_AGE_SECONDS } from "~/lib/auth.server";
import { type ViewerHint, viewerHintCookie } from "~/lib/viewer";

export type Viewer = { id: string; name: string; email: string; role: "user" | "admin"; createdAt: string };

/**
 * The headers better-auth sees: the cookie, the user agent and the client address the server
 * trusts (for the session record). Origin is left out: our actions are same-origin forms
 * protected by SameSite cookies, and the public URL may differ from the Host in tests.
 */
export function authHeaders(request: { headers: Pick<Headers, "get"> }, context: Pick<AppContext, "clientIp">): Headers {
  const headers = new Headers();
  const cookie = request.headers.get("cookie");
  if (cookie) headers.set("cookie", cookie);
  const userAgent = request.headers.get("user-agent");
  if (userAgent) headers.set("user-agent", userAgent);
  headers.set("x-forwarded-for", context.clientIp);
  return headers;
}

const viewers = new WeakMap<object, Promise<Viewer | null>>();

/**
 * Where a viewer's session stands with the second factor: the account has none yet, or has one
 * that this session passed (`sessions.second_factor_at`), or has one this session never passed
 * (opened by the password alone before the account enrolled: never an admin session).
 */
type SecondFactorState = { state: "none" | "passed" | "not-passed"; sessionId: string };
const secondFactorOf = new WeakMap<Viewer, SecondFactorState>();

/**
 * Who is signed in (checked against the sessions table), once per request. The answer then
 * depends on the visitor: it is marked personal, so no shared cache ever stores it.
 */
export function getViewer(request: Request, context: AppContext): Promise<Viewer | null> {
  context.markPersonal?.();
  // A post's action may sign in or out before its loaders run: they read again.
  const scope = (request.method === "GET" && context.requestScope) || request;
  let viewer = viewers.get(scope);
  if (!viewer) {
    viewer = readViewer(request, context);
    viewers.set(scope, viewer);
  }
  return viewer;
}

function readViewer(request: Request, context: AppContext): Promise<Viewer | null> {
  return viewerFromHeaders(request.headers, context);
}

/** An admin's session ends 12 hours after sign-in, whatever its use (customers keep 30 days). */
export const ADMIN_SESSION_MAX_AGE_MS = 12 * 60 * 60 * 1000;
/** …and after 1 hour without a request. */
export const ADMIN_SESSION_IDLE_MS = 60 * 60 * 1000;
/** An admin's activity is written at most once a minute (the idle limit's precision). */
const ADMIN_ACTIVITY_WRITE_MS = 60 * 1000;

/**
 * Whether an admin's session, signed in at `createdAt` and last used at `activeAt`, is over at
 * `now`: 12 hours after sign-in, or 1 hour idle.
 */
export function adminSessionExpired(session: { createdAt: Date; activeAt: Date }, now: number): boolean {
  return now - session.createdAt.getTime() >= ADMIN_SESSION_MAX_AGE_MS || now - session.activeAt.getTime() >= ADMIN_SESSION_IDLE_MS;
}

/** Who is signed in, from a request's headers (also used outside React Router: the checkout endpoint). */
export async function viewerFromHeaders(
  headers: Pick<Headers, "get">,
  context: Pick<AppContext, "auth" | "clientIp"> & Partial<Pick<AppContext, "db">>,
): Promise<Viewer | null> {
  // No cookie, no session: anonymous pages skip the lookup (and stay shareable).
  if (!headers.get("cookie")?.includes("session_token")) return null;
  const result = await context.auth.api.getSession({ headers: authHeaders({ headers }, context) }).catch(() => null);
  if (!result) return null;
  const user = result.user as typeof result.user & { role?: string; twoFactorEnabled?: boolean | null };
  const session = result.session as typeof result.session & { secondFactorAt?: Date | string | null };
  if (user.role === "admin" && !(await adminSessionStillValid(result.session, context))) return null;
  const viewer: Viewer = {
    id: user.id,
    name: user.name,
    email: user.email,
    role: user.role === "admin" ? "admin" : "user",
    createdAt: new Date(user.createdAt).toISOString(),
  };
  const state = !user.twoFactorEnabled ? "none" : session.secondFactorAt ? "passed" : "not-passed";
  secondFactorOf.set(viewer, { state, sessionId: session.id });
  return viewer;
}

/** Whether the signed-in viewer's session passed its account's second factor. */
export function hasSecondFactor(viewer: Viewer): boolean {
  return secondFactorOf.get(viewer)?.state === "passed";
}

/** Where an admin without a second factor enrols one; no other admin page opens before. */
export const ADMIN_SECURITY_PATH = "/admin/securite";

/**
 * An admin's session past its 12 hours or idle for an hour is deleted (the admin signs in
 * again, everywhere in the shop); a live one records its use (`updatedAt`, at most once a minute).
 * Without the database at hand (the checkout endpoint), an expired session is only refused.
 */
async function adminSessionStillValid(
  session: { id: string; createdAt: Date | string; updatedAt: Date | string },
  context: Partial<Pick<AppContext, "db">>,
): Promise<boolean> {
  const now = Date.now();
  const activeAt = new Date(session.updatedAt);
  const createdAt = new Date(session.createdAt);
  const { db } = context;
  if (adminSessionExpired({ createdAt, activeAt }, now)) {
    await db?.delete(sessions).where(eq(sessions.id, session.id));
    return false;
  }
  if (db && now - activeAt.getTime() >= ADMIN_ACTIVITY_WRITE_MS) {
    await db.update(sessions).set({ updatedAt: new Date(now) }).where(eq(sessions.id, session.id));
  }
  return true;
}

/** The Set-Cookie header of the browser's hint of who is signed in (app/lib/viewer.ts); null clears it. */
export function viewerHintHeader(viewer: ViewerHint | null, context: Pick<AppContext, "publicUrl">): string {
  return viewerHintCookie(viewer && { name: viewer.name, role: viewer.role }, {
    secure: context.publicUrl.startsWith("https:"),
    maxAgeSeconds: SESSION_MAX_AGE_SECONDS,
  });
}

export async function requireViewer(request: Request, context: AppContext): Promise<Viewer> {
  const viewer = await getViewer(request, context);
  if (!viewer) throw redirect("/login");
  return viewer;
}

/**
 * A write sent by a page of this shop: its Origin (or, without one, Sec-Fetch-Site) says so.
 * A browser always sends one of them with a cross-site form or fetch; a request with neither
 * comes from a script holding its own cookie, which no other site can make a browser send.
 */
export function isSameOriginPost(request: Request, publicUrl: string): boolean {
  const origin = request.headers.get("origin");
  if (origin) return origin === new URL(request.url).origin || origin === new URL(publicUrl).origin;
  const site = request.headers.get("sec-fetch-site");
  return site === null || site === "same-origin";
}

/**
 * Every admin loader and action calls this (React Router may run a child loader without its
 * parent's). Pages: signed out → /admin/login, not an admin → /admin/unauthorized, an admin
 * without a second factor → /admin/securite (only that page passes `enrolling`), a session that
 * never passed its account's second factor → ended, /admin/login. Actions and APIs: 401 / 403.
 */
export async function requireAdmin(
  request: Request,
  context: AppContext,
  kind: "page" | "api" = "page",
  options: { enrolling?: boolean } = {},
): Promise<Viewer> {
  const api = kind === "api" || request.method !== "GET";
  if (request.method !== "GET" && request.method !== "HEAD" && !isSameOriginPost(request, context.publicUrl)) {
    throw data({ error: "Requête refusée : elle doit venir du site de la boutique." }, { status: 403 });
  }
  const viewer = await getViewer(request, context);
  if (!viewer) {
    throw api ? data({ error: "Connexion requise." }, { status: 401 }) : redirect("/admin/login");
  }
  if (viewer.role !== "admin") {
    throw api ? data({ error: "Accès refusé." }, { status: 403 }) : redirect("/admin/unauthorized");
  }
  const secondFactor = secondFactorOf.get(viewer);
  if (secondFactor?.state === "not-passed") {
    // The account enrolled after this session opened: it ends, and its holder signs in with a code.
    await context.db.delete(sessions).where(eq(sessions.id, secondFactor.sessionId));
    throw api ? data({ error: "Connexion requise." }, { status: 401 }) : redirect("/admin/login");
  }
  if (!options.enrolling && !hasSecondFactor(viewer)) {
    throw api
      ? data({ error: "Double authentification requise : configurez-la sur /admin/securite." }, { status: 403 })
      : redirect(ADMIN_SECURITY_PATH);
  }
  return viewer;
}
