import { eq } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { sessions } from "~/db/schema";
import { type Auth, createAuth } from "~/lib/auth.server";
import type { AppContext } from "~/lib/context";
import * as shippingRoute from "~/routes/admin/shipping";
import { getViewer } from "~/services/session.server";
import { createUserWithPassword } from "~/services/users.server";
import { outcome } from "./route-outcome";
import { databaseLabel, openTestDatabase } from "./test-database";
import { signInAdminWithCode } from "./admin-second-factor";

/**
 * Admin sessions end 12 hours after sign-in and after 1 hour idle, checked through an admin
 * loader as the server calls it (real sessions, their timestamps moved back in the database);
 * a customer's session of the same age lives on.
 */
const ORIGIN = "http://shop.test";
const PASSWORD = "Ronflex-2026-secret";
const HOUR = 60 * 60 * 1000;
const ADMIN = "vendeur@comptoir.test";

describe(`admin session lifetime on ${databaseLabel}`, () => {
  let database: Database;
  let auth: Auth;
  let context: AppContext;

  /** The session's cookie and its token (the admin's with the second factor, enrolled on first sign-in). */
  async function signIn(email: string): Promise<{ cookie: string; token: string }> {
    if (email === ADMIN) {
      const cookie = await signInAdminWithCode(auth, email, PASSWORD);
      const token = decodeURIComponent(cookie.match(/session_token=([^;]+)/)![1]!).split(".")[0]!;
      return { cookie, token };
    }
    const result = await auth.api.signInEmail({ body: { email, password: PASSWORD }, headers: new Headers(), returnHeaders: true });
    return { cookie: result.headers.getSetCookie().map((c) => c.split(";")[0]).join("; "), token: result.response.token };
  }
  /** The session signed in `createdHoursAgo` and last used `activeHoursAgo`. */
  const age = (token: string, createdHoursAgo: number, activeHoursAgo: number) =>
    database.db
      .update(sessions)
      .set({ createdAt: new Date(Date.now() - createdHoursAgo * HOUR), updatedAt: new Date(Date.now() - activeHoursAgo * HOUR) })
      .where(eq(sessions.token, token));
  const sessionRow = async (token: string) => (await database.db.select().from(sessions).where(eq(sessions.token, token)))[0];
  const load = (cookie: string) =>
    outcome(() =>
      shippingRoute.loader({ request: new Request(`${ORIGIN}/admin/shipping`, { headers: { cookie } }), context, params: {} } as unknown as Parameters<
        typeof shippingRoute.loader
      >[0]),
    );
  const viewerOf = (cookie: string) => getViewer(new Request(`${ORIGIN}/account`, { headers: { cookie } }), context);

  beforeAll(async () => {
    database = await openTestDatabase();
    const noMail = async () => {};
    auth = createAuth({
      db: database.db,
      secret: "integration-secret-admin-session-0123456789",
      baseUrl: ORIGIN,
      mail: { verification: noMail, existingAccount: noMail, passwordReset: noMail },
    });
    context = { db: database.db, auth, publicUrl: ORIGIN, clientIp: "203.0.113.9", logger: pino({ level: "silent" }) } as unknown as AppContext;
    await createUserWithPassword(database.db, { name: "Vendeur", email: ADMIN, password: PASSWORD, role: "admin", emailVerified: true });
    await createUserWithPassword(database.db, { name: "Cliente", email: "cliente@example.com", password: PASSWORD, role: "user", emailVerified: true });
  });
  afterAll(async () => {
    await database?.close();
  });

  it("lets a fresh admin session in, and records its use", async () => {
    const admin = await signIn(ADMIN);
    expect((await load(admin.cookie)).status).toBe(200);
    await age(admin.token, 2, 0.5);
    expect((await load(admin.cookie)).status).toBe(200);
    // The use just made is written: the session was active a moment ago, not 30 minutes ago.
    expect(Date.now() - (await sessionRow(admin.token))!.updatedAt.getTime()).toBeLessThan(60_000);
  });

  it("ends an admin session idle for an hour: back to /admin/login, the session deleted", async () => {
    const admin = await signIn(ADMIN);
    await age(admin.token, 2, 0.95);
    expect((await load(admin.cookie)).status).toBe(200);
    await age(admin.token, 2, 1.01);
    expect(await load(admin.cookie)).toMatchObject({ status: 302, location: "/admin/login" });
    expect(await sessionRow(admin.token)).toBeUndefined();
    // Signed out everywhere in the shop, not only in the admin area.
    expect(await viewerOf(admin.cookie)).toBeNull();
  });

  it("ends an admin session 12 hours after sign-in even when used every minute", async () => {
    const admin = await signIn(ADMIN);
    await age(admin.token, 11.9, 0);
    expect((await load(admin.cookie)).status).toBe(200);
    await age(admin.token, 12.01, 0);
    expect(await load(admin.cookie)).toMatchObject({ status: 302, location: "/admin/login" });
    expect(await sessionRow(admin.token)).toBeUndefined();
  });

  it("reads the session once per request, though each loader gets its own copy of the Request, and again after a post's action", async () => {
    const admin = await signIn(ADMIN);
    const perRequest = { ...context, requestScope: {} } as AppContext;
    // As React Router calls the layout's and the page's loaders: two copies of one GET.
    const copy = () => new Request(`${ORIGIN}/admin`, { headers: { cookie: admin.cookie } });
    const first = getViewer(copy(), perRequest);
    expect(getViewer(copy(), perRequest)).toBe(first);
    expect(await first).toMatchObject({ email: ADMIN, role: "admin" });
    // Another request reads again; so does a post's loader (its action may have signed out).
    expect(getViewer(copy(), { ...context, requestScope: {} } as AppContext)).not.toBe(first);
    const post = () => new Request(`${ORIGIN}/admin`, { method: "POST", headers: { cookie: admin.cookie } });
    expect(getViewer(post(), perRequest)).not.toBe(getViewer(post(), perRequest));
  });

  it("keeps a customer's session of the same age (30 days, renewed daily)", async () => {
    const customer = await signIn("cliente@example.com");
    await age(customer.token, 13, 5);
    expect(await viewerOf(customer.cookie)).toMatchObject({ email: "cliente@example.com", role: "user" });
    expect(await sessionRow(customer.token)).toBeDefined();
  });
});
