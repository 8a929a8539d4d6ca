import { count, eq, inArray, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { orderItems, orders, productAdmin, products, users } from "~/db/schema";
import { SAMPLE_CATALOGUE } from "~/db/sample-catalogue";
import { CATALOG_CSV_COLUMNS, type CatalogCsvColumn, parseCsv, serializeCsv } from "~/domain/catalog-csv";
import { parisWallTime } from "~/domain/paris-time";
import type { ProductFormInput } from "~/domain/product-form";
import { applyCatalogImport, exportCatalogCsv, previewCatalogImport } from "~/services/catalog-csv.server";
import { createProduct, deleteProduct } from "~/services/product-admin.server";
import { seedSampleCatalogue } from "~/services/seed.server";
import { COMPLETE_SAFETY } from "./complete-safety";
import { databaseLabel, openTestDatabase } from "./test-database";

const ADMIN_ID = "admin-csv";

/** The export as editable records: header, then one record per product. */
function records(csv: string): string[][] {
  const parsed = parseCsv(csv);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.records.map((record) => record.cells);
}
const col = (column: CatalogCsvColumn) => CATALOG_CSV_COLUMNS.indexOf(column);

describe(`catalogue CSV export and import on ${databaseLabel}`, () => {
  let database: Database;
  const db = () => database.db;
  let launch: Date;
  let archivedId: number;

  const counts = async () => ({
    products: (await db().select({ n: count() }).from(products))[0]!.n,
    log: (await db().select({ n: count() }).from(productAdmin))[0]!.n,
  });
  async function create(input: ProductFormInput) {
    const result = await createProduct(db(), input, ADMIN_ID);
    if (result.outcome !== "created") throw new Error(JSON.stringify(result));
    return result.product;
  }

  beforeAll(async () => {
    database = await openTestDatabase();
    await database.db.insert(users).values({ id: ADMIN_ID, name: "Admin", email: "admin@comptoir.example", role: "admin" });
    await seedSampleCatalogue(database.db);
    launch = new Date(Date.now() + 5 * 24 * 60 * 60 * 1000);
    launch.setUTCSeconds(0, 0);
    const { date, time } = parisWallTime(launch);
    const base = { description: "Avec des \"guillemets\"; des points-virgules,\net une seconde ligne.", price: "12,50", stock: "3", image: "pokemon_1764000000000_x", ...COMPLETE_SAFETY };
    await create({ ...base, name: "Display Flammes Obsidiennes", category: "TCG", subCategory: "Scellés", launchDate: date, launchTime: time, additionalImages: ["pokemon_1_a", "pokemon_1_b"] });
    await create({ ...base, name: "Dragon Ball – Tome 1", category: "Gaming & Mangas", subCategory: "Manga", featured: "on" });
    const archived = await create({ ...base, name: "Carte archivée", category: "TCG", subCategory: "Cartes", cardType: "vintage" });
    const [order] = await database.db.insert(orders).values({ number: "CPT-000001-0001", subtotalCents: 1250, totalCents: 1250, paymentProvider: "test" }).returning();
    await database.db.insert(orderItems).values({ orderId: order!.id, productId: archived.id, name: archived.title, unitPriceCents: 1250, quantity: 1 });
    expect((await deleteProduct(database.db, archived.id, ADMIN_ID)).outcome).toBe("archived");
    archivedId = archived.id;
  });
  afterAll(async () => {
    await database?.close();
  });

  it("exports every live product with every field, for Excel", async () => {
    const csv = await exportCatalogCsv(db());
    expect(csv.startsWith("\uFEFFid;title;description;price;")).toBe(true);
    const [header, ...rows] = records(csv);
    expect(header).toEqual([...CATALOG_CSV_COLUMNS]);
    expect(rows).toHaveLength(SAMPLE_CATALOGUE.length + 2);
    expect(rows.map((row) => row[col("id")])).not.toContain(String(archivedId));
    const drop = rows.find((row) => row[col("title")] === "Display Flammes Obsidiennes")!;
    const { date, time } = parisWallTime(launch);
    expect(drop[col("status")]).toBe("a_venir");
    expect(drop[col("price")]).toBe("12,50");
    expect(drop[col("drop_time")]).toBe(`${date} ${time}`);
    expect(drop[col("additional_images")]).toBe("pokemon_1_a|pokemon_1_b");
    expect(drop[col("description")]).toBe("Avec des \"guillemets\"; des points-virgules,\net une seconde ligne.");
  });

  it("reads its own export back as nothing to change, and applying it writes nothing", async () => {
    const csv = await exportCatalogCsv(db());
    const before = await counts();
    const updatedAt = (await db().select({ id: products.id, updatedAt: products.updatedAt }).from(products)).map((row) => [row.id, row.updatedAt.getTime()]);
    const preview = await previewCatalogImport(db(), csv);
    expect(preview).toMatchObject({ create: 0, update: 0, unchanged: SAMPLE_CATALOGUE.length + 2, errors: [] });
    expect(await applyCatalogImport(db(), csv, ADMIN_ID)).toEqual({ outcome: "applied", created: 0, updated: 0 });
    expect(await counts()).toEqual(before);
    const after = (await db().select({ id: products.id, updatedAt: products.updatedAt }).from(products)).map((row) => [row.id, row.updatedAt.getTime()]);
    expect(after).toEqual(updatedAt);
  });

  it("creates rows without id and updates rows with one, each logged, after a preview", async () => {
    const [header, ...rows] = records(await exportCatalogCsv(db()));
    const booster = rows.find((row) => row[col("title")] === "Booster Astres Radieux")!;
    booster[col("price")] = "6,49";
    booster[col("stock")] = "99";
    const fresh = [...booster];
    fresh[col("id")] = "";
    fresh[col("title")] = "Booster Astres Radieux – lot de 3";
    const csv = serializeCsv([header!, booster, fresh]);

    const preview = await previewCatalogImport(db(), csv);
    expect(preview).toMatchObject({ create: 1, update: 1, unchanged: 0, errors: [] });
    expect(preview.rows.find((row) => row.action === "update")!.changes).toEqual({
      priceCents: { before: 599, after: 649 },
      stock: { before: 120, after: 99 },
    });

    const before = await counts();
    expect(await applyCatalogImport(db(), csv, ADMIN_ID)).toEqual({ outcome: "applied", created: 1, updated: 1 });
    expect(await counts()).toEqual({ products: before.products + 1, log: before.log + 2 });
    const id = Number(booster[col("id")]);
    const [updated] = await db().select().from(products).where(eq(products.id, id));
    expect(updated).toMatchObject({ priceCents: 649, stock: 99 });
    const log = await db().select().from(productAdmin).where(eq(productAdmin.productId, id));
    expect(log.map((row) => [row.adminAction, row.changes])).toEqual([["modification", { priceCents: { before: 599, after: 649 }, stock: { before: 120, after: 99 } }]]);
    const [created] = await db().select().from(products).where(eq(products.title, "Booster Astres Radieux – lot de 3"));
    expect(created).toMatchObject({ priceCents: 649, nameSearch: "booster astres radieux – lot de 3" });
    const [ajout] = await db().select().from(productAdmin).where(eq(productAdmin.productId, created!.id));
    expect(ajout).toMatchObject({ adminAction: "ajout", adminUserId: ADMIN_ID });
  });

  it("never puts units sold since the export back on sale, nor adds a restock twice", async () => {
    const [header, ...rows] = records(await exportCatalogCsv(db()));
    const [display, manga] = ["Display Flammes Obsidiennes", "Dragon Ball – Tome 1"].map((title) => rows.find((row) => row[col("title")] === title)!);
    expect([display![col("stock")], display![col("stock_exported")]]).toEqual(["3", "3"]);
    // Two units of each sell while the seller edits the file.
    const ids = [display!, manga!].map((row) => Number(row[col("id")]));
    for (const id of ids) await db().update(products).set({ stock: 1 }).where(eq(products.id, id));
    const stocks = async () => (await db().select({ stock: products.stock }).from(products).where(inArray(products.id, ids)).orderBy(products.id)).map((row) => row.stock);
    display![col("price")] = "13,00"; // the stock left as exported: today's stock stays
    manga![col("stock")] = "8"; // typed over a stock that has moved since: refused
    const conflicting = serializeCsv([header!, display!, manga!]);
    const preview = await previewCatalogImport(db(), conflicting);
    expect(preview.errors).toEqual([{ line: 3, message: "Ligne 3 : le stock a changé depuis l'export (3 → 1) : exportez le catalogue à nouveau, ou laissez le stock exporté (colonne stock)" }]);
    expect(await applyCatalogImport(db(), conflicting, ADMIN_ID)).toMatchObject({ outcome: "invalid" });
    expect(await stocks()).toEqual([1, 1]);

    const priceOnly = serializeCsv([header!, display!]);
    expect((await previewCatalogImport(db(), priceOnly)).rows.map((row) => row.changes)).toEqual([{ priceCents: { before: 1250, after: 1300 } }]);
    expect(await applyCatalogImport(db(), priceOnly, ADMIN_ID)).toEqual({ outcome: "applied", created: 0, updated: 1 });
    expect(await stocks()).toEqual([1, 1]);

    // Exported again, the restock applies, once however often the file is imported.
    const [header2, ...rows2] = records(await exportCatalogCsv(db()));
    const manga2 = rows2.find((row) => row[col("title")] === "Dragon Ball – Tome 1")!;
    manga2[col("stock")] = "6";
    const restock = serializeCsv([header2!, manga2]);
    expect(await applyCatalogImport(db(), restock, ADMIN_ID)).toEqual({ outcome: "applied", created: 0, updated: 1 });
    expect(await applyCatalogImport(db(), restock, ADMIN_ID)).toEqual({ outcome: "applied", created: 0, updated: 0 });
    expect(await stocks()).toEqual([1, 6]);
  });

  it("refuses image keys the shop never stored, except those the product already shows", async () => {
    const [header, ...rows] = records(await exportCatalogCsv(db()));
    const display = rows.find((row) => row[col("title")] === "Display Flammes Obsidiennes")!;
    const fresh = [...display];
    fresh[col("id")] = "";
    fresh[col("image_path")] = "pokemon_1764000000000_y";
    fresh[col("additional_images")] = "pokemon_1_a|nexistepas";
    const stored = new Set(["pokemon_1764000000000_y"]);
    const imageExists = (key: string) => Promise.resolve(stored.has(key));
    const csv = serializeCsv([header!, display, fresh]);
    const preview = await previewCatalogImport(db(), csv, { imageExists });
    // The display's own images (not stored in this test) pass: it already shows them.
    expect(preview.errors).toEqual([
      { line: 3, message: "Ligne 3 : image introuvable « pokemon_1_a » : envoyez-la depuis le formulaire d'un produit (colonne additional_images)" },
      { line: 3, message: "Ligne 3 : image introuvable « nexistepas » : envoyez-la depuis le formulaire d'un produit (colonne additional_images)" },
    ]);
    const before = await counts();
    expect(await applyCatalogImport(db(), csv, ADMIN_ID, { imageExists })).toMatchObject({ outcome: "invalid" });
    expect(await counts()).toEqual(before);
  });

  it("applies nothing when one line is bad, and says which line", async () => {
    const [header, ...rows] = records(await exportCatalogCsv(db()));
    const good = rows.find((row) => row[col("title")] === "Booster Fusion Strike")!;
    good[col("price")] = "1";
    const bad = [...rows.find((row) => row[col("title")] === "Classeur 9 cases – 360 cartes")!];
    bad[col("price")] = "-3";
    const fresh = [...good];
    fresh[col("id")] = "";
    fresh[col("title")] = "Produit qui ne doit pas exister";
    const csv = serializeCsv([header!, good, bad, fresh]);

    const preview = await previewCatalogImport(db(), csv);
    expect(preview.errors).toEqual([{ line: 3, message: "Ligne 3 : Le prix ne peut pas être négatif (colonne price)" }]);
    expect(preview).toMatchObject({ create: 1, update: 1 });

    const before = await counts();
    expect(await applyCatalogImport(db(), csv, ADMIN_ID)).toEqual({ outcome: "invalid", errors: preview.errors });
    expect(await counts()).toEqual(before);
    const [unchanged] = await db().select().from(products).where(eq(products.id, Number(good[col("id")])));
    expect(unchanged!.priceCents).toBe(499);
    expect(await db().select().from(products).where(eq(products.title, "Produit qui ne doit pas exister"))).toEqual([]);
  });

  it("refuses ids of unknown or archived products", async () => {
    const [header, ...rows] = records(await exportCatalogCsv(db()));
    const ghost = [...rows[0]!];
    ghost[col("id")] = "999999";
    const archived = [...rows[0]!];
    archived[col("id")] = String(archivedId);
    const preview = await previewCatalogImport(db(), serializeCsv([header!, ghost, archived]));
    expect(preview.errors).toEqual([
      { line: 2, message: "Ligne 2 : produit 999999 introuvable (colonne id)" },
      { line: 3, message: `Ligne 3 : produit ${archivedId} introuvable (colonne id)` },
    ]);
    const [kept] = await db().select().from(products).where(eq(products.id, archivedId));
    expect(kept).toMatchObject({ title: "Carte archivée", status: "hors_ligne" });
    expect((await db().select({ n: count() }).from(products).where(isNull(products.archivedAt)))[0]!.n).toBe(rows.length);
  });
});
