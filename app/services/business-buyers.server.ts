import { and, desc, eq, isNotNull } from "drizzle-orm";
import { businessProfiles, orders } from "~/db/schema";
import type { Db } from "~/db/types";
import type { BusinessPurchase, BusinessPurchaseInput } from "~/domain/business-purchase";

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

/** The company kept in the customer's account, or null. */
export async function getBusinessProfile(db: Db, userId: string): Promise<BusinessPurchaseInput | null> {
  const [row] = await db.select().from(businessProfiles).where(eq(businessProfiles.userId, userId));
  return row ? { companyName: row.companyName, siren: row.siren ?? "", vatNumber: row.vatNumber ?? "", country: row.country } : null;
}

/** Keeps (or replaces) the customer's company, already checked by businessPurchaseSchema. */
export async function saveBusinessProfile(db: Db, userId: string, company: BusinessPurchase, now = new Date()): Promise<void> {
  const values = { companyName: company.companyName, siren: company.siren, vatNumber: company.vatNumber, country: company.country, updatedAt: now };
  await db
    .insert(businessProfiles)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: businessProfiles.userId, set: values });
}

export async function deleteBusinessProfile(db: Db, userId: string): Promise<void> {
  await db.delete(businessProfiles).where(eq(businessProfiles.userId, userId));
}

/** What the cart's « Achat professionnel » starts from: the account's company, else the last one bought as. */
export async function savedBusinessForCart(db: Db, userId: string): Promise<BusinessPurchaseInput | null> {
  return (await getBusinessProfile(db, userId)) ?? (await lastBusinessPurchase(db, userId));
}
