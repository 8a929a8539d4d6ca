import { and, desc, eq, gte, sql } from "drizzle-orm";
import { storeCreditAccounts, storeCreditMovements, type StoreCreditKind } from "~/db/schema";
import type { Db, Tx } from "~/db/types";

/**
 * The store-credit ledger (issue 54, point 4; tables in db/schema/buyback.ts). Every movement
 * goes through `recordMovement`: the balance row changes in the same statement that checks it,
 * so two checkouts spending one balance at once cannot take it below 0 (the second finds the
 * balance already lowered and is refused).
 */

/** The ledger's key for a mailbox. */
export function storeCreditKey(email: string): string {
  return email.trim().toLowerCase();
}

export type StoreCreditMovementInput = {
  email: string;
  /** Positive: a credit; negative: a debit. Never 0. */
  amountCents: number;
  kind: StoreCreditKind;
  reason: string;
  /** "seller:<user id>", "customer" or "system". */
  author: string;
  orderId?: string | null;
  sourceRef?: string | null;
  expiresAt?: Date | null;
};

export type StoreCreditMovementResult =
  | { ok: true; movementId: number; balanceCents: number }
  | { ok: false; reason: "insufficient"; balanceCents: number };

/** Appends one movement; a debit larger than the balance is refused and writes nothing. */
export async function recordMovement(db: Db | Tx, movement: StoreCreditMovementInput): Promise<StoreCreditMovementResult> {
  if (!Number.isSafeInteger(movement.amountCents) || movement.amountCents === 0) {
    throw new Error(`store credit: invalid amount ${movement.amountCents}`);
  }
  const email = storeCreditKey(movement.email);
  return db.transaction(async (tx): Promise<StoreCreditMovementResult> => {
    await tx.insert(storeCreditAccounts).values({ email }).onConflictDoNothing();
    const [account] = await tx
      .update(storeCreditAccounts)
      .set({ balanceCents: sql`${storeCreditAccounts.balanceCents} + ${movement.amountCents}`, updatedAt: sql`now()` })
      .where(and(eq(storeCreditAccounts.email, email), gte(storeCreditAccounts.balanceCents, Math.max(0, -movement.amountCents))))
      .returning({ balanceCents: storeCreditAccounts.balanceCents });
    if (!account) return { ok: false, reason: "insufficient", balanceCents: await storeCreditBalance(tx, email) };
    const [row] = await tx
      .insert(storeCreditMovements)
      .values({
        email,
        amountCents: movement.amountCents,
        balanceAfterCents: account.balanceCents,
        kind: movement.kind,
        reason: movement.reason,
        author: movement.author,
        orderId: movement.orderId ?? null,
        sourceRef: movement.sourceRef ?? null,
        expiresAt: movement.expiresAt ?? null,
      })
      .returning({ id: storeCreditMovements.id });
    return { ok: true, movementId: row!.id, balanceCents: account.balanceCents };
  });
}

export async function storeCreditBalance(db: Db | Tx, email: string): Promise<number> {
  const [row] = await db
    .select({ balanceCents: storeCreditAccounts.balanceCents })
    .from(storeCreditAccounts)
    .where(eq(storeCreditAccounts.email, storeCreditKey(email)));
  return row?.balanceCents ?? 0;
}

/** A mailbox's movements, newest first. */
export async function storeCreditMovementsOf(db: Db | Tx, email: string, limit = 50) {
  return db
    .select()
    .from(storeCreditMovements)
    .where(eq(storeCreditMovements.email, storeCreditKey(email)))
    .orderBy(desc(storeCreditMovements.id))
    .limit(limit);
}
