import { boolean, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/* Tables of better-auth (plural model names), with a server-side role. */

export const users = pgTable("users", {
  id: text().primaryKey(),
  name: text().notNull(),
  email: text().notNull().unique(),
  emailVerified: boolean().notNull().default(false),
  image: text(),
  role: text({ enum: ["user", "admin"] }).notNull().default("user"),
  /** better-auth's two-factor plugin: a TOTP second factor is enrolled and verified (required for admins). */
  twoFactorEnabled: boolean().notNull().default(false),
  /** Set when the customer was erased (GDPR): name and e-mail are placeholders since. */
  erasedAt: timestamp({ withTimezone: true }),
  /** The last sign-in (a session opened); with the sessions' last use, what keeps the account from the inactivity erasure (domain/retention.ts). */
  lastSignInAt: timestamp({ withTimezone: true }),
  /** When the owner was told the account would be erased for inactivity; an activity after it calls for a new warning. */
  inactivityWarnedAt: timestamp({ withTimezone: true }),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export const sessions = pgTable(
  "sessions",
  {
    id: text().primaryKey(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    token: text().notNull().unique(),
    ipAddress: text(),
    userAgent: text(),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /**
     * When this session passed the account's second factor (a TOTP or recovery code, at sign-in
     * or enrolment); null for a session opened by the password alone. An admin page asks for it.
     */
    secondFactorAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

export const accounts = pgTable(
  "accounts",
  {
    id: text().primaryKey(),
    accountId: text().notNull(),
    providerId: text().notNull(),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accessToken: text(),
    refreshToken: text(),
    idToken: text(),
    accessTokenExpiresAt: timestamp({ withTimezone: true }),
    refreshTokenExpiresAt: timestamp({ withTimezone: true }),
    scope: text(),
    password: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("accounts_user_idx").on(t.userId)],
);

export const verifications = pgTable(
  "verifications",
  {
    id: text().primaryKey(),
    identifier: text().notNull(),
    value: text().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("verifications_identifier_idx").on(t.identifier)],
);

/**
 * better-auth's two-factor plugin (model `twoFactor`): the TOTP secret and the recovery codes,
 * both encrypted with the auth secret; `verified` once a first code was entered; failures
 * counted per account (a lock of 15 minutes after 10 in a row).
 */
export const twoFactors = pgTable(
  "two_factors",
  {
    id: text().primaryKey(),
    secret: text().notNull(),
    backupCodes: text().notNull(),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    verified: boolean().notNull().default(true),
    failedVerificationCount: integer().notNull().default(0),
    lockedUntil: timestamp({ withTimezone: true }),
  },
  (t) => [index("two_factors_user_idx").on(t.userId)],
);

/**
 * The TOTP codes each account passed in the last minutes: a code stays right for about 90 s
 * (its step and the two around it), and better-auth accepts it every time, so a code seen over
 * a shoulder or phished in real time would open a second session. app/lib/session-second-factor.server.ts
 * claims each accepted code here; a second claim within the window is refused.
 */
export const usedTotpCodes = pgTable(
  "used_totp_codes",
  {
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    code: text().notNull(),
    usedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.code] })],
);

/**
 * A customer's company, kept in /account (issue 53): the cart's « Achat professionnel » starts
 * from it. Checked by domain/business-purchase.ts's schema when saved; erased with the account.
 */
export const businessProfiles = pgTable("business_profiles", {
  userId: text()
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  companyName: text().notNull(),
  siren: text(),
  vatNumber: text(),
  country: text().notNull(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
