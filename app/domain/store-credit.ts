import { MIN_CARD_PAYMENT_CENTS } from "./checkout-rules";

/**
 * Store credit's pure rules (issue 54, point 4; docs/decisions/055). Credit is a means of
 * payment: it never changes an order's totals or VAT, only how the total is paid.
 */

export type CreditSplit = { creditCents: number; cardCents: number };

/**
 * How an order's total is paid: min(requested, balance, total) from the credit, the rest by
 * card. A rest the card could not take (under the provider's minimum) is avoided by using that
 * much less credit; a rest of 0 needs no provider at all.
 */
export function splitPayment(totalCents: number, balanceCents: number, requestedCents: number): CreditSplit {
  let creditCents = Math.max(0, Math.min(requestedCents, balanceCents, totalCents));
  const rest = totalCents - creditCents;
  if (rest > 0 && rest < MIN_CARD_PAYMENT_CENTS) creditCents = Math.max(0, totalCents - MIN_CARD_PAYMENT_CENTS);
  return { creditCents, cardCents: totalCents - creditCents };
}

export type LedgerMovement = { id: number; amountCents: number; kind: string; expiresAt: Date | null };

/**
 * What is left of each credit once every debit has spent the oldest credits first (FIFO, in the
 * ledger's order). An expiry debit spends only credits that had an end of validity, so a
 * credit already expired is not expired twice and a credit without one is never taken by it.
 */
export function creditsLeft(movements: readonly LedgerMovement[]): { id: number; leftCents: number; expiresAt: Date | null }[] {
  const credits: { id: number; leftCents: number; expiresAt: Date | null }[] = [];
  for (const movement of [...movements].sort((a, b) => a.id - b.id)) {
    if (movement.amountCents > 0) {
      credits.push({ id: movement.id, leftCents: movement.amountCents, expiresAt: movement.expiresAt });
      continue;
    }
    let debit = -movement.amountCents;
    for (const credit of credits) {
      if (debit === 0) break;
      if (movement.kind === "expiry" && credit.expiresAt === null) continue;
      const taken = Math.min(credit.leftCents, debit);
      credit.leftCents -= taken;
      debit -= taken;
    }
  }
  return credits.filter((credit) => credit.leftCents > 0);
}

/** What expires now: the part left of the credits whose validity ended at or before `now`. */
export function expiredCents(movements: readonly LedgerMovement[], now: Date): number {
  return creditsLeft(movements)
    .filter((credit) => credit.expiresAt !== null && credit.expiresAt <= now)
    .reduce((sum, credit) => sum + credit.leftCents, 0);
}

/** A new credit's end of validity: `months` after `now` (null: the seller set no validity). */
export function creditExpiry(now: Date, months: number | null): Date | null {
  if (months === null) return null;
  const end = new Date(now);
  end.setUTCMonth(end.getUTCMonth() + months);
  return end;
}

/** The sentence every e-mail announcing a credit carries (and the CGV's section says the same). */
export function creditValidityText(expiresAt: Date | null, formatDate: (date: Date) => string): string {
  return expiresAt
    ? `Cet avoir est valable jusqu'au ${formatDate(expiresAt)} ; passé cette date, la partie non utilisée est perdue.`
    : "Cet avoir n'a pas de date de fin de validité.";
}

/** How an order was paid, when store credit paid part or all of it: « Payé par avoir », then the card's part. */
export function paymentParts(order: { totalCents: number; storeCreditCents?: number }): { label: string; cents: number }[] {
  const credit = order.storeCreditCents ?? 0;
  if (credit <= 0) return [];
  const parts = [{ label: STORE_CREDIT_PAID_LABEL, cents: credit }];
  if (order.totalCents > credit) parts.push({ label: "Payé par carte", cents: order.totalCents - credit });
  return parts;
}

export const STORE_CREDIT_PAID_LABEL = "Payé par avoir";

/**
 * How a refund goes back when the order was paid partly by store credit: each means in
 * proportion of what it paid (the consumer is refunded by the means used, Code de la
 * consommation L221-24), within what each has left once the earlier refunds (in their order)
 * took their share; the last refunds settle the rounding.
 */
export function refundSplit(order: { totalCents: number; storeCreditCents: number }, priorRefundsCents: readonly number[], amountCents: number): CreditSplit {
  let cardLeft = order.totalCents - order.storeCreditCents;
  let creditLeft = order.storeCreditCents;
  const split = (amount: number): CreditSplit => {
    let cardCents = Math.min(cardLeft, order.totalCents === 0 ? amount : Math.round((amount * (order.totalCents - order.storeCreditCents)) / order.totalCents));
    let creditCents = amount - cardCents;
    if (creditCents > creditLeft) {
      cardCents += creditCents - creditLeft;
      creditCents = creditLeft;
    }
    cardLeft -= cardCents;
    creditLeft -= creditCents;
    return { creditCents, cardCents };
  };
  for (const prior of priorRefundsCents) split(prior);
  return split(amountCents);
}
