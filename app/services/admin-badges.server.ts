import { count, eq } from "drizzle-orm";
import { inboxMessages, orders } from "~/db/schema";
import type { Db } from "~/db/types";

export type AdminBadges = { newMessages: number; ordersToShip: number };

/**
 * What waits for the seller, shown beside the sidebar entries: requests nobody opened yet and
 * paid orders not shipped. Both counts read an index on (status, created_at).
 */
export async function loadAdminBadges(db: Db): Promise<AdminBadges> {
  const [[messages], [toShip]] = await Promise.all([
    db.select({ n: count() }).from(inboxMessages).where(eq(inboxMessages.status, "nouveau")),
    db.select({ n: count() }).from(orders).where(eq(orders.status, "paid")),
  ]);
  return { newMessages: messages?.n ?? 0, ordersToShip: toShip?.n ?? 0 };
}
