import type { Logger } from "pino";
import type { Db } from "~/db/types";
import { startPeriodicJob } from "~/lib/periodic-job.server";
import type { WebhookDeps } from "./payment-webhooks.server";
import type { PaymentProvider } from "./payments/types";
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
    const released = await releaseExpiredReservations(db, new Date(), { postgres: options.postgres });
    if (released.length > 0) logger.info({ released: released.length }, "expired reservations released");
    round += 1;
    if (round % REFUND_RETRY_EVERY === 0) {
      const refunded = await retryPendingRefunds(db, options.provider, options.deps);
      if (refunded > 0) logger.info({ refunded }, "pending refunds completed");
    }
  }

  const job = startPeriodicJob({ run: sweep, intervalMs: options.intervalMs ?? RESERVATION_SWEEP_INTERVAL_MS, logger, failure: "reservation sweep failed" });
  return { stop: job.stop };
}
