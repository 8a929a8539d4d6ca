import { count, eq } from "drizzle-orm";
import { inboxMessages } from "~/db/schema";
import type { Db } from "~/db/types";
import { countOrdersToShip } from "./admin-orders.server";

export type AdminBadges = { newMessages: number; ordersToShip: number };

/**
 * What waits for the seller, shown beside the sidebar entries: requests nobody opened yet and
 * paid orders not shipped. Both counts read an index on (status, created_at).
 */
export async function loadAdminBadges(db: Db): Promise<AdminBadges> {
  const [[messages], ordersToShip] = await Promise.all([
    db.select({ n: count() }).from(inboxMessages).where(eq(inboxMessages.status, "nouveau")),
    countOrdersToShip(db),
  ]);
  return { newMessages: messages?.n ?? 0, ordersToShip };
}
