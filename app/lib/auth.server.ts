import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { accounts, sessions, users, verifications } from "~/db/schema";
import type { Db } from "~/db/types";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "~/domain/auth-forms";

/** How long a session lasts (renewed daily while used); the header's hint cookie lasts as long. */
export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

/** What better-auth needs to reach the customer: the auth e-mails go through the outbox. */
export type AuthMail = {
  verification(user: { email: string; name: string }, token: string): Promise<void>;
  passwordReset(user: { email: string; name: string }, token: string): Promise<void>;
  /** Someone signed up with this account's address (the sign-up itself answers as usual). */
  existingAccount(user: { email: string; name: string }): Promise<void>;
};

/**
 * better-auth on our Drizzle database: e-mail and password, sessions in the database, a role
 * kept on the server. Its HTTP handler is not mounted: route actions call `auth.api` after
 * validating and rate-limiting, so no endpoint bypasses those checks.
 */
export function createAuth(options: { db: Db; secret: string; baseUrl: string; mail: AuthMail }) {
  return betterAuth({
    appName: "Comptoir",
    secret: options.secret,
    baseURL: options.baseUrl,
    database: drizzleAdapter(options.db, {
      provider: "pg",
      schema: { user: users, session: sessions, account: accounts, verification: verifications },
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
}

export type Auth = ReturnType<typeof createAuth>;
