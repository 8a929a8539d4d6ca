import { inArray } from "drizzle-orm";
import { products, siteSettings } from "~/db/schema";
import type { Db } from "~/db/types";
import { type CatalogCategoryId, catalogCategoryOf } from "~/domain/categories";
import {
  type Countdown,
  type CountdownLocation,
  type HeroBanner,
  type Promotion,
  type PromotionPosition,
  countdownTarget,
  hiddenCategory,
  isCountdownActive,
  isPromotionActive,
  nextSiteContentChange,
  parseCountdown,
  parseHeroBanner,
  parsePromotion,
} from "~/domain/site-content";
import { CATALOG_CATEGORY_LABELS } from "~/domain/catalog-query";
import { syncPromotionCode } from "./discounts.server";
import { invalidateSiteCaches, siteCache } from "./site-cache.server";

/** The site_settings keys of the promotions page. */
const KEYS = { promotion: "promotion", countdown: "countdown", hero: "hero_banner" } as const;

async function readSettings(db: Db, keys: string[]): Promise<Map<string, unknown>> {
  const rows = await db.select({ key: siteSettings.key, value: siteSettings.value }).from(siteSettings).where(inArray(siteSettings.key, keys));
  return new Map(rows.map((row) => [row.key, row.value]));
}

/**
 * The three settings as stored, read once per change (site-cache.server): every public page
 * reads them (the banners, the category a countdown hides), while they change a few times a day.
 */
const storedSettings = siteCache((db) => readSettings(db, Object.values(KEYS)));

async function writeSetting(db: Db, key: string, value: unknown, now: Date): Promise<void> {
  await db
    .insert(siteSettings)
    .values({ key, value, updatedAt: now })
    .onConflictDoUpdate({ target: siteSettings.key, set: { value, updatedAt: now } });
}

export async function getHeroBanner(db: Db): Promise<HeroBanner> {
  return parseHeroBanner((await storedSettings.get(db)).get(KEYS.hero));
}

/** The three settings as stored (over SPEC.md's defaults), and whether the promotion was ever saved; read afresh (the admin form). */
export async function getSiteContent(db: Db): Promise<{ promotion: Promotion; promotionSaved: boolean; countdown: Countdown; hero: HeroBanner }> {
  const stored = await readSettings(db, Object.values(KEYS));
  return {
    promotion: parsePromotion(stored.get(KEYS.promotion)),
    promotionSaved: stored.has(KEYS.promotion),
    countdown: parseCountdown(stored.get(KEYS.countdown)),
    hero: parseHeroBanner(stored.get(KEYS.hero)),
  };
}

/**
 * Saves the promotion and keeps its discount code in step (discount_codes, is_promotion) in the
 * same transaction: the code works at checkout exactly while the banner is on and unexpired.
 */
export async function savePromotion(db: Db, promotion: Promotion, now = new Date()): Promise<void> {
  await db.transaction(async (tx) => {
    await writeSetting(tx, KEYS.promotion, promotion, now);
    await syncPromotionCode(tx, {
      code: promotion.code,
      percentOff: promotion.percentOff,
      expiresAt: promotion.expiresAt === null ? null : new Date(promotion.expiresAt),
      isActive: promotion.isVisible,
    });
  });
  // Once committed: a page read in between would otherwise keep the old value.
  invalidateSiteCaches();
}

export async function saveCountdown(db: Db, countdown: Countdown, now = new Date()): Promise<void> {
  await writeSetting(db, KEYS.countdown, countdown, now);
  invalidateSiteCaches();
}

export async function saveHeroBanner(db: Db, hero: HeroBanner, now = new Date()): Promise<void> {
  await writeSetting(db, KEYS.hero, hero, now);
  invalidateSiteCaches();
}

/** What every public page shows above its content: the promotion and the countdown, when active. */
export type PublicBanners = {
  promotion: { code: string; message: string; position: PromotionPosition; percentOff: number; expiresAt: string | null } | null;
  /** `targetAt` (ISO): the browser counts down to it from the server's clock (sent over /api/live). */
  countdown: {
    message: string;
    targetAt: string;
    location: CountdownLocation;
    /** The category it hides until the end, as visitors read it; null when it hides nothing. */
    hiddenCategoryLabel: string | null;
  } | null;
};

export async function getPublicBanners(db: Db, now: Date): Promise<PublicBanners> {
  const stored = await storedSettings.get(db);
  const promotion = parsePromotion(stored.get(KEYS.promotion));
  const countdown = parseCountdown(stored.get(KEYS.countdown));
  return {
    promotion: isPromotionActive(promotion, now)
      ? { code: promotion.code, message: promotion.message, position: promotion.position, percentOff: promotion.percentOff, expiresAt: promotion.expiresAt }
      : null,
    countdown: isCountdownActive(countdown, now)
      ? {
          message: countdown.message,
          targetAt: countdownTarget(countdown)!.toISOString(),
          location: countdown.location,
          hiddenCategoryLabel: countdown.hideProducts ? CATALOG_CATEGORY_LABELS[countdown.category] : null,
        }
      : null,
  };
}

/** The catalogue category a running countdown hides now, and when it comes back; null when none. */
export async function getHiding(db: Db, now: Date): Promise<{ category: CatalogCategoryId; until: Date } | null> {
  const countdown = parseCountdown((await storedSettings.get(db)).get(KEYS.countdown));
  const category = hiddenCategory(countdown, now);
  return category ? { category, until: countdownTarget(countdown)! } : null;
}

/** The catalogue category a running countdown hides from listings, search, product pages, cart and checkout. */
export async function getHiddenCategory(db: Db, now: Date): Promise<CatalogCategoryId | null> {
  return (await getHiding(db, now))?.category ?? null;
}

/** Those of `ids` a running countdown hides now (checkout refuses them as unavailable). */
export async function listHiddenProductIds(db: Db, ids: number[], now: Date): Promise<Set<number>> {
  const hidden = ids.length === 0 ? null : await getHiddenCategory(db, now);
  if (!hidden) return new Set();
  const rows = await db
    .select({ id: products.id, category: products.category, subCategory: products.subCategory })
    .from(products)
    .where(inArray(products.id, ids));
  return new Set(rows.filter((row) => catalogCategoryOf(row.category, row.subCategory) === hidden).map((row) => row.id));
}

/**
 * When what visitors see next changes by itself (the countdown's end, the promotion's expiry), or
 * null. Read afresh, not from memory: the server re-plans its timer on the change event, which
 * may arrive before the write that caused it has invalidated the cache.
 */
export async function nextBannerChange(db: Db, now: Date): Promise<Date | null> {
  const stored = await readSettings(db, [KEYS.promotion, KEYS.countdown]);
  return nextSiteContentChange(parsePromotion(stored.get(KEYS.promotion)), parseCountdown(stored.get(KEYS.countdown)), now);
}
