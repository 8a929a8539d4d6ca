import { eq } from "drizzle-orm";
import { siteSettings } from "~/db/schema";
import type { Db, Tx } from "~/db/types";
import { DEFAULT_PREORDER_SHIPPING, mixedCartShippingText, PREORDER_SHIPPING_MODES, type PreorderShippingMode } from "~/domain/preorder-shipping";

/** The site_settings row of how a cart mixing pre-orders and items in stock ships (/admin/settings, decision 062). */
export const PREORDER_SHIPPING_SETTING = "preorder_shipping";

export async function getPreorderShipping(db: Db | Tx): Promise<PreorderShippingMode> {
  const [row] = await db.select({ value: siteSettings.value }).from(siteSettings).where(eq(siteSettings.key, PREORDER_SHIPPING_SETTING));
  const mode = (row?.value as { mode?: unknown } | undefined)?.mode;
  return PREORDER_SHIPPING_MODES.find((known) => known === mode) ?? DEFAULT_PREORDER_SHIPPING;
}

export async function savePreorderShipping(db: Db, mode: PreorderShippingMode, now = new Date()): Promise<void> {
  const value = { mode };
  await db
    .insert(siteSettings)
    .values({ key: PREORDER_SHIPPING_SETTING, value, updatedAt: now })
    .onConflictDoUpdate({ target: siteSettings.key, set: { value, updatedAt: now } });
}

/** The cart's words for a cart mixing pre-orders and items in stock: worded on the server, the cart only shows them (its JS budget). */
export async function mixedCartShippingNotice(db: Db): Promise<string> {
  return mixedCartShippingText(await getPreorderShipping(db));
}
