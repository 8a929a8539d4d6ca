import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { products } from "~/db/schema";
import { DEFAULT_ADMIN_QUERY, type AdminProductQuery } from "~/domain/admin-product-list";
import { productSearchColumns } from "~/domain/search";
import { listAdminProducts } from "~/services/admin-product-list.server";
import { databaseLabel, openTestDatabase } from "./test-database";

/** The admin list's filters, sorts and pages, in SQL on both databases. */
describe(`admin product list on ${databaseLabel}`, () => {
  let database: Database;
  const list = (query: Partial<AdminProductQuery>) => listAdminProducts(database.db, { ...DEFAULT_ADMIN_QUERY, ...query });
  const names = async (query: Partial<AdminProductQuery>) => (await list(query)).rows.map((row) => row.name);

  beforeAll(async () => {
    database = await openTestDatabase();
    const row = (title: string, values: Partial<typeof products.$inferInsert> = {}) => ({
      title,
      priceCents: 1_000,
      stock: 10,
      category: "TCG" as const,
      subCategory: "Scellés",
      ...values,
      ...productSearchColumns({ title, series: values.series ?? null, description: values.description ?? "" }),
    });
    await database.db.insert(products).values([
      row("Écarlate et Violet – Display", { priceCents: 14_999, stock: 3, featured: true }),
      row("Zacian V", { priceCents: 450, stock: 1, subCategory: "Cartes", series: "Épée et Bouclier" }),
      row("Album Ultra Pro", { priceCents: 2_490, stock: 40, category: "Accessoires", subCategory: null }),
      row("One Piece Romance Dawn", { priceCents: 9_990, stock: 0, status: "hors_ligne" }),
      row("Dracaufeu 151 – Coffret", { priceCents: 5_990, stock: 10, status: "a_venir", dropTime: new Date(Date.now() + 3_600_000) }),
      row("Ancien produit archivé", { status: "hors_ligne", archivedAt: new Date() }),
      // Enough for three pages of ten.
      ...Array.from({ length: 20 }, (_, i) => row(`Sleeves lot ${String(i + 1).padStart(2, "0")}`, { priceCents: 500 + i, category: "Accessoires", subCategory: null })),
    ]);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("lists 10 a page by name (accents folded), archived products left out, and counts the scheduled launches", async () => {
    const first = await list({});
    expect(first.total).toBe(25);
    expect(first.pageCount).toBe(3);
    expect(first.scheduled).toBe(1);
    expect(first.rows).toHaveLength(10);
    expect(first.rows.map((r) => r.name).slice(0, 4)).toEqual(["Album Ultra Pro", "Dracaufeu 151 – Coffret", "Écarlate et Violet – Display", "One Piece Romance Dawn"]);
    const last = await list({ page: 3 });
    expect(last.rows).toHaveLength(5);
    expect(last.rows.at(-1)?.name).toBe("Zacian V");
    // Past the end: the last page.
    expect((await list({ page: 99 })).page).toBe(3);
    expect(await names({ q: "archivé" })).toEqual([]);
  });

  it("sorts by price, stock, status and category, both ways, ties by name", async () => {
    expect((await names({ sort: "price", order: "asc" }))[0]).toBe("Zacian V");
    expect((await names({ sort: "price", order: "desc" }))[0]).toBe("Écarlate et Violet – Display");
    expect((await list({ sort: "stock", order: "asc" })).rows.map((r) => r.stock).slice(0, 3)).toEqual([0, 1, 3]);
    expect((await list({ sort: "stock", order: "desc" })).rows[0]?.stock).toBe(40);
    expect((await list({ sort: "status", order: "asc" })).rows[0]?.status).toBe("a_venir");
    expect((await list({ sort: "category", order: "desc" })).rows[0]?.category).toBe("TCG");
    expect(await names({ sort: "category", order: "asc", page: 1 })).toContain("Album Ultra Pro");
  });

  it("filters by words, id, category, status and featured, together", async () => {
    expect(await names({ q: "ecarlate display" })).toEqual(["Écarlate et Violet – Display"]);
    expect(await names({ q: "epee" })).toEqual(["Zacian V"]); // the series counts
    const { rows } = await list({ q: "zacian" });
    expect(await names({ q: String(rows[0]!.id) })).toContain("Zacian V");
    expect((await list({ category: "Accessoires" })).total).toBe(21);
    expect(await names({ status: "hors_ligne" })).toEqual(["One Piece Romance Dawn"]);
    expect(await names({ featured: "oui" })).toEqual(["Écarlate et Violet – Display"]);
    expect((await list({ featured: "non", category: "TCG" })).total).toBe(3);
    expect((await list({ q: "sleeves", category: "TCG" })).total).toBe(0);
    // LIKE wildcards typed by the seller match themselves.
    expect((await list({ q: "%" })).total).toBe(0);
  });
});
