import { eq } from "drizzle-orm";
import { siteSettings } from "~/db/schema";
import type { Db } from "~/db/types";
import { type HeroBanner, parseHeroBanner } from "~/domain/site-content";

export async function getHeroBanner(db: Db): Promise<HeroBanner> {
  const [row] = await db.select({ value: siteSettings.value }).from(siteSettings).where(eq(siteSettings.key, "hero_banner"));
  return parseHeroBanner(row?.value);
}
