import { desc, eq } from "drizzle-orm";
import { orders } from "~/db/schema";
import type { Db } from "~/db/types";

/** The customer's own orders, newest first (the account page). */
export async function listCustomerOrders(db: Db, userId: string, limit = 10) {
  return db
    .select({ id: orders.id, number: orders.number, status: orders.status, totalCents: orders.totalCents, createdAt: orders.createdAt })
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.createdAt))
    .limit(limit);
}
