import { eq } from "drizzle-orm";
import { siteSettings } from "~/db/schema";
import type { Db, Tx } from "~/db/types";
import type { LegalIdentity } from "~/domain/shop-identity";
import { resolveIdentity } from "~/domain/shop-identity-schema";

/** The site_settings row of the identity edited at /admin/settings. */
export const SHOP_IDENTITY_SETTING = "shop_identity";

export type ShopIdentityRecord = {
  identity: LegalIdentity;
  /** When the seller last saved it; null while the configuration's first values apply. */
  updatedAt: Date | null;
};

/** The identity /legal publishes: the stored one, field by field over the configured first values. */
export async function getShopIdentity(db: Db | Tx, defaults: LegalIdentity): Promise<ShopIdentityRecord> {
  const [row] = await db
    .select({ value: siteSettings.value, updatedAt: siteSettings.updatedAt })
    .from(siteSettings)
    .where(eq(siteSettings.key, SHOP_IDENTITY_SETTING));
  return { identity: resolveIdentity(row?.value, defaults), updatedAt: row?.updatedAt ?? null };
}

/**
 * Stores the whole identity (checked by legalIdentitySchema), empty fields included: an emptied
 * field stays empty rather than coming back from the configuration. site_settings' trigger then
 * purges the cached pages, so /legal shows it at once.
 */
export async function saveShopIdentity(db: Db, identity: LegalIdentity, now = new Date()): Promise<void> {
  await db
    .insert(siteSettings)
    .values({ key: SHOP_IDENTITY_SETTING, value: identity, updatedAt: now })
    .onConflictDoUpdate({ target: siteSettings.key, set: { value: identity, updatedAt: now } });
}

/**
 * The shop's contact e-mail as saved at /admin/settings, for the e-mails written outside a page
 * (jobs, webhooks, account mail): kept in memory and refreshed when the site's settings change
 * on any instance, so no e-mail shows the configuration's address once the seller saved another.
 */
export function shopContactEmail(db: Db, defaults: LegalIdentity) {
  let email = defaults.email;
  return {
    get email() {
      return email;
    },
    async refresh() {
      email = (await getShopIdentity(db, defaults)).identity.email;
    },
  };
}
export type ShopContactEmail = ReturnType<typeof shopContactEmail>;
