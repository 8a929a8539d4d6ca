import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { discountCodes, products, siteMessages, siteSettings } from "~/db/schema";
import type { CatalogQuery } from "~/domain/catalog-query";
import type { Countdown, Promotion } from "~/domain/site-content";
import { getCartProducts } from "~/services/cart.server";
import {
  countByCatalogCategory,
  countProducts,
  findProductHiddenByCountdown,
  getPublicProduct,
  listCatalog,
  listFeaturedProducts,
  listProducts,
  listSimilarProducts,
  searchSuggestions,
} from "~/services/catalog.server";
import { type CheckoutContext, startCheckout } from "~/services/checkout.server";
import { createTestProvider } from "~/services/payments/test-provider.server";
import { seedSampleCatalogue } from "~/services/seed.server";
import {
  getHeroBanner,
  getHiddenCategory,
  getPublicBanners,
  getSiteContent,
  listHiddenProductIds,
  nextBannerChange,
  saveCountdown,
  saveHeroBanner,
  savePromotion,
} from "~/services/site-content.server";
import { invalidateSiteCaches } from "~/services/site-cache.server";
import { createSiteMessage, deleteSiteMessage, listActiveSiteMessages } from "~/services/site-messages.server";
import { listSitemapProducts } from "~/services/sitemap.server";
import { databaseLabel, openTestDatabase } from "./test-database";

// 18:00 in Paris on 1 December 2026 (winter time: UTC+1).
const TARGET = new Date("2026-12-01T17:00:00Z");
const BEFORE = new Date(TARGET.getTime() - 60_000);
const AFTER = TARGET;

const promotion: Promotion = {
  code: "NOEL20",
  message: "-20 % sur tout le site pour Noël",
  position: "banner",
  expiresAt: "2026-12-01T16:00:00.000Z",
  isVisible: true,
  percentOff: 20,
};
const countdown: Countdown = {
  isActive: true,
  date: "2026-12-01",
  hour: "18",
  minute: "00",
  second: "00",
  message: "Ouverture du display dans",
  category: "sealed",
  location: "home",
  hideProducts: true,
};

describe(`promotion, countdown and hero banner on ${databaseLabel}`, () => {
  let database: Database;
  let sealedIds: number[];
  let otherIds: number[];
  const SEALED = ["Display Écarlate et Violet – 36 boosters", "Booster Astres Radieux", "Coffret Dresseur d'Élite Épée et Bouclier", "Booster Fusion Strike", "Display Soleil et Lune – Ultra Prisme"];

  beforeAll(async () => {
    database = await openTestDatabase();
    await seedSampleCatalogue(database.db);
    const rows = await database.db.select({ id: products.id, subCategory: products.subCategory }).from(products);
    sealedIds = rows.filter((row) => row.subCategory === "Scellés").map((row) => row.id);
    otherIds = rows.filter((row) => row.subCategory !== "Scellés").map((row) => row.id);
  });
  afterAll(async () => {
    await database?.close();
  });

  describe("settings", () => {
    it("reads SPEC.md's defaults before anything is saved: nothing shows, nothing is hidden", async () => {
      const content = await getSiteContent(database.db);
      expect(content).toMatchObject({ promotionSaved: false, promotion: { isVisible: false, position: "banner", percentOff: 15 }, countdown: { isActive: false, category: "sealed", location: "home", hideProducts: true } });
      expect(content.hero).toMatchObject({ isActive: true, showPromoVersion: 1 });
      expect(await getPublicBanners(database.db, BEFORE)).toEqual({ promotion: null, countdown: null });
      expect(await getHiddenCategory(database.db, BEFORE)).toBeNull();
      expect(await nextBannerChange(database.db, BEFORE)).toBeNull();
    });

    it("round-trips the three settings", async () => {
      await savePromotion(database.db, promotion);
      await saveCountdown(database.db, countdown);
      const hero = { isActive: false, message: "Live jeudi 20 h", promoCode: "LIVE5", showPromoVersion: 2 as const };
      await saveHeroBanner(database.db, hero);
      expect(await getSiteContent(database.db)).toEqual({ promotion, promotionSaved: true, countdown, hero });
      expect(await getHeroBanner(database.db)).toEqual(hero);
      // Saving again replaces (one row per key).
      await saveHeroBanner(database.db, { ...hero, isActive: true });
      expect((await getHeroBanner(database.db)).isActive).toBe(true);
      expect(await database.db.select().from(siteSettings).where(eq(siteSettings.key, "hero_banner"))).toHaveLength(1);
    });

    it("keeps what every page reads in memory: a save shows at once, a write elsewhere with the change event", async () => {
      // The countdown on, and a fresh site message; both read once (the next pages get them from memory).
      await saveCountdown(database.db, countdown);
      const message = await createSiteMessage(database.db, { title: "Arrivage", content: "Les displays sont là", location: "global" });
      expect((await getPublicBanners(database.db, BEFORE)).countdown).not.toBeNull();
      expect((await listActiveSiteMessages(database.db)).map((m) => m.id)).toContain(message.id);

      // Another process turns both off: the pages keep what they read until its change event.
      await database.db.update(siteSettings).set({ value: { ...countdown, isActive: false } }).where(eq(siteSettings.key, "countdown"));
      await database.db.update(siteMessages).set({ isActive: false }).where(eq(siteMessages.id, message.id));
      expect((await getPublicBanners(database.db, BEFORE)).countdown).not.toBeNull();
      expect((await listActiveSiteMessages(database.db)).map((m) => m.id)).toContain(message.id);
      invalidateSiteCaches();
      expect((await getPublicBanners(database.db, BEFORE)).countdown).toBeNull();
      expect(await getHiddenCategory(database.db, BEFORE)).toBeNull();
      expect((await listActiveSiteMessages(database.db)).map((m) => m.id)).not.toContain(message.id);

      // Saved here: seen at once, no event needed.
      await saveCountdown(database.db, countdown);
      expect(await getHiddenCategory(database.db, BEFORE)).toBe("sealed");
      await deleteSiteMessage(database.db, message.id);
    });

    it("keeps the promotion's discount code in step: created, updated, and retired for a new code", async () => {
      const promotionCodes = () => database.db.select().from(discountCodes).where(inArray(discountCodes.code, ["NOEL20", "SOLDES30"]));
      expect(await promotionCodes()).toEqual([
        expect.objectContaining({ code: "NOEL20", kind: "percent", percentOff: 20, isActive: true, isPromotion: true, expiresAt: new Date(promotion.expiresAt!) }),
      ]);
      await savePromotion(database.db, { ...promotion, isVisible: false });
      expect((await promotionCodes())[0]).toMatchObject({ code: "NOEL20", isActive: false });
      await savePromotion(database.db, { ...promotion, code: "SOLDES30", percentOff: 30, expiresAt: null });
      const byCode = Object.fromEntries((await promotionCodes()).map((row) => [row.code, row]));
      expect(byCode.SOLDES30).toMatchObject({ percentOff: 30, isActive: true, isPromotion: true, expiresAt: null });
      expect(byCode.NOEL20).toMatchObject({ isActive: false, isPromotion: false });
      await savePromotion(database.db, promotion);
    });

    it("reads an unreadable stored value as the defaults: hidden, inactive", async () => {
      await database.db.update(siteSettings).set({ value: { isVisible: "oui", position: 3 } }).where(eq(siteSettings.key, "promotion"));
      await database.db.update(siteSettings).set({ value: "n'importe quoi" }).where(eq(siteSettings.key, "countdown"));
      // Written behind the services' back: what the change feed's event does in the server.
      invalidateSiteCaches();
      expect(await getPublicBanners(database.db, BEFORE)).toEqual({ promotion: null, countdown: null });
      expect(await getHiddenCategory(database.db, BEFORE)).toBeNull();
      await savePromotion(database.db, promotion);
      await saveCountdown(database.db, countdown);
    });
  });

  describe("getPublicBanners and the next change", () => {
    it("gives the promotion until its expiry and the countdown until its target, with what the browser needs", async () => {
      expect(await getPublicBanners(database.db, new Date("2026-12-01T15:00:00Z"))).toEqual({
        promotion: { code: "NOEL20", message: promotion.message, position: "banner", percentOff: 20, expiresAt: promotion.expiresAt },
        countdown: { message: "Ouverture du display dans", targetAt: TARGET.toISOString(), location: "home", hiddenCategoryLabel: "Scellés" },
      });
      const later = await getPublicBanners(database.db, BEFORE);
      expect(later.promotion).toBeNull();
      expect(later.countdown?.targetAt).toBe(TARGET.toISOString());
      expect(await getPublicBanners(database.db, AFTER)).toEqual({ promotion: null, countdown: null });
    });

    it("says the countdown hides nothing when hideProducts is off", async () => {
      await saveCountdown(database.db, { ...countdown, hideProducts: false });
      expect((await getPublicBanners(database.db, BEFORE)).countdown?.hiddenCategoryLabel).toBeNull();
      expect(await getHiddenCategory(database.db, BEFORE)).toBeNull();
      await saveCountdown(database.db, countdown);
    });

    it("plans the next change: the promotion's expiry, then the countdown's end, then nothing", async () => {
      expect(await nextBannerChange(database.db, new Date("2026-12-01T15:00:00Z"))).toEqual(new Date("2026-12-01T16:00:00.001Z"));
      expect(await nextBannerChange(database.db, BEFORE)).toEqual(TARGET);
      expect(await nextBannerChange(database.db, AFTER)).toBeNull();
    });
  });

  describe("a countdown hiding sealed products", () => {
    const options = (now: Date) => ({ now, imageBaseUrl: "/uploads" });
    const all: CatalogQuery = { q: "", category: null, sort: "newest", page: 1 };
    const catalogNames = async (now: Date, query: Partial<CatalogQuery> = {}) =>
      (await listCatalog(database.db, { ...all, ...query }, { ...options(now), pageSize: 50 })).products.map((p) => p.name);

    it("hides them from listings, counts, featured products, search and the sitemap while it runs", async () => {
      expect(await getHiddenCategory(database.db, BEFORE)).toBe("sealed");
      const names = await catalogNames(BEFORE);
      expect(names).toHaveLength(18 - SEALED.length);
      expect(names).not.toEqual(expect.arrayContaining([SEALED[0]]));
      expect(await catalogNames(BEFORE, { category: "sealed" })).toEqual([]);
      expect(await catalogNames(BEFORE, { q: "display" })).toEqual([]);
      expect((await listProducts(database.db, { category: "sealed" }, { ...options(BEFORE), pageSize: 8 })).total).toBe(0);
      expect(await countProducts(database.db, { category: "sealed" }, BEFORE)).toBe(0);
      expect((await countByCatalogCategory(database.db, BEFORE)).sealed).toBe(0);
      expect((await countByCatalogCategory(database.db, BEFORE)).cards).toBeGreaterThan(0);
      const featured = (await listFeaturedProducts(database.db, options(BEFORE))).map((p) => p.name);
      expect(featured.length).toBeGreaterThan(0);
      expect(featured.filter((name) => SEALED.includes(name))).toEqual([]);
      // The Magic booster is an "other card", not a sealed product.
      expect((await searchSuggestions(database.db, "booster", options(BEFORE))).map((p) => p.name)).toEqual(["Booster de jeu Magic: The Gathering"]);
      expect((await searchSuggestions(database.db, "dracaufeu", options(BEFORE))).length).toBeGreaterThan(0);
      const sitemap = (await listSitemapProducts(database.db, BEFORE)).map((p) => p.id);
      expect(sitemap.sort()).toEqual([...otherIds].sort());
    });

    it("hides their pages and similar products; the page can say when they come back", async () => {
      const [id] = sealedIds;
      expect(await getPublicProduct(database.db, id!, options(BEFORE))).toBeNull();
      expect(await listSimilarProducts(database.db, id!, options(BEFORE))).toEqual([]);
      expect(await findProductHiddenByCountdown(database.db, id!, BEFORE)).toEqual({ name: expect.any(String), until: TARGET });
      expect(await findProductHiddenByCountdown(database.db, otherIds[0]!, BEFORE)).toBeNull();
      expect(await findProductHiddenByCountdown(database.db, id!, AFTER)).toBeNull();
      // An offline product stays unknown, countdown or not.
      await database.db.update(products).set({ status: "hors_ligne" }).where(eq(products.id, sealedIds[1]!));
      expect(await findProductHiddenByCountdown(database.db, sealedIds[1]!, BEFORE)).toBeNull();
      await database.db.update(products).set({ status: "en_ligne" }).where(eq(products.id, sealedIds[1]!));
    });

    it("drops them from a cart refresh and refuses them at checkout like unavailable products", async () => {
      const cart = await getCartProducts(database.db, [sealedIds[0]!, otherIds[0]!], options(BEFORE));
      expect(cart.map((p) => p.id)).toEqual([otherIds[0]]);
      expect(await listHiddenProductIds(database.db, [sealedIds[0]!, otherIds[0]!], BEFORE)).toEqual(new Set([sealedIds[0]]));
      expect(await listHiddenProductIds(database.db, [sealedIds[0]!], AFTER)).toEqual(new Set());

      const provider = createTestProvider({ db: database.db, secret: "site-content-secret" });
      const ctx = (now: Date): CheckoutContext => ({ now, customer: null, clientIp: `203.0.113.${now.getTime() % 250}`, orderPrefix: "CPT", origin: "http://shop.test", reservationMinutes: 30 });
      const body = { items: [{ productId: sealedIds[0]!, quantity: 1 }], insuranceSelected: false };
      const refused = await startCheckout(database.db, provider, body, ctx(BEFORE));
      expect(refused).toMatchObject({ status: 409, body: { error: "Produit indisponible", code: "UNAVAILABLE" } });
      const accepted = await startCheckout(database.db, provider, body, ctx(AFTER));
      expect(accepted.status).toBe(200);
    });

    it("brings everything back by itself at the target", async () => {
      expect(await getHiddenCategory(database.db, AFTER)).toBeNull();
      expect(await catalogNames(AFTER, { category: "sealed" })).toHaveLength(SEALED.length);
      expect((await countByCatalogCategory(database.db, AFTER)).sealed).toBe(SEALED.length);
      expect((await searchSuggestions(database.db, "booster", options(AFTER))).map((p) => p.name)).toContain("Booster Fusion Strike");
      expect(await getPublicProduct(database.db, sealedIds[0]!, options(AFTER))).not.toBeNull();
      expect((await getCartProducts(database.db, [sealedIds[0]!], options(AFTER))).map((p) => p.id)).toEqual([sealedIds[0]]);
      expect(await listSitemapProducts(database.db, AFTER)).toHaveLength(18);
    });

    it("hides another category the same way, and nothing once deactivated", async () => {
      await saveCountdown(database.db, { ...countdown, category: "entertainment" });
      expect(await catalogNames(BEFORE, { category: "entertainment" })).toEqual([]);
      expect(await catalogNames(BEFORE, { category: "sealed" })).toHaveLength(SEALED.length);
      await saveCountdown(database.db, { ...countdown, isActive: false });
      expect(await catalogNames(BEFORE)).toHaveLength(18);
    });
  });
});
