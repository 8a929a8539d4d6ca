import { eq } from "drizzle-orm";
import jsQR from "jsqr";
import pino from "pino";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database } from "~/db/client.server";
import { outboxEmails, sessions, twoFactors, users } from "~/db/schema";
import { type Auth, createAuth } from "~/lib/auth.server";
import { RATE_LIMITS } from "~/domain/rate-limits";
import type { AppContext } from "~/lib/context";
import * as layoutRoute from "~/routes/admin/layout";
import * as loginRoute from "~/routes/admin/login";
import * as customerLoginRoute from "~/routes/login";
import * as securityRoute from "~/routes/admin/security";
import * as shippingRoute from "~/routes/admin/shipping";
import * as usersRoute from "~/routes/admin/users";
import { createUserWithPassword } from "~/services/users.server";
import { claimTotpCode } from "~/lib/session-second-factor.server";
import { outcome, type RouteAnswer } from "./route-outcome";
import { databaseLabel, openTestDatabase } from "./test-database";
import { advanceTotpClockWith, secretOfOtpauth, staleTotpCode, totpCode, unusedTotpCode } from "../support/totp";

/**
 * The admin's TOTP second factor through the routes as the server calls them (real sessions,
 * better-auth's two-factor plugin): an admin without one reaches no admin page but
 * /admin/securite; enrolment asks for the password and a first right code; sign-in then takes
 * the password and a code (or a recovery code, once); wrong codes are refused; the reset asks
 * for the password. A code opens one session: its second use within its window is refused, the
 * enrolment's code included. Codes are computed here from the secret (RFC 6238, tests/support/totp.ts).
 */
const ORIGIN = "http://shop.test";
const PASSWORD = "Ronflex-2026-secret";
const ADMIN = "vendeuse@comptoir.test";

type AnyArgs = { request: Request; context: AppContext; params: Record<string, string> };
/** The text of a QR code given as an SVG data: URL, drawn to pixels (sharp) and decoded (jsQR). */
async function readQrCode(dataUrl: string): Promise<string | undefined> {
  const svg = Buffer.from(dataUrl.replace(/^data:image\/svg\+xml;base64,/, ""), "base64");
  const { data, info } = await sharp(svg).resize(400, 400).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return jsQR(new Uint8ClampedArray(data), info.width, info.height)?.data;
}

/** The cookies a redirect or answer set, merged into the browser's. */
function merge(cookie: string, answer: RouteAnswer & { headers?: Headers }): string {
  const jar = new Map(cookie.split("; ").filter(Boolean).map((pair) => [pair.split("=")[0]!, pair] as const));
  for (const set of answer.headers?.getSetCookie() ?? []) {
    const pair = set.split(";")[0]!;
    const name = pair.split("=")[0]!;
    if (pair.endsWith("=")) jar.delete(name);
    else jar.set(name, pair);
  }
  return [...jar.values()].join("; ");
}

describe(`admin second factor (TOTP) on ${databaseLabel}`, () => {
  let database: Database;
  let auth: Auth;
  const resetTokens = new Map<string, string>();
  let context: AppContext;

  /** Runs a loader or action; the answer with its headers (Set-Cookie). */
  async function run(handler: (args: AnyArgs) => unknown, path: string, cookie: string, form?: Record<string, string>) {
    const request = new Request(`${ORIGIN}${path}`, form ? { method: "POST", headers: { cookie, origin: ORIGIN }, body: new URLSearchParams(form) } : { headers: { cookie } });
    let headers = new Headers();
    const answer = await outcome(async () => {
      try {
        const result = await handler({ request, context, params: {} });
        if (result && typeof result === "object" && "init" in result) headers = new Headers((result as { init?: { headers?: HeadersInit } }).init?.headers);
        return result;
      } catch (thrown) {
        if (thrown instanceof Response) headers = thrown.headers;
        throw thrown;
      }
    });
    return { ...answer, headers };
  }
  const login = (cookie: string, form: Record<string, string>) => run(loginRoute.action as never, "/admin/login", cookie, form);
  const security = (cookie: string, form?: Record<string, string>) =>
    form ? run(securityRoute.action as never, "/admin/securite", cookie, form) : run(securityRoute.loader as never, "/admin/securite", cookie);
  const notices = () => database.db.select({ to: outboxEmails.to, kind: outboxEmails.kind, subject: outboxEmails.subject }).from(outboxEmails).orderBy(outboxEmails.seq);
  const adminPage = (cookie: string) => run(layoutRoute.loader as never, "/admin", cookie);
  const shipping = (cookie: string) => run(shippingRoute.loader as never, "/admin/shipping", cookie);

  beforeAll(async () => {
    // The shop's clock (Date, running) moves on by itself and jumps to the next 30-second step
    // when a test has sent the three codes the shop takes now, instead of waiting for it.
    vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
    advanceTotpClockWith((ms) => vi.setSystemTime(Date.now() + ms));
    database = await openTestDatabase();
    const noMail = async () => {};
    auth = createAuth({
      db: database.db,
      secret: "integration-secret-two-factor-0123456789abc",
      baseUrl: ORIGIN,
      mail: { verification: noMail, existingAccount: noMail, passwordReset: async (user, token) => void resetTokens.set(user.email, token) },
    });
    context = {
      db: database.db,
      auth,
      publicUrl: ORIGIN,
      clientIp: "203.0.113.20",
      logger: pino({ level: "silent" }),
      shop: { name: "Comptoir", email: "contact@comptoir.test" },
      kickMail: () => {},
    } as unknown as AppContext;
    await createUserWithPassword(database.db, { name: "Vendeuse", email: ADMIN, password: PASSWORD, role: "admin", emailVerified: true });
  });
  afterAll(async () => {
    advanceTotpClockWith(null);
    vi.useRealTimers();
    await database?.close();
  });

  let secret = "";
  let recoveryCodes: string[] = [];

  it("sends an admin without a second factor to /admin/securite from every admin page, and refuses its actions", async () => {
    const signedIn = await login("", { email: ADMIN, password: PASSWORD });
    expect(signedIn).toMatchObject({ status: 302 });
    const cookie = merge("", signedIn);
    expect(await adminPage(cookie)).toMatchObject({ status: 302, location: "/admin/securite" });
    expect(await shipping(cookie)).toMatchObject({ status: 302, location: "/admin/securite" });
    const write = await run(shippingRoute.action as never, "/admin/shipping", cookie, { intent: "toggle", id: "1", active: "false" });
    expect(write.status).toBe(403);
    expect(await security(cookie)).toMatchObject({ status: 200, body: { enrolled: false } });
  });

  it("enrols: the password asked again, a wrong code refused, the right code turns it on", async () => {
    let cookie = merge("", await login("", { email: ADMIN, password: PASSWORD }));
    expect(await security(cookie, { intent: "start", password: "pas-le-bon-mot-de-passe" })).toMatchObject({
      status: 401,
      body: { failure: { title: "Mot de passe incorrect" } },
    });
    const started = await security(cookie, { intent: "start", password: PASSWORD });
    expect(started.status).toBe(200);
    const enrolment = (started.body as { enrolment: { totpUri: string; qrCode: string; secret: string; recoveryCodes: string[] } }).enrolment;
    expect(enrolment.totpUri).toMatch(/^otpauth:\/\/totp\/Comptoir:vendeuse%40comptoir\.test\?/);
    // The QR code, read back as a phone's camera would: the same URI.
    expect(await readQrCode(enrolment.qrCode)).toBe(enrolment.totpUri);
    secret = secretOfOtpauth(enrolment.totpUri);
    expect(enrolment.secret).toBe(secret);
    recoveryCodes = enrolment.recoveryCodes;
    expect(recoveryCodes).toHaveLength(10);
    // The secret and the codes are stored encrypted, not as shown.
    const [row] = await database.db.select().from(twoFactors);
    expect(row!.secret).not.toContain(secret);
    expect(row!.backupCodes).not.toContain(recoveryCodes[0]);

    const wrong = await security(cookie, { intent: "confirm", code: staleTotpCode(secret), totpUri: enrolment.totpUri });
    expect(wrong).toMatchObject({ status: 401, body: { failure: { title: "Code incorrect" }, enrolment: { secret } } });
    expect(await adminPage(cookie)).toMatchObject({ status: 302, location: "/admin/securite" });

    const confirmed = await security(cookie, { intent: "confirm", code: await unusedTotpCode(secret), totpUri: enrolment.totpUri });
    expect(confirmed).toMatchObject({ status: 302, location: "/admin?notice=admin-connecte" });
    cookie = merge(cookie, confirmed);
    expect((await adminPage(cookie)).status).toBe(200);
    expect((await shipping(cookie)).status).toBe(200);
    expect((await database.db.select({ on: users.twoFactorEnabled }).from(users).where(eq(users.email, ADMIN)))[0]!.on).toBe(true);
    // The admin's own address is told (an enrolment made by someone else who had the password shows there).
    expect(await notices()).toEqual([{ to: ADMIN, kind: "second-factor-on", subject: "Double authentification activée – Comptoir" }]);
  });

  it("signs in with the password then the code: no session before the code, a wrong code refused, the right one lets in", async () => {
    const first = await login("", { email: ADMIN, password: PASSWORD });
    expect(first).toMatchObject({ status: 302, location: "/admin/login?etape=code" });
    const pending = merge("", first);
    expect(pending).toContain("two_factor=");
    expect(pending).not.toContain("session_token=");
    expect(await adminPage(pending)).toMatchObject({ status: 302, location: "/admin/login" });
    expect(await run(loginRoute.loader as never, "/admin/login?etape=code", pending)).toMatchObject({ status: 200, body: { step: "code" } });

    expect(await login(pending, { intent: "code", code: staleTotpCode(secret) })).toMatchObject({
      status: 401,
      body: { step: "code", failure: { title: "Code incorrect" } },
    });
    expect(await login(pending, { intent: "code", code: "abc" })).toMatchObject({ status: 401, body: { failure: { title: "Code incorrect" } } });
    const done = await login(pending, { intent: "code", code: await unusedTotpCode(secret) });
    expect(done).toMatchObject({ status: 302, location: "/admin?notice=admin-connecte" });
    const cookie = merge(pending, done);
    expect(cookie).toContain("session_token=");
    expect((await adminPage(cookie)).status).toBe(200);
    // The challenge is spent: the same cookie cannot open a second session.
    expect((await login(pending, { intent: "code", code: totpCode(secret) })).body).toMatchObject({ step: "password" });
  });

  describe("a code opens one session", () => {
    const sessionCount = async () => (await database.db.select({ id: sessions.id }).from(sessions)).length;
    const REUSED = { status: 401, body: { step: "password", restart: true, failure: { title: "Code déjà utilisé" } } };
    // Refused codes count on the address's sign-in limit: these tries come from an address of their own.
    const own = { clientIp: "" };
    beforeAll(() => {
      own.clientIp = context.clientIp;
      Object.assign(context, { clientIp: "192.0.2.49" });
    });
    afterAll(() => {
      Object.assign(context, { clientIp: own.clientIp });
    });

    it("refuses a right code on its second use within its window, and opens no session with it", async () => {
      const code = await unusedTotpCode(secret);
      const first = merge("", await login("", { email: ADMIN, password: PASSWORD }));
      expect(await login(first, { intent: "code", code })).toMatchObject({ status: 302, location: "/admin?notice=admin-connecte" });
      // Seen over the shoulder and typed at once elsewhere, with the password: still refused.
      const second = merge("", await login("", { email: ADMIN, password: PASSWORD }));
      const before = await sessionCount();
      const replayed = await login(second, { intent: "code", code });
      expect(replayed).toMatchObject(REUSED);
      expect(merge(second, replayed)).not.toContain("session_token=");
      expect(await sessionCount()).toBe(before);
      // The next code of the app lets the admin in.
      const again = merge("", await login("", { email: ADMIN, password: PASSWORD }));
      expect(await login(again, { intent: "code", code: await unusedTotpCode(secret) })).toMatchObject({ status: 302 });
    });

    it("lets one of two simultaneous sign-ins with the same code in", async () => {
      const code = await unusedTotpCode(secret);
      const pendings = await Promise.all([1, 2, 3].map(async () => merge("", await login("", { email: ADMIN, password: PASSWORD }))));
      const before = await sessionCount();
      const answers = await Promise.all(pendings.map((pending) => login(pending, { intent: "code", code })));
      expect(answers.map((answer) => answer.status).sort()).toEqual([302, 401, 401]);
      for (const refused of answers.filter((answer) => answer.status === 401)) expect(refused).toMatchObject(REUSED);
      expect(await sessionCount()).toBe(before + 1);
    });

    it("counts a code as claimed for five minutes, then frees it (a code comes back after a million steps at most)", async () => {
      const [admin] = await database.db.select({ id: users.id }).from(users).where(eq(users.email, ADMIN));
      const at = new Date("2026-11-28T10:00:00Z");
      expect(await claimTotpCode(database.db, admin!.id, "424242", at)).toBe(true);
      expect(await claimTotpCode(database.db, admin!.id, "424242", new Date(at.getTime() + 90_000))).toBe(false);
      expect(await claimTotpCode(database.db, admin!.id, "424242", new Date(at.getTime() + 299_000))).toBe(false);
      expect(await claimTotpCode(database.db, admin!.id, "424242", new Date(at.getTime() + 301_000))).toBe(true);
    });
  });

  it("takes a recovery code once instead of the app's code, even sent twice at the same time", async () => {
    const pending = merge("", await login("", { email: ADMIN, password: PASSWORD }));
    const done = await login(pending, { intent: "code", code: recoveryCodes[0]! });
    expect(done).toMatchObject({ status: 302 });
    expect((await adminPage(merge(pending, done))).status).toBe(200);
    const again = merge("", await login("", { email: ADMIN, password: PASSWORD }));
    expect(await login(again, { intent: "code", code: recoveryCodes[0]! })).toMatchObject({ status: 401, body: { failure: { title: "Code incorrect" } } });

    const both = await Promise.all([1, 2].map(async () => merge("", await login("", { email: ADMIN, password: PASSWORD }))));
    const answers = await Promise.all(both.map((pending) => login(pending, { intent: "code", code: recoveryCodes[1]! })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([302, 401]);
  });

  it("refuses the customer sign-in form for an admin with a second factor (no session)", async () => {
    const answer = await run(customerLoginRoute.action as never, "/login", "", { email: ADMIN, password: PASSWORD });
    expect(answer).toMatchObject({ status: 403, body: { failure: { title: "Compte d'administration" } } });
    expect(merge("", answer)).not.toContain("session_token=");
  });

  it("counts codes on the network's sign-in limit, before they are checked: a stolen password does not open unlimited guessing", async () => {
    const own = context.clientIp;
    // Each post from another address of one IPv6 /64: one count all the same.
    let n = 0;
    const loginFrom = (network: string, cookie: string, form: Record<string, string>) => {
      Object.assign(context, { clientIp: `${network}::${(++n).toString(16)}` });
      return login(cookie, form);
    };
    try {
      const limit = RATE_LIMITS.signInPerIp.limit;
      for (let i = 0; i < limit - 3; i++) expect((await loginFrom("2001:db8:77:1", "", { email: ADMIN, password: `devine-${i}` })).status).toBe(401);
      // The right password takes back its own attempt; each wrong code keeps its own.
      const pending = merge("", await loginFrom("2001:db8:77:1", "", { email: ADMIN, password: PASSWORD }));
      for (let i = 0; i < 3; i++) expect(await loginFrom("2001:db8:77:1", pending, { intent: "code", code: staleTotpCode(secret) })).toMatchObject({ status: 401 });
      // The limit is reached: even the right code is refused unread, and the challenge stays unused.
      expect(await loginFrom("2001:db8:77:1", pending, { intent: "code", code: totpCode(secret) })).toMatchObject({ status: 429, body: { failure: { title: "Trop de tentatives" } } });
      expect((await loginFrom("2001:db8:77:1", "", { email: ADMIN, password: PASSWORD })).status).toBe(429);
      // Another /64 is another client: its codes are checked.
      expect(await loginFrom("2001:db8:77:2", pending, { intent: "code", code: staleTotpCode(secret) })).toMatchObject({ status: 401, body: { failure: { title: "Code incorrect" } } });
    } finally {
      Object.assign(context, { clientIp: own });
    }
  });

  it("resets the second factor only with the password; the admin must then enrol again", async () => {
    const pending = merge("", await login("", { email: ADMIN, password: PASSWORD }));
    let cookie = merge(pending, await login(pending, { intent: "code", code: await unusedTotpCode(secret) }));
    expect(await security(cookie)).toMatchObject({ status: 200, body: { enrolled: true } });
    expect(await security(cookie, { intent: "reset", password: "pas-le-bon-mot-de-passe" })).toMatchObject({ status: 401 });
    expect((await adminPage(cookie)).status).toBe(200);
    const reset = await security(cookie, { intent: "reset", password: PASSWORD });
    expect(reset).toMatchObject({ status: 302, location: "/admin/securite" });
    cookie = merge(cookie, reset);
    expect(await adminPage(cookie)).toMatchObject({ status: 302, location: "/admin/securite" });
    expect(await database.db.select().from(twoFactors)).toEqual([]);
    expect((await notices()).map((email) => email.kind)).toEqual(["second-factor-on", "second-factor-off"]);
  });

  describe("the second factor belongs to the session", () => {
    const OWNER = "gerante@comptoir.test";
    let ownerId = "";
    let ownerSecret = "";
    const own = { clientIp: "" };
    const tokenOf = (cookie: string) => decodeURIComponent(cookie.match(/session_token=([^;]+)/)![1]!).split(".")[0]!;
    const sessionRow = async (cookie: string) => (await database.db.select().from(sessions).where(eq(sessions.token, tokenOf(cookie))))[0];
    const signInWithCode = async () => {
      const pending = merge("", await login("", { email: OWNER, password: PASSWORD }));
      return merge(pending, await login(pending, { intent: "code", code: await unusedTotpCode(ownerSecret) }));
    };

    beforeAll(async () => {
      own.clientIp = context.clientIp;
      Object.assign(context, { clientIp: "192.0.2.48" });
      ({ id: ownerId } = await createUserWithPassword(database.db, { name: "Gérante", email: OWNER, password: PASSWORD, role: "admin", emailVerified: true }));
    });
    afterAll(() => {
      Object.assign(context, { clientIp: own.clientIp });
    });

    it("a session opened with the password before the owner enrols never becomes an admin session", async () => {
      // Someone who has the password signs in while the account has no second factor yet, and
      // waits on /admin/securite without enrolling (no alert e-mail goes).
      const waiting = merge("", await login("", { email: OWNER, password: PASSWORD }));
      expect(await security(waiting)).toMatchObject({ status: 200, body: { enrolled: false } });
      // The owner enrols from their own browser.
      const owner = merge("", await login("", { email: OWNER, password: PASSWORD }));
      const started = await security(owner, { intent: "start", password: PASSWORD });
      const totpUri = (started.body as { enrolment: { totpUri: string } }).enrolment.totpUri;
      ownerSecret = secretOfOtpauth(totpUri);
      const enrolmentCode = await unusedTotpCode(ownerSecret);
      const enrolled = merge(owner, await security(owner, { intent: "confirm", code: enrolmentCode, totpUri }));
      expect((await adminPage(enrolled)).status).toBe(200);
      // The waiting session ended with the enrolment: no admin page, no admin action.
      expect(await run(usersRoute.loader as never, "/admin/users", waiting)).toMatchObject({ status: 302, location: "/admin/login" });
      expect(await adminPage(waiting)).toMatchObject({ status: 302, location: "/admin/login" });
      expect((await run(shippingRoute.action as never, "/admin/shipping", waiting, { intent: "toggle", id: "1", active: "false" })).status).toBe(401);
      expect(await sessionRow(waiting)).toBeUndefined();
      expect((await sessionRow(enrolled))!.secondFactorAt).toBeInstanceOf(Date);
      // The enrolment's code, right now (still within its window): it opened the enrolled session, it opens no other.
      const pending = merge("", await login("", { email: OWNER, password: PASSWORD }));
      expect(await login(pending, { intent: "code", code: enrolmentCode })).toMatchObject({ status: 401, body: { restart: true, failure: { title: "Code déjà utilisé" } } });
    });

    it("a session that never passed the account's second factor is ended at its first admin page", async () => {
      const cookie = await signInWithCode();
      expect((await adminPage(cookie)).status).toBe(200);
      // As a session from before this check existed: the account has a factor, the session no proof.
      await database.db.update(sessions).set({ secondFactorAt: null }).where(eq(sessions.token, tokenOf(cookie)));
      expect(await adminPage(cookie)).toMatchObject({ status: 302, location: "/admin/login" });
      expect(await sessionRow(cookie)).toBeUndefined();
      expect(await security(cookie)).toMatchObject({ status: 302, location: "/admin/login" });
    });

    it("a reset ends the account's other sessions, and the renewed one proves no factor", async () => {
      const here = await signInWithCode();
      const elsewhere = await signInWithCode();
      expect((await adminPage(elsewhere)).status).toBe(200);
      const reset = merge(here, await security(here, { intent: "reset", password: PASSWORD }));
      expect((await sessionRow(reset))!.secondFactorAt).toBeNull();
      expect(await adminPage(reset)).toMatchObject({ status: 302, location: "/admin/securite" });
      expect(await sessionRow(elsewhere)).toBeUndefined();
      expect(await adminPage(elsewhere)).toMatchObject({ status: 302, location: "/admin/login" });
      expect((await database.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, ownerId))).length).toBe(1);
    });

    it("a password change ends every session of the account", async () => {
      const cookie = merge("", await login("", { email: OWNER, password: PASSWORD }));
      expect(await sessionRow(cookie)).toBeDefined();
      await auth.api.requestPasswordReset({ body: { email: OWNER, redirectTo: `${ORIGIN}/reset-password` } });
      await auth.api.resetPassword({ body: { token: resetTokens.get(OWNER)!, newPassword: "Ronflex-2027-nouveau" } });
      expect(await database.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, ownerId))).toEqual([]);
      expect(await security(cookie)).toMatchObject({ status: 302, location: "/admin/login" });
    });
  });
});
