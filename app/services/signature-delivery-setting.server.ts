import { eq } from "drizzle-orm";
import { siteSettings } from "~/db/schema";
import type { Db } from "~/db/types";

/** The site_settings row of the "Remise contre signature" option (/admin/shipping, decision 044). */
export const SIGNATURE_DELIVERY_SETTING = "signature_delivery";

/** On unless the seller turned it off: SPEC.md's cart offers it. */
export async function isSignatureDeliveryEnabled(db: Db): Promise<boolean> {
  const [row] = await db.select({ value: siteSettings.value }).from(siteSettings).where(eq(siteSettings.key, SIGNATURE_DELIVERY_SETTING));
  return (row?.value as { enabled?: unknown } | undefined)?.enabled !== false;
}

export async function setSignatureDeliveryEnabled(db: Db, enabled: boolean, now = new Date()): Promise<void> {
  const value = { enabled };
  await db
    .insert(siteSettings)
    .values({ key: SIGNATURE_DELIVERY_SETTING, value, updatedAt: now })
    .onConflictDoUpdate({ target: siteSettings.key, set: { value, updatedAt: now } });
}
