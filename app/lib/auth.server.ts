import { betterAuth } from "better-auth";
import { eq } from "drizzle-orm";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { twoFactor } from "better-auth/plugins";
import { accounts, sessions, twoFactors, users, verifications } from "~/db/schema";
import type { Db } from "~/db/types";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "~/domain/auth-forms";
import { SESSION_MAX_AGE_SECONDS, TWO_FACTOR_COOKIE_SECONDS } from "~/domain/browser-storage";
import { bindSecondFactorToSessions } from "./session-second-factor.server";

/** How long a session lasts (renewed daily while used); the header's hint cookie lasts as long. */
export { SESSION_MAX_AGE_SECONDS };

/** What better-auth needs to reach the customer: the auth e-mails go through the outbox. */
export type AuthMail = {
  verification(user: { email: string; name: string }, token: string): Promise<void>;
  passwordReset(user: { email: string; name: string }, token: string): Promise<void>;
  /** Someone signed up with this account's address (the sign-up itself answers as usual). */
  existingAccount(user: { email: string; name: string }): Promise<void>;
  /** A reset link set a new password: its owner is told (tests that do not look may leave it out). */
  passwordChanged?(user: { email: string; name: string }): Promise<void>;
};

/** The issuer an authenticator app shows next to the admin's address. */
export const TOTP_ISSUER = "Comptoir";

/**
 * Whether a sign-in's Set-Cookie headers carry better-auth's `two_factor` cookie: the password
 * was right, the account has a second factor, and no session exists until a code is given
 * (/admin/login's second step).
 */
export function secondFactorPending(headers: Headers): boolean {
  return headers.getSetCookie().some((cookie) => /^[^=]*two_factor=[^;]/.test(cookie));
}

/**
 * better-auth on our Drizzle database: e-mail and password, sessions in the database, a role
 * kept on the server. Its HTTP handler is not mounted: route actions call `auth.api` after
 * validating and rate-limiting, so no endpoint bypasses those checks.
 */
export function createAuth(options: { db: Db; secret: string; baseUrl: string; mail: AuthMail }) {
  const auth = betterAuth({
    appName: "Comptoir",
    secret: options.secret,
    baseURL: options.baseUrl,
    database: drizzleAdapter(options.db, {
      provider: "pg",
      schema: { user: users, session: sessions, account: accounts, verification: verifications, twoFactor: twoFactors },
    }),
    user: {
      additionalFields: {
        // Never from the sign-up form: only admin:create or the seed set it.
        role: { type: "string", required: false, defaultValue: "user", input: false },
      },
    },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      requireEmailVerification: true,
      autoSignIn: false,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: 60 * 60,
      sendResetPassword: ({ user, token }) => options.mail.passwordReset(user, token),
      // With e-mail confirmation on, a known address gets the same answer as a new one.
      onExistingUserSignUp: ({ user }) => options.mail.existingAccount(user),
      onPasswordReset: async ({ user }) => options.mail.passwordChanged?.(user),
    },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: true,
      autoSignInAfterVerification: false,
      expiresIn: 24 * 60 * 60,
      sendVerificationEmail: ({ user, token }) => options.mail.verification(user, token),
    },
    session: {
      expiresIn: SESSION_MAX_AGE_SECONDS,
      updateAge: 24 * 60 * 60,
      additionalFields: {
        // Written by bindSecondFactorToSessions only; read by requireAdmin with the session.
        secondFactorAt: { type: "date", required: false, input: false },
      },
    },
    plugins: [
      // TOTP (6 digits, 30 s) with 10 recovery codes, both stored encrypted; enabling, disabling
      // and reading the URI ask for the password; 5 wrong codes end a sign-in's challenge and
      // 10 in a row lock the second factor 15 minutes. No "trusted device": every sign-in asks.
      twoFactor({ issuer: TOTP_ISSUER, twoFactorCookieMaxAge: TWO_FACTOR_COOKIE_SECONDS }),
    ],
    // Every sign-in (a session opened) restarts the account's inactivity period (domain/retention.ts).
    databaseHooks: {
      session: {
        create: {
          after: async (session) => {
            await options.db.update(users).set({ lastSignInAt: session.createdAt }).where(eq(users.id, session.userId));
          },
        },
      },
    },
    // Our own limits (services/rate-limit.server.ts) apply before any call reaches better-auth.
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    // Wrong passwords are expected traffic (counted by our limits), not warnings for the log.
    logger: { level: "error" },
    advanced: {
      // Secure cookies whenever the shop is served over HTTPS; HttpOnly and SameSite=Lax always.
      useSecureCookies: options.baseUrl.startsWith("https:"),
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
    },
  });
  // With a second factor, better-auth answers a right password with `{ twoFactorRedirect }`, no
  // session and its `two_factor` cookie. Callers (auth-actions' signIn: its limits take back a
  // right password's attempt) get the usual answer with the account's user, no token, and that
  // cookie: secondFactorPending(headers) tells them a code is still due.
  const signInEmail = auth.api.signInEmail;
  (auth.api as { signInEmail: unknown }).signInEmail = (async (input: Parameters<typeof signInEmail>[0]) => {
    const result = (await signInEmail(input)) as unknown;
    const returnHeaders = Boolean((input as { returnHeaders?: boolean }).returnHeaders);
    const body = (returnHeaders ? (result as { response: unknown }).response : result) as { twoFactorRedirect?: boolean } | null;
    if (!body?.twoFactorRedirect) return result;
    const email = (input as { body: { email: string } }).body.email.toLowerCase();
    const [user] = await options.db.select().from(users).where(eq(users.email, email));
    const response = { redirect: false, token: "", url: undefined, user, twoFactorRedirect: true };
    return returnHeaders ? { headers: (result as { headers: Headers }).headers, response } : response;
  }) as typeof signInEmail;
  bindSecondFactorToSessions(auth.api as unknown as Record<string, unknown>, options.db);
  return auth;
}

export type Auth = ReturnType<typeof createAuth>;
