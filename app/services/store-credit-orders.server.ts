import { and, eq, inArray, lt, gt, sql } from "drizzle-orm";
import { orders, storeCreditMovements, users } from "~/db/schema";
import type { Db, Tx } from "~/db/types";
import { splitPayment } from "~/domain/store-credit";
import { recordMovement, storeCreditBalance, storeCreditMovementsOf } from "./store-credit.server";

/**
 * Store credit spent on orders (issue 54, point 4; docs/decisions/055): debited in the
 * checkout's transaction, given back once when the order ends unpaid.
 */

/**
 * The ledger's mailbox of a signed-in customer whose e-mail is verified; null for anyone else
 * (a guest, an unverified account): only a proven mailbox may spend the credit kept under it.
 */
export async function storeCreditMailboxOf(db: Db | Tx, userId: string | null): Promise<string | null> {
  if (!userId) return null;
  const [user] = await db.select({ email: users.email, verified: users.emailVerified, erasedAt: users.erasedAt }).from(users).where(eq(users.id, userId));
  return user?.verified && !user.erasedAt ? user.email : null;
}

/**
 * A signed-in customer's balance for the cart: null when they have none, or when their e-mail is
 * not verified (an account opened with someone else's address must not even see that it has credit).
 */
export async function storeCreditOfViewer(db: Db | Tx, userId: string): Promise<{ balanceCents: number } | null> {
  const email = await storeCreditMailboxOf(db, userId);
  const balanceCents = email ? await storeCreditBalance(db, email) : 0;
  return balanceCents > 0 ? { balanceCents } : null;
}

/** « Mon avoir » of /account: the balance and the movements, or null when the verified mailbox never had credit. */
export async function storeCreditHistoryOf(db: Db | Tx, userId: string) {
  const email = await storeCreditMailboxOf(db, userId);
  if (!email) return null;
  return storeCreditHistoryOfMailbox(db, email);
}

/** A mailbox's balance and movements (newest first) as the pages show them; null when it never had credit. */
export async function storeCreditHistoryOfMailbox(db: Db | Tx, email: string) {
  const movements = await storeCreditMovementsOf(db, email);
  if (movements.length === 0) return null;
  return {
    balanceCents: await storeCreditBalance(db, email),
    movements: movements.map((movement) => ({
      id: movement.id,
      createdAt: movement.createdAt.toISOString(),
      reason: movement.reason,
      amountCents: movement.amountCents,
      expiresAt: movement.expiresAt?.toISOString() ?? null,
    })),
  };
}

/** A concurrent checkout lowered the balance between the read and the debit: read again, so many times at most. */
const SPEND_ATTEMPTS = 5;

/**
 * Spends what the rule allows (domain/store-credit.ts splitPayment: at most the request, the
 * balance and the total) on a new order, in its transaction, and writes it on the order. The
 * ledger's conditional UPDATE decides: a debit that finds the balance already spent by another
 * checkout is refused and tried again with the balance it found. Returns the cents spent.
 */
export async function spendStoreCreditOnOrder(
  tx: Db | Tx,
  order: { orderId: string; orderNumber: string; userId: string | null; totalCents: number; requestedCents: number },
): Promise<number> {
  const email = await storeCreditMailboxOf(tx, order.userId);
  if (!email) return 0;
  let balanceCents = await storeCreditBalance(tx, email);
  for (let attempt = 0; attempt < SPEND_ATTEMPTS; attempt++) {
    const { creditCents } = splitPayment(order.totalCents, balanceCents, order.requestedCents);
    if (creditCents === 0) return 0;
    const spent = await recordMovement(tx, {
      email,
      amountCents: -creditCents,
      kind: "order",
      reason: `Commande ${order.orderNumber}`,
      author: "customer",
      orderId: order.orderId,
    });
    if (spent.ok) {
      await tx.update(orders).set({ storeCreditCents: creditCents }).where(eq(orders.id, order.orderId));
      return creditCents;
    }
    balanceCents = spent.balanceCents;
  }
  return 0;
}

/**
 * Gives back the credit an order spent when it ends unpaid (expired, cancelled, refused): what
 * its "order" debits minus what was already given back, so a second call writes nothing. Called
 * in the transaction that ends the order, which happens once (reservations.server.ts).
 */
export async function giveBackOrderStoreCredit(tx: Db | Tx, orderId: string): Promise<number> {
  const movements = await tx
    .select({ id: storeCreditMovements.id, email: storeCreditMovements.email, amountCents: storeCreditMovements.amountCents })
    .from(storeCreditMovements)
    .where(and(eq(storeCreditMovements.orderId, orderId), inArray(storeCreditMovements.kind, ["order", "order_cancelled"])));
  const owed = -movements.reduce((sum, movement) => sum + movement.amountCents, 0);
  const debit = movements.find((movement) => movement.amountCents < 0);
  if (owed <= 0 || !debit) return 0;
  const [order] = await tx.select({ number: orders.number }).from(orders).where(eq(orders.id, orderId));
  if (!order) return 0;
  await recordMovement(tx, {
    email: debit.email,
    amountCents: owed,
    kind: "order_cancelled",
    reason: `Commande ${order.number} non payée : avoir rendu`,
    author: "system",
    orderId,
    expiresAt: await validityOfCreditsBefore(tx, debit.email, debit.id),
  });
  return owed;
}

/**
 * A credit given back keeps the validity the spent credits had, without working out which ones
 * it was: the latest end among the mailbox's earlier credits, or none when one of them had none.
 */
async function validityOfCreditsBefore(tx: Db | Tx, email: string, movementId: number): Promise<Date | null> {
  const [row] = await tx
    .select({ withoutEnd: sql<number>`count(*) filter (where ${storeCreditMovements.expiresAt} is null)::int`, latest: sql<string | null>`max(${storeCreditMovements.expiresAt})` })
    .from(storeCreditMovements)
    .where(and(eq(storeCreditMovements.email, email), lt(storeCreditMovements.id, movementId), gt(storeCreditMovements.amountCents, 0)));
  if (!row || row.withoutEnd > 0 || !row.latest) return null;
  return new Date(row.latest);
}

/**
 * Gives a refund's credit part back to the mailbox that paid the order with credit (a "refund"
 * credit keeping the validity the spent credits had). Called in the transaction that records the
 * refund as done, which happens once.
 */
export async function refundOrderStoreCredit(tx: Db | Tx, refund: { orderId: string; orderNumber: string; refundId: string; amountCents: number }): Promise<void> {
  if (refund.amountCents <= 0) return;
  const [debit] = await tx
    .select({ id: storeCreditMovements.id, email: storeCreditMovements.email })
    .from(storeCreditMovements)
    .where(and(eq(storeCreditMovements.orderId, refund.orderId), eq(storeCreditMovements.kind, "order")))
    .limit(1);
  if (!debit) throw new Error(`store credit: order ${refund.orderNumber} spent no credit to give back`);
  await recordMovement(tx, {
    email: debit.email,
    amountCents: refund.amountCents,
    kind: "refund",
    reason: `Remboursement de la commande ${refund.orderNumber}`,
    author: "system",
    orderId: refund.orderId,
    sourceRef: `remboursement:${refund.refundId}`,
    expiresAt: await validityOfCreditsBefore(tx, debit.email, debit.id),
  });
}
