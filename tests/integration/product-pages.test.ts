import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { products } from "~/db/schema";
import { findUpcomingProduct, getPublicProduct, listProducts, listSimilarProducts } from "~/services/catalog.server";
import { seedSampleCatalogue } from "~/services/seed.server";
import { databaseLabel, openTestDatabase } from "./test-database";

const options = { now: new Date(), imageBaseUrl: "/uploads" };
const HOUR = 60 * 60 * 1000;

describe(`TCG listings, product page and similar products on ${databaseLabel}`, () => {
  let database: Database;
  const idOf = async (title: string) =>
    (await database.db.select({ id: products.id }).from(products).where(eq(products.title, title)))[0]!.id;

  beforeAll(async () => {
    database = await openTestDatabase();
    await seedSampleCatalogue(database.db);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("splits cards into recent and vintage, recent also covering cards without a type", async () => {
    const names = async (cardType: "recent" | "vintage") =>
      (await listProducts(database.db, { category: "cards", cardType }, { ...options, pageSize: 50 })).products.map((p) => p.name).sort();
    expect(await names("vintage")).toEqual([
      "Dracaufeu Holo – Set de Base",
      "Dracaufeu Obscur – Team Rocket",
      "Tortank Holo – Set de Base",
      "Typhlosion Holo – Neo Genesis",
    ]);
    await database.db.update(products).set({ cardType: null }).where(eq(products.title, "Lugia V – Astres Radieux"));
    expect(await names("recent")).toEqual(["Dracaufeu ex – Écarlate et Violet", "Lugia V – Astres Radieux", "Pikachu VMAX – Épée et Bouclier"]);
  });

  it("searches cards by name or series, ignoring case and accents, and filters by rarity", async () => {
    const names = async (nameOrSeries: string, rarity: "ultra-rare" | null = null) =>
      (await listProducts(database.db, { category: "cards", nameOrSeries, rarity }, { ...options, pageSize: 50 })).products.map((p) => p.name).sort();
    expect(await names("DRACAUFEU")).toEqual(["Dracaufeu Holo – Set de Base", "Dracaufeu Obscur – Team Rocket", "Dracaufeu ex – Écarlate et Violet"]);
    expect(await names("epee et bouclier")).toEqual(["Pikachu VMAX – Épée et Bouclier"]);
    expect(await names("base set")).toEqual(["Dracaufeu Holo – Set de Base", "Tortank Holo – Set de Base"]); // series "Base Set"
    expect(await names("toploader")).toEqual([]); // descriptions are not searched here
    expect(await names("", "ultra-rare")).toEqual(["Lugia V – Astres Radieux", "Pikachu VMAX – Épée et Bouclier"]);
  });

  it("pages sealed products 8 at a time", async () => {
    const page = await listProducts(database.db, { category: "sealed" }, { ...options, pageSize: 8 });
    expect(page).toMatchObject({ total: 5, pageCount: 1 });
  });

  it("shows a public product with all its images, and nothing for offline or future ones", async () => {
    const id = await idOf("Dracaufeu Holo – Set de Base");
    await database.db.update(products).set({ additionalImages: ["seed/back"] }).where(eq(products.id, id));
    const product = await getPublicProduct(database.db, id, options);
    expect(product).toMatchObject({ name: "Dracaufeu Holo – Set de Base", rarity: "rare", condition: expect.any(String) });
    expect(product!.images.map((i) => i.src)).toEqual(["/uploads/seed/dracaufeu-holo-set-de-base-640.webp", "/uploads/seed/back-640.webp"]);

    await database.db.update(products).set({ status: "hors_ligne" }).where(eq(products.id, id));
    expect(await getPublicProduct(database.db, id, options)).toBeNull();
    await database.db
      .update(products)
      .set({ status: "a_venir", dropTime: new Date(options.now.getTime() + HOUR) })
      .where(eq(products.id, id));
    expect(await getPublicProduct(database.db, id, options)).toBeNull();
    // Its page says when it goes on sale, with its image and price (not its stock), until then.
    const upcoming = await findUpcomingProduct(database.db, id, options);
    expect(upcoming).toEqual({
      name: "Dracaufeu Holo – Set de Base",
      priceCents: product!.priceCents,
      image: product!.images[0],
      dropTime: new Date(options.now.getTime() + HOUR),
      // Not a drop with rules for buyers (issue 39): nothing more to announce.
      drop: null,
    });
    expect(upcoming).not.toHaveProperty("stock");
    expect(await findUpcomingProduct(database.db, id, { ...options, now: new Date(options.now.getTime() + 2 * HOUR) })).toBeNull();
    // At its drop time it is public by itself, before the sweeper flips its status.
    expect(await getPublicProduct(database.db, id, { ...options, now: new Date(options.now.getTime() + 2 * HOUR) })).not.toBeNull();
    await database.db.update(products).set({ status: "hors_ligne" }).where(eq(products.id, id));
    expect(await findUpcomingProduct(database.db, id, options)).toBeNull(); // offline: nothing to say
    await database.db.update(products).set({ status: "en_ligne", dropTime: null }).where(eq(products.id, id));
    expect(await getPublicProduct(database.db, 999_999, options)).toBeNull();
  });

  it("offers up to 4 similar products of the same category, same rarity first, never itself", async () => {
    const id = await idOf("Tortank Holo – Set de Base");
    const similar = await listSimilarProducts(database.db, id, options);
    expect(similar.length).toBeLessThanOrEqual(4);
    expect(similar.map((p) => p.id)).not.toContain(id);
    expect(similar.every((p) => ["TCG", "Cartes Vintage", "Cartes Récentes"].includes(p.category) && p.subCategory === "Cartes")).toBe(true);
    const rareFirst = similar.findIndex((p) => p.rarity !== "rare");
    expect(similar.slice(0, rareFirst === -1 ? undefined : rareFirst).every((p) => p.rarity === "rare")).toBe(true);
    expect(similar.filter((p) => p.rarity === "rare")).toHaveLength(3);
    expect(await listSimilarProducts(database.db, 999_999, options)).toEqual([]);
  });
});
