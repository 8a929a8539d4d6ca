import { generateId } from "better-auth";
import { hashPassword } from "better-auth/crypto";
import { and, eq } from "drizzle-orm";
import { accounts, sessions, twoFactors, users } from "~/db/schema";
import type { Db } from "~/db/types";

/**
 * Creates an e-mail/password account the way better-auth does (a user row plus a
 * "credential" account holding the scrypt hash), so it signs in through better-auth.
 */
export async function createUserWithPassword(
  db: Db,
  input: { email: string; password: string; name: string; role: "user" | "admin"; emailVerified?: boolean },
): Promise<{ id: string; created: boolean }> {
  const email = input.email.trim().toLowerCase();
  const hash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const id = generateId();
    const inserted = await tx
      .insert(users)
      .values({ id, email, name: input.name, role: input.role, emailVerified: input.emailVerified ?? false })
      .onConflictDoNothing({ target: users.email })
      .returning({ id: users.id });
    if (inserted.length === 0) {
      const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email));
      return { id: existing!.id, created: false };
    }
    await tx.insert(accounts).values({ id: generateId(), accountId: id, providerId: "credential", userId: id, password: hash });
    return { id, created: true };
  });
}

/** Sets a new password on an existing account (creating its credential account if needed). */
export async function setPassword(db: Db, userId: string, password: string): Promise<void> {
  const hash = await hashPassword(password);
  await db.transaction(async (tx) => {
    const updated = await tx
      .update(accounts)
      .set({ password: hash, updatedAt: new Date() })
      .where(and(eq(accounts.userId, userId), eq(accounts.providerId, "credential")))
      .returning({ id: accounts.id });
    if (updated.length === 0) {
      await tx.insert(accounts).values({ id: generateId(), accountId: userId, providerId: "credential", userId, password: hash });
    }
  });
}

/**
 * Gives an account its role. `vouch` marks its address confirmed: only for the operator who
 * also sets the password (whoever signed up with the address loses the account to them).
 */
export async function setRole(db: Db, email: string, role: "user" | "admin", options: { vouch?: boolean } = {}): Promise<boolean> {
  const updated = await db
    .update(users)
    .set({ role, updatedAt: new Date(), ...(options.vouch ? { emailVerified: true } : {}) })
    .where(eq(users.email, email.trim().toLowerCase()))
    .returning({ id: users.id });
  return updated.length > 0;
}

export async function findUserByEmail(db: Db, email: string) {
  const [user] = await db.select().from(users).where(eq(users.email, email.trim().toLowerCase()));
  return user ?? null;
}

/**
 * Signs an account out everywhere and turns its second factor off: when its role changes (a
 * demoted admin keeps no admin session and no factor that would bar the customer sign-in; a
 * promoted customer signs in again at /admin/login and enrols), and when the operator sets its
 * password from the command line (the recovery of an admin who lost their phone, or whose
 * enrolment someone else made first).
 */
export async function endSessionsAndSecondFactor(db: Db, userId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
  await db.delete(twoFactors).where(eq(twoFactors.userId, userId));
  await db.update(users).set({ twoFactorEnabled: false }).where(eq(users.id, userId));
}
