import { eq } from "drizzle-orm";
import { siteSettings } from "~/db/schema";
import type { Db } from "~/db/types";
import { type HeroBanner, parseHeroBanner } from "~/domain/site-content";

export async function getHeroBanner(db: Db): Promise<HeroBanner> {
  const [row] = await db.select({ value: siteSettings.value }).from(siteSettings).where(eq(siteSettings.key, "hero_banner"));
  return parseHeroBanner(row?.value);
}

/** What every public page shows above its content: the promotion and the countdown, when active. */
export type PublicBanners = { promotion: null; countdown: null };

/** Placeholder (issue 12): the promotions helper fills this in. */
export async function getPublicBanners(_db: Db, _now: Date): Promise<PublicBanners> {
  return { promotion: null, countdown: null };
}
