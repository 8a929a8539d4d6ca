import { and, eq, gt, isNotNull, lte, sql } from "drizzle-orm";
import type { Logger } from "pino";
import { siteSettings, storeCreditAccounts, storeCreditMovements, users } from "~/db/schema";
import type { Db, Tx } from "~/db/types";
import type { StoreCreditKind } from "~/db/schema";
import type { MailShop } from "~/domain/email-templates";
import { creditExpiry, expiredCents } from "~/domain/store-credit";
import { storeCreditGrantedEmail } from "~/domain/store-credit-emails";
import { startPeriodicJob } from "~/lib/periodic-job.server";
import { queueEmail } from "./mail.server";
import { recordMovement, storeCreditKey } from "./store-credit.server";

/**
 * Credits given to a customer (goodwill, buy-back, refund as credit) with the validity the
 * seller set, each announced by e-mail; and the job that expires what is left of them
 * (issue 54, point 4; decision 055).
 */

/** The site_settings row of « Durée de validité des avoirs » (/admin/settings). */
export const STORE_CREDIT_VALIDITY_SETTING = "store_credit_validity";

/** Months a new credit stays valid; null: no end (the default). */
export async function storeCreditValidityMonths(db: Db | Tx): Promise<number | null> {
  const [row] = await db.select({ value: siteSettings.value }).from(siteSettings).where(eq(siteSettings.key, STORE_CREDIT_VALIDITY_SETTING));
  const months = (row?.value as { months?: unknown } | undefined)?.months;
  return typeof months === "number" && Number.isInteger(months) && months > 0 ? months : null;
}

export async function setStoreCreditValidityMonths(db: Db, months: number | null, now = new Date()): Promise<void> {
  const value = { months };
  await db.insert(siteSettings).values({ key: STORE_CREDIT_VALIDITY_SETTING, value, updatedAt: now }).onConflictDoUpdate({ target: siteSettings.key, set: { value, updatedAt: now } });
}

export type CreditGrant = {
  email: string;
  /** The customer's name for the e-mail's greeting ("" when unknown). */
  name: string;
  amountCents: number;
  kind: Extract<StoreCreditKind, "goodwill" | "buyback" | "refund">;
  reason: string;
  author: string;
  orderId?: string | null;
  sourceRef?: string | null;
};

/**
 * Credits the ledger with the validity set now (none when the setting is empty) and queues the
 * e-mail that announces it, in one transaction: no credit without its e-mail, nor the reverse.
 */
export async function grantStoreCredit(db: Db | Tx, grant: CreditGrant, shop: MailShop, now = new Date()) {
  if (grant.amountCents <= 0) throw new Error("store credit: a grant is a positive amount");
  return db.transaction(async (tx) => {
    const expiresAt = creditExpiry(now, await storeCreditValidityMonths(tx));
    const credited = await recordMovement(tx, { ...grant, expiresAt });
    if (!credited.ok) throw new Error("store credit: a credit cannot be refused");
    const content = storeCreditGrantedEmail({ shop, name: grant.name, amountCents: grant.amountCents, reason: grant.reason, balanceCents: credited.balanceCents, expiresAt });
    const email = await queueEmail(tx, { to: storeCreditKey(grant.email), kind: "store-credit", content });
    return { movementId: credited.movementId, balanceCents: credited.balanceCents, expiresAt, emailId: email.id };
  });
}

/** A customer's account, for the seller's goodwill credit: its mailbox and name; null when gone or erased. */
export async function creditableAccount(db: Db | Tx, userId: string): Promise<{ email: string; name: string } | null> {
  const [user] = await db.select({ email: users.email, name: users.name, erasedAt: users.erasedAt }).from(users).where(eq(users.id, userId));
  return user && !user.erasedAt ? { email: user.email, name: user.name } : null;
}

/**
 * Writes an "expiry" debit for what is left of each mailbox's expired credits. FIFO: debits spend
 * the oldest credits first (domain/store-credit.ts creditsLeft), so what is left of an expired
 * credit is what no later spending took. Idempotent: once written, nothing is left to expire.
 * Returns the cents expired.
 */
export async function expireStoreCredits(db: Db, now: Date): Promise<number> {
  const mailboxes = await db
    .selectDistinct({ email: storeCreditMovements.email })
    .from(storeCreditMovements)
    .where(and(isNotNull(storeCreditMovements.expiresAt), lte(storeCreditMovements.expiresAt, now), gt(storeCreditMovements.amountCents, 0)));
  let total = 0;
  for (const { email } of mailboxes) {
    total += await db.transaction(async (tx) => {
      // The account's row locked first: two instances' rounds read and write one after the other.
      await tx.select({ email: storeCreditAccounts.email }).from(storeCreditAccounts).where(eq(storeCreditAccounts.email, email)).for("update");
      const movements = await tx
        .select({ id: storeCreditMovements.id, amountCents: storeCreditMovements.amountCents, kind: storeCreditMovements.kind, expiresAt: storeCreditMovements.expiresAt })
        .from(storeCreditMovements)
        .where(eq(storeCreditMovements.email, email))
        .orderBy(storeCreditMovements.id);
      const due = expiredCents(movements, now);
      if (due === 0) return 0;
      const written = await recordMovement(tx, { email, amountCents: -due, kind: "expiry", reason: "Fin de validité de l'avoir", author: "system" });
      return written.ok ? due : 0;
    });
  }
  return total;
}

const EXPIRY_INTERVAL_MS = 6 * 60 * 60 * 1000;

/** Every 6 hours, and a minute after start: the expired credits' debits (one instance or several: a second writer finds nothing left). */
export function startStoreCreditExpiryJob(deps: { db: Db; logger: Logger }) {
  return startPeriodicJob({
    async run() {
      const expired = await expireStoreCredits(deps.db, new Date());
      if (expired > 0) deps.logger.info({ expiredCents: expired }, "store credit: expired credits debited");
    },
    intervalMs: EXPIRY_INTERVAL_MS,
    firstRunMs: 60_000,
    logger: deps.logger,
    failure: "store credit: expiry round failed",
  });
}

/** The shop's debt in store credit: the sum of every balance (the dashboard's « Avoirs en cours »). */
export async function outstandingStoreCredit(db: Db): Promise<number> {
  const [row] = await db.select({ total: sql<number>`coalesce(sum(${storeCreditAccounts.balanceCents}), 0)::int` }).from(storeCreditAccounts);
  return row?.total ?? 0;
}
