import { and, desc, eq, isNotNull } from "drizzle-orm";
import { orders } from "~/db/schema";
import type { Db } from "~/db/types";
import type { BusinessPurchaseInput } from "~/domain/business-purchase";

/** The company of a customer's last "Achat professionnel": the cart's fields start from it. Null when they never bought as one. */
export async function lastBusinessPurchase(db: Db, userId: string): Promise<BusinessPurchaseInput | null> {
  const [row] = await db
    .select({ business: orders.businessBuyer })
    .from(orders)
    .where(and(eq(orders.userId, userId), isNotNull(orders.businessBuyer)))
    .orderBy(desc(orders.createdAt))
    .limit(1);
  if (!row?.business) return null;
  const { companyName, siren, vatNumber, country } = row.business;
  return { companyName, siren: siren ?? "", vatNumber: vatNumber ?? "", country };
}
