import { eq } from "drizzle-orm";
import { siteSettings } from "~/db/schema";
import type { Db } from "~/db/types";

/** The site_settings row of the seller's VAT regime (/admin/settings, "Facturation"). */
export const BILLING_SETTING = "billing";

/**
 * `vatFranchise`: the seller is under the franchise en base (CGI art. 293 B): no VAT charged or
 * shown, and every invoice says "TVA non applicable, art. 293 B du CGI".
 */
export type BillingSettings = {
  vatFranchise: boolean;
  /** The seller opted for the buyer's country's VAT on sales to other member states whatever their total (domain/oss.ts). */
  ossOptIn: boolean;
};

export async function getBillingSettings(db: Db): Promise<BillingSettings> {
  const [row] = await db.select({ value: siteSettings.value }).from(siteSettings).where(eq(siteSettings.key, BILLING_SETTING));
  const value = row?.value as Partial<BillingSettings> | undefined;
  return { vatFranchise: value?.vatFranchise === true, ossOptIn: value?.ossOptIn === true };
}

export async function saveBillingSettings(db: Db, settings: BillingSettings, now = new Date()): Promise<void> {
  await db
    .insert(siteSettings)
    .values({ key: BILLING_SETTING, value: settings, updatedAt: now })
    .onConflictDoUpdate({ target: siteSettings.key, set: { value: settings, updatedAt: now } });
}
