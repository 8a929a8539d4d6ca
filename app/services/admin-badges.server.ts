import { count, eq } from "drizzle-orm";
import { inboxMessages } from "~/db/schema";
import type { Db } from "~/db/types";
import { countOrdersToShip } from "./admin-orders.server";
import { WAITING_KEEP_MS, WAITING_READ } from "./dashboard.server";
import { forgetKeptReads, keptRead } from "./kept-reads.server";

export type AdminBadges = { newMessages: number; ordersToShip: number };

const BADGES_READ = "badges";

/**
 * What waits for the seller, shown beside the sidebar entries: requests nobody opened yet and
 * paid orders not shipped. Both counts read an index on (status, created_at); every admin page
 * shows them, so one read serves the requests of 2 s (as the dashboard's "what waits"). An
 * order's change forgets it on every instance (the change feed), a request's on this one
 * (`inboxChanged`).
 */
export function loadAdminBadges(db: Db, now = Date.now()): Promise<AdminBadges> {
  return keptRead(db, BADGES_READ, now, () => readAdminBadges(db), WAITING_KEEP_MS);
}

async function readAdminBadges(db: Db): Promise<AdminBadges> {
  const [[messages], ordersToShip] = await Promise.all([
    db.select({ n: count() }).from(inboxMessages).where(eq(inboxMessages.status, "nouveau")),
    countOrdersToShip(db),
  ]);
  return { newMessages: messages?.n ?? 0, ordersToShip };
}

/** A request came or changed status here: this instance's counts of it are read again (others' within 2 s). */
export function inboxChanged(db: Db): void {
  forgetKeptReads(db, [BADGES_READ, WAITING_READ]);
}
