import { eq } from "drizzle-orm";
import { siteSettings } from "~/db/schema";
import type { Db } from "~/db/types";

/** The site_settings row of the sales to professional buyers (/admin/settings, "Ventes aux professionnels"). */
export const BUSINESS_SALES_SETTING = "business_sales";

/**
 * `sellToBusinesses`: the cart offers "Achat professionnel" and the CGV have their section for
 * professionals; on until the seller turns it off. `intraEuExemption`: sales to businesses of
 * another member state are exempt (CGI art. 262 ter I, docs/decisions/054); off until the seller,
 * who must check each VAT number in VIES, turns it on.
 */
export type BusinessSalesSettings = { sellToBusinesses: boolean; intraEuExemption: boolean };

export async function getBusinessSalesSettings(db: Db): Promise<BusinessSalesSettings> {
  const [row] = await db.select({ value: siteSettings.value }).from(siteSettings).where(eq(siteSettings.key, BUSINESS_SALES_SETTING));
  const value = row?.value as Partial<BusinessSalesSettings> | undefined;
  return { sellToBusinesses: value?.sellToBusinesses !== false, intraEuExemption: value?.intraEuExemption === true };
}

export async function saveBusinessSalesSettings(db: Db, settings: BusinessSalesSettings, now = new Date()): Promise<void> {
  await db
    .insert(siteSettings)
    .values({ key: BUSINESS_SALES_SETTING, value: settings, updatedAt: now })
    .onConflictDoUpdate({ target: siteSettings.key, set: { value: settings, updatedAt: now } });
}
