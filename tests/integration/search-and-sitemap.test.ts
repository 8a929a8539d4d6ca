import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { type NewProductRow, products } from "~/db/schema";
import { productSearchColumns } from "~/domain/search";
import { isPubliclyVisible } from "~/domain/visibility";
import { searchSuggestions } from "~/services/catalog.server";
import { seedSampleCatalogue } from "~/services/seed.server";
import { listSitemapProducts } from "~/services/sitemap.server";
import { databaseLabel, openTestDatabase } from "./test-database";

const now = new Date();
const HOUR = 3_600_000;

function product(title: string, extra: Partial<NewProductRow> = {}): NewProductRow {
  return { title, priceCents: 1500, stock: 4, category: "TCG", subCategory: "Scellés", ...productSearchColumns({ title }), ...extra };
}

describe(`header search and sitemap on ${databaseLabel}`, () => {
  let database: Database;
  const names = async (text: string) => (await searchSuggestions(database.db, text, { now, imageBaseUrl: "/uploads" })).map((s) => s.name);

  beforeAll(async () => {
    database = await openTestDatabase();
    await seedSampleCatalogue(database.db);
    await database.db.insert(products).values([
      product("Pokémon Lumière Cachée – hors ligne", { status: "hors_ligne" }),
      product("Pokémon Drop futur", { status: "a_venir", dropTime: new Date(now.getTime() + HOUR) }),
      product("Pokémon Drop passé", { status: "a_venir", dropTime: new Date(now.getTime() - HOUR) }),
      product("Pokémon Drop sans date", { status: "a_venir" }),
      ...Array.from({ length: 12 }, (_, i) => product(`Lot de cartes n°${i + 1}`)),
    ]);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("ignores accents and case on the product name", async () => {
    expect(await names("pokemon")).toContain("Pokémon Écarlate – Nintendo Switch");
    expect(await names("POKÉMON")).toContain("Pokémon Écarlate – Nintendo Switch");
    expect(await names("ecarlate")).toEqual(
      expect.arrayContaining(["Display Écarlate et Violet – 36 boosters", "Dracaufeu ex – Écarlate et Violet", "Pokémon Écarlate – Nintendo Switch"]),
    );
  });

  it("puts names starting with the text first, and needs every word", async () => {
    expect((await names("dracaufeu"))[0]?.startsWith("Dracaufeu")).toBe(true);
    expect(await names("pokemon switch")).toEqual(["Pokémon Écarlate – Nintendo Switch"]);
    expect(await names("toploader")).toEqual([]); // only in a description: suggestions match names
  });

  it("gives nothing under 2 characters", async () => {
    expect(await names("p")).toEqual([]);
    expect(await names(" é ")).toEqual([]);
    expect(await names("")).toEqual([]);
  });

  it("never gives more than 10 suggestions", async () => {
    expect(await names("lot de cartes")).toHaveLength(10);
  });

  it("leaves out offline and not yet dropped products, keeps a drop whose time has come", async () => {
    const found = await names("pokemon");
    expect(found).toContain("Pokémon Drop passé");
    expect(found).not.toContain("Pokémon Lumière Cachée – hors ligne");
    expect(found).not.toContain("Pokémon Drop futur");
    expect(found).not.toContain("Pokémon Drop sans date");
  });

  it("gives what an option shows: price in cents, a thumbnail URL and the display category", async () => {
    const [switchGame] = await searchSuggestions(database.db, "nintendo switch", { now, imageBaseUrl: "/uploads" });
    expect(switchGame).toMatchObject({ name: "Pokémon Écarlate – Nintendo Switch", category: "Gaming & Mangas" });
    expect(switchGame!.priceCents).toBeGreaterThan(0);
    expect(switchGame!.thumbnail).toMatch(/^\/uploads\/seed\/.+-320\.webp$/);
  });

  it("lists exactly the public products in the sitemap, with their last change", async () => {
    const all = await database.db.select().from(products);
    const expected = all.filter((p) => isPubliclyVisible(p, now)).map((p) => p.id).sort((a, b) => a - b);
    const listed = await listSitemapProducts(database.db, now);
    expect(listed.map((p) => p.id)).toEqual(expected);
    expect(listed.map((p) => p.name)).toContain("Pokémon Drop passé");
    expect(listed.map((p) => p.name)).not.toContain("Pokémon Drop futur");
    const [passed] = await database.db.select().from(products).where(eq(products.title, "Pokémon Drop passé"));
    expect(listed.find((p) => p.id === passed!.id)?.updatedAt).toEqual(passed!.updatedAt);
  });
});
