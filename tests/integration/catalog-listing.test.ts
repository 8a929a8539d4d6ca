import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { products } from "~/db/schema";
import { type CatalogQuery } from "~/domain/catalog-query";
import { countProducts, listCatalog, listProducts } from "~/services/catalog.server";
import { seedSampleCatalogue } from "~/services/seed.server";
import { databaseLabel, openTestDatabase } from "./test-database";

const all: CatalogQuery = { q: "", category: null, sort: "newest", page: 1 };
const options = { now: new Date(), imageBaseUrl: "/uploads" };

describe(`catalogue listing on ${databaseLabel}`, () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
    await seedSampleCatalogue(database.db);
    await database.db.update(products).set({ status: "hors_ligne" }).where(eq(products.title, "Booster Fusion Strike"));
  });
  afterAll(async () => {
    await database?.close();
  });

  it("lists public products only, newest first", async () => {
    const page = await listCatalog(database.db, all, options);
    expect(page.total).toBe(17);
    expect(page.products.map((p) => p.name)).not.toContain("Booster Fusion Strike");
    expect(page.products[0]?.name).toBe("Pikachu VMAX – Épée et Bouclier"); // the most recent sample
  });

  it("searches name and description ignoring case and accents, every word required", async () => {
    const names = async (q: string) => (await listCatalog(database.db, { ...all, q }, options)).products.map((p) => p.name);
    expect(await names("ECARLATE")).toEqual(expect.arrayContaining(["Display Écarlate et Violet – 36 boosters", "Dracaufeu ex – Écarlate et Violet", "Pokémon Écarlate – Nintendo Switch"]));
    expect(await names("pokemon switch")).toEqual(["Pokémon Écarlate – Nintendo Switch"]);
    expect(await names("toploader")).toEqual(["Dracaufeu Holo – Set de Base"]); // only in its description
    expect(await names("100%")).toEqual([]); // wildcards match themselves
  });

  it("filters by catalogue category", async () => {
    const sealed = await listCatalog(database.db, { ...all, category: "sealed" }, options);
    expect(sealed.total).toBe(4);
    expect(sealed.products.every((p) => p.category === "TCG" && p.subCategory === "Scellés")).toBe(true);
    const entertainment = await listCatalog(database.db, { ...all, category: "entertainment" }, options);
    expect(entertainment.products.map((p) => p.name).sort()).toEqual(["One Piece – Tome 105", "Pokémon Écarlate – Nintendo Switch"]);
  });

  it("sorts by price both ways and by name, accents folded", async () => {
    const prices = (await listCatalog(database.db, { ...all, sort: "price-asc" }, options)).products.map((p) => p.priceCents);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    const desc = (await listCatalog(database.db, { ...all, sort: "price-desc" }, options)).products.map((p) => p.priceCents);
    expect(desc[0]).toBe(49_999);
    const names = (await listCatalog(database.db, { ...all, sort: "name" }, options)).products.map((p) => p.name);
    expect(names[0]).toBe("Booster Astres Radieux");
    expect(names.indexOf("Display Soleil et Lune – Ultra Prisme")).toBeLessThan(names.indexOf("Dracaufeu ex – Écarlate et Violet"));
  });

  it("pages, and clamps a page past the end to the last one", async () => {
    const first = await listCatalog(database.db, all, { ...options, pageSize: 5 });
    expect(first).toMatchObject({ total: 17, page: 1, pageCount: 4 });
    const last = await listCatalog(database.db, { ...all, page: 99 }, { ...options, pageSize: 5 });
    expect(last.page).toBe(4);
    expect(last.products).toHaveLength(2);
  });

  it("pages a search the same way: its total, and a page past its end clamped", async () => {
    const first = await listCatalog(database.db, { ...all, q: "ecarlate" }, { ...options, pageSize: 2 });
    expect(first.total).toBeGreaterThan(2);
    expect(first).toMatchObject({ page: 1, pageCount: Math.ceil(first.total / 2) });
    const last = await listCatalog(database.db, { ...all, q: "ecarlate", page: 99 }, { ...options, pageSize: 2 });
    expect(last).toMatchObject({ total: first.total, page: first.pageCount });
    expect(last.products).toHaveLength(first.total % 2 || 2);
  });

  it("reads every product once across the pages of each sort", async () => {
    for (const sort of ["newest", "price-asc", "price-desc", "name"] as const) {
      const pages = await Promise.all([1, 2, 3, 4].map((page) => listCatalog(database.db, { ...all, sort, page }, { ...options, pageSize: 5 })));
      const ids = pages.flatMap((p) => p.products.map((product) => product.id));
      expect(new Set(ids).size, sort).toBe(17);
    }
  });

  it("counts what a filter selects: the featured accessories are the packs of /accessories", async () => {
    expect(await countProducts(database.db, { category: "accessories" }, options.now)).toBe(2);
    expect(await countProducts(database.db, { category: "accessories", featured: true }, options.now)).toBe(1);
    expect(await countProducts(database.db, {}, options.now)).toBe(17);
    const packs = await listProducts(database.db, { category: "accessories", featured: true }, { ...options, pageSize: 12 });
    expect(packs.products.map((p) => p.name)).toEqual(["Protège-cartes Premium (100 pochettes)"]);
  });
});
