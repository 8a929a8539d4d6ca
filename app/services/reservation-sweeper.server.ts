import { inArray } from "drizzle-orm";
import type { Logger } from "pino";
import { orders } from "~/db/schema";
import type { Db } from "~/db/types";
import { startPeriodicJob } from "~/lib/periodic-job.server";
import type { WebhookDeps } from "./payment-webhooks.server";
import type { PaymentProvider } from "./payments/types";
import { retryPendingPartialRefunds } from "./partial-refunds.server";
import { retryPendingRefunds } from "./refunds.server";
import { releaseExpiredReservations } from "./reservations.server";

export const RESERVATION_SWEEP_INTERVAL_MS = 15_000;
/** Refunds that failed are tried again every this many sweeps (about every 5 minutes). */
const REFUND_RETRY_EVERY = 20;

/**
 * Releases reservations whose time has passed even when no webhook comes (a closed tab, a lost
 * event): a timer in every instance; on PostgreSQL the advisory lock in
 * releaseExpiredReservations lets one of them work at a time. Released stock reaches open pages
 * through the products trigger (NOTIFY catalog_changes).
 */
export function startReservationSweeper(options: {
  db: Db;
  provider: PaymentProvider;
  postgres: boolean;
  deps: WebhookDeps;
  logger: Logger;
  intervalMs?: number;
}) {
  const { db, logger } = options;
  let round = 0;

  async function sweep() {
    const released = await sweepExpiredReservations(db, options.provider, new Date(), { postgres: options.postgres, logger });
    if (released.length > 0) logger.info({ released: released.length }, "expired reservations released");
    round += 1;
    if (round % REFUND_RETRY_EVERY === 0) {
      const refunded = (await retryPendingRefunds(db, options.provider, options.deps)) + (await retryPendingPartialRefunds(db, options.provider, options.deps));
      if (refunded > 0) logger.info({ refunded }, "pending refunds completed");
    }
  }

  const job = startPeriodicJob({ run: sweep, intervalMs: options.intervalMs ?? RESERVATION_SWEEP_INTERVAL_MS, logger, failure: "reservation sweep failed" });
  return { stop: job.stop };
}

/**
 * Releases the reservations that are due, then closes those orders' payment pages at the
 * provider: Stripe keeps a session open 30 minutes at least, and a drop holds its units 10, so a
 * buyer could still pay once the units were back on sale; the payment would be refunded (a late
 * payment) and the provider's fee lost. A page already closed, or paid meanwhile (the webhook
 * then decides), only gets a debug line.
 */
export async function sweepExpiredReservations(db: Db, provider: PaymentProvider, now: Date, options: { postgres: boolean; logger: Logger }): Promise<string[]> {
  const released = await releaseExpiredReservations(db, now, { postgres: options.postgres });
  if (released.length === 0) return released;
  const sessions = await db.select({ id: orders.providerSessionId }).from(orders).where(inArray(orders.id, released));
  await Promise.all(
    sessions.map(async ({ id }) => {
      if (!id) return;
      try {
        await provider.expireSession(id);
      } catch (error) {
        options.logger.debug({ err: error, sessionId: id }, "payment page of a released reservation not closed");
      }
    }),
  );
  return released;
}
