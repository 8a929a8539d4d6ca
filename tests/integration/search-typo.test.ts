// Typo-tolerant search (pg_trgm, migration 0009): the header suggestions and the /catalog search
// find "Dracaufeu" from "dracofeu" and "Pikachu" from "pikatchu", rank exact and prefix matches
// first, never show a hidden product, and stay on the trigram indexes with 10,000 products.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { type NewProductRow, products } from "~/db/schema";
import type { CatalogQuery } from "~/domain/catalog-query";
import { productSearchColumns } from "~/domain/search";
import { listCatalog, searchSuggestions } from "~/services/catalog.server";
import { seedSampleCatalogue } from "~/services/seed.server";
import { databaseLabel, openTestDatabase } from "./test-database";

const now = new Date();
const options = { now, imageBaseUrl: "/uploads" };
const MINUTE = 60_000;

/** A product created `minutesAgo` before now: later rows are newer, so "newest" alone would put them first. */
function product(title: string, minutesAgo: number, extra: Partial<NewProductRow> = {}): NewProductRow {
  const description = extra.description ?? "";
  return {
    title,
    priceCents: 1500,
    stock: 3,
    category: "TCG",
    subCategory: "Cartes",
    createdAt: new Date(now.getTime() - minutesAgo * MINUTE),
    ...productSearchColumns({ title, description }),
    ...extra,
  };
}

describe(`typo-tolerant search on ${databaseLabel}`, () => {
  let database: Database;
  const suggested = async (text: string) => (await searchSuggestions(database.db, text, options)).map((s) => s.name);
  const found = async (q: string, sort: CatalogQuery["sort"] = "newest") =>
    (await listCatalog(database.db, { q, category: null, sort, page: 1 }, { ...options, pageSize: 100 })).products.map((p) => p.name);

  beforeAll(async () => {
    database = await openTestDatabase();
    await seedSampleCatalogue(database.db);
    // The better the match, the older the product: relevance has to beat "newest first".
    await database.db.insert(products).values([
      product("Pikachu", 50, { priceCents: 9000 }),
      product("Classeur – Pikachu", 40, { priceCents: 2000, category: "Accessoires", subCategory: "Rangement" }),
      product("Tapis de jeu électrique", 30, { description: "Illustré par Pikachu et ses amis.", priceCents: 1000, category: "Accessoires", subCategory: "Jeu" }),
      product("Peluche Pikachou", 20, { priceCents: 500, category: "Accessoires", subCategory: "Jeu" }),
      // Other real names, close but not typos: never brought in by the tolerance.
      product("Pichu Holo – Neo Genesis", 10),
      product("Dracolosse V – Fossile", 10),
      // Hidden: offline, or a drop still to come.
      product("Pikachu Illustrator – hors ligne", 1, { status: "hors_ligne" }),
      product("Dracaufeu Gold Star – à venir", 1, { status: "a_venir", dropTime: new Date(now.getTime() + 60 * MINUTE) }),
    ]);
  });
  afterAll(async () => {
    await database?.close();
  });

  it('suggests "Dracaufeu" for "dracofeu" and "Pikachu" for "pikatchu"', async () => {
    expect(await suggested("dracofeu")).toEqual(["Dracaufeu ex – Écarlate et Violet", "Dracaufeu Holo – Set de Base", "Dracaufeu Obscur – Team Rocket"]);
    expect(await suggested("pikatchu")).toEqual(expect.arrayContaining(["Pikachu", "Pikachu VMAX – Épée et Bouclier", "Classeur – Pikachu"]));
    expect(await suggested("Dracofeu EX")).toEqual(["Dracaufeu ex – Écarlate et Violet"]);
  });

  it('finds "Dracaufeu" from "dracofeu" and "Pikachu" from "pikatchu" in the catalogue', async () => {
    expect(await found("dracofeu")).toEqual(
      expect.arrayContaining(["Dracaufeu ex – Écarlate et Violet", "Dracaufeu Holo – Set de Base", "Dracaufeu Obscur – Team Rocket"]),
    );
    expect(await found("pikatchu")).toEqual(expect.arrayContaining(["Pikachu", "Pikachu VMAX – Épée et Bouclier", "Tapis de jeu électrique"]));
  });

  it("leaves other real names out: Pichu is no Pikachu, Dracolosse no Dracaufeu", async () => {
    expect(await suggested("pikachu")).not.toContain("Pichu Holo – Neo Genesis");
    expect(await suggested("dracofeu")).not.toContain("Dracolosse V – Fossile");
    expect(await found("dracaufeu")).not.toContain("Dracolosse V – Fossile");
  });

  it("ranks the exact name, then names starting with the text, then the word anywhere, then typos", async () => {
    expect(await suggested("pikachu")).toEqual(["Pikachu", "Pikachu VMAX – Épée et Bouclier", "Classeur – Pikachu", "Peluche Pikachou"]);
    // The catalogue also searches descriptions: after the names, before the typos.
    expect(await found("pikachu")).toEqual(["Pikachu", "Pikachu VMAX – Épée et Bouclier", "Classeur – Pikachu", "Tapis de jeu électrique", "Peluche Pikachou"]);
  });

  it("keeps a sort the visitor chose over relevance", async () => {
    expect(await found("pikachu", "price-asc")).toEqual(["Peluche Pikachou", "Tapis de jeu électrique", "Classeur – Pikachu", "Pikachu VMAX – Épée et Bouclier", "Pikachu"]);
  });

  it("still needs every word, exactly typed or close", async () => {
    expect(await suggested("pokemon switch")).toEqual(["Pokémon Écarlate – Nintendo Switch"]);
    expect(await found("pokemon switch")).toEqual(["Pokémon Écarlate – Nintendo Switch"]);
    expect(await found("pikatchu vmax")).toEqual(["Pikachu VMAX – Épée et Bouclier"]);
    expect(await suggested("pikatchu zorglub")).toEqual([]);
  });

  it("never returns an offline product or a drop still to come", async () => {
    for (const text of ["pikachu", "pikatchu", "illustrator", "dracaufeu", "dracofeu", "gold star"]) {
      for (const names of [await suggested(text), await found(text)]) {
        expect(names).not.toContain("Pikachu Illustrator – hors ligne");
        expect(names).not.toContain("Dracaufeu Gold Star – à venir");
      }
    }
  });

  describe("with 10,000 products", () => {
    beforeAll(async () => {
      // One statement: names from 20 Pokémon in turn, 1 in 7 offline; a reference in each
      // description makes the word list as long as a real catalogue's (10,000 more words).
      await database.db.execute(sql`
        insert into products (title, description, price_cents, stock, category, sub_category, status, name_search, search_text, created_at)
        select title, description, 100 + i, 1, 'TCG', 'Cartes', case when i % 7 = 0 then 'hors_ligne' else 'en_ligne' end,
               lower(title), lower(title || ' ' || description), now() - make_interval(days => i)
        from (
          select i,
                 (array['Mewtwo', 'Lugia', 'Ronflex', 'Tortank', 'Florizarre', 'Rayquaza', 'Gardevoir', 'Ectoplasma', 'Noctali',
                        'Aquali', 'Typhlosion', 'Dracolosse', 'Salameche', 'Evoli', 'Pichu', 'Dracaufeu', 'Pikachu', 'Leviator',
                        'Mew', 'Artikodin'])[1 + i % 20] || ' Holo – lot ' || i as title,
                 'Carte générée, référence ' || substr(md5(i::text), 1, 8) || ', état excellent.' as description
          from generate_series(1, 10000) as i
        ) as generated`);
      // As a PGlite server does at start (db/client.server.ts), PostgreSQL's autovacuum a bit later.
      await database.db.execute(sql`vacuum analyze products, search_words`);
    });

    type Client = { query: (...args: unknown[]) => Promise<{ rows: Record<string, unknown>[] }> };
    /** The PGlite instance or the pg pool under drizzle: both take `query(text or { text }, params)`. */
    const client = () => (database.db as unknown as { $client: Client }).$client;

    /** The SQL a call sends, recorded on the real client while it runs. */
    async function recordQueries(call: () => Promise<unknown>): Promise<{ text: string; params: unknown[] }[]> {
      const query = client().query;
      const recorded: { text: string; params: unknown[] }[] = [];
      client().query = function (this: unknown, q: unknown, params: unknown, ...rest: unknown[]) {
        recorded.push({ text: typeof q === "string" ? q : (q as { text: string }).text, params: (params as unknown[]) ?? [] });
        return query.call(this, q, params, ...rest);
      };
      try {
        await call();
      } finally {
        client().query = query;
      }
      return recorded;
    }

    /** The plans of the queries a call sends to the word list and of those searching the products. */
    async function plansOf(call: () => Promise<unknown>): Promise<{ words: string[]; products: string[] }> {
      const plans = { words: [] as string[], products: [] as string[] };
      for (const q of await recordQueries(call)) {
        const kind = q.text.includes('from "search_words"') ? "words" : / like \$/.test(q.text) ? "products" : null;
        if (!kind) continue;

        const result = await client().query(`explain ${q.text}`, q.params);
        plans[kind].push(result.rows.map((row) => String(Object.values(row)[0])).join("\n"));
      }
      return plans;
    }

    it("uses the trigram indexes: the word list's, then the name's for suggestions and the search text's for the catalogue", async () => {
      const suggestions = await plansOf(() => searchSuggestions(database.db, "dracofeu", options));
      expect(suggestions.words).toHaveLength(1);
      expect(suggestions.words[0]).toContain("search_words_trgm_idx");
      expect(suggestions.products).toHaveLength(1);
      expect(suggestions.products[0]).toContain("products_name_search_trgm_idx");
      const catalogue = await plansOf(() => listCatalog(database.db, { q: "pikatchu", category: null, sort: "newest", page: 1 }, options));
      expect(catalogue.words[0]).toContain("search_words_trgm_idx");
      expect(catalogue.products.length).toBeGreaterThan(0); // the page (and its count)
      for (const plan of catalogue.products) expect(plan).toContain("products_search_text_trgm_idx");
    });

    // Their speed is measured by `npm run bench` (scripts/bench-search.mjs), not by a timed test
    // here: the plans above catch a missing index.
    it("finds the typos among them, public products only, best matches first", async () => {
      const suggestions = await searchSuggestions(database.db, "dracofeu", options);
      expect(suggestions).toHaveLength(10);
      expect(suggestions.every((s) => s.name.startsWith("Dracaufeu"))).toBe(true);
      const page = await listCatalog(database.db, { q: "pikatchu", category: null, sort: "newest", page: 1 }, options);
      // The generated Pikachu still online, and the four public ones above ("Tapis…" by its description).
      const generated = Array.from({ length: 10_000 }, (_, k) => k + 1).filter((i) => i % 20 === 16 && i % 7 !== 0).length;
      expect(page.total).toBe(generated + 4);
      expect(page.products[0]?.name).toBe("Pikachu"); // the exact name, though newer products match too
    });
  });
});
