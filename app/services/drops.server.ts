import { and, eq, gt, lte, min } from "drizzle-orm";
import type { Logger } from "pino";
import { products } from "~/db/schema";
import type { Db } from "~/db/types";

/** Puts every a_venir product whose drop time has come en_ligne; returns their ids. */
export async function releaseDueDrops(db: Db, now: Date): Promise<number[]> {
  const rows = await db
    .update(products)
    .set({ status: "en_ligne", updatedAt: now })
    .where(and(eq(products.status, "a_venir"), lte(products.dropTime, now)))
    .returning({ id: products.id });
  return rows.map((row) => row.id);
}

export async function nextDropTime(db: Db, now: Date): Promise<Date | null> {
  const [row] = await db
    .select({ next: min(products.dropTime) })
    .from(products)
    .where(and(eq(products.status, "a_venir"), gt(products.dropTime, now)));
  return row?.next ? new Date(row.next) : null;
}

export const DROP_SWEEP_INTERVAL_MS = 30_000;
const REPLAN_DELAY_MS = 500;

/**
 * Releases drops every 30 s (SPEC.md), and also exactly at the next drop time so a drop
 * opens on the second. Call replan() when products change (a new drop time may be sooner).
 */
export function startDropSweeper(db: Db, logger: Logger, intervalMs = DROP_SWEEP_INTERVAL_MS) {
  let timer: NodeJS.Timeout | undefined;
  let dueAt = 0;
  let stopped = false;
  let running: Promise<void> | null = null;

  async function sweep(): Promise<void> {
    const now = new Date();
    const released = await releaseDueDrops(db, now);
    if (released.length > 0) logger.info({ released }, "drops released");
    const next = await nextDropTime(db, now);
    schedule(next ? Math.min(intervalMs, Math.max(0, next.getTime() - Date.now())) : intervalMs);
  }

  function run() {
    if (stopped || running) return;
    running = sweep()
      .catch((error) => {
        logger.error({ err: error }, "drop sweep failed");
        schedule(intervalMs);
      })
      .finally(() => {
        running = null;
      });
  }

  function schedule(delay: number) {
    if (stopped) return;
    clearTimeout(timer);
    dueAt = Date.now() + delay;
    timer = setTimeout(run, delay);
    timer.unref();
  }

  run();
  return {
    // Coalesced: a burst of stock changes during a drop costs one extra sweep, not one each.
    replan: () => {
      if (dueAt - Date.now() > REPLAN_DELAY_MS) schedule(REPLAN_DELAY_MS);
    },
    /** Sweeps at once (the test clock moved: a planned wait no longer says when the next drop is). */
    sweepNow: () => schedule(0),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
