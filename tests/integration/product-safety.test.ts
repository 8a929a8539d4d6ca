import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { productAdmin, productPrices, products, purchaseLots, safetyProfiles, users } from "~/db/schema";
import { CATALOG_CSV_COLUMNS, type CatalogCsvColumn, parseCsv, serializeCsv } from "~/domain/catalog-csv";
import type { ProductFormInput } from "~/domain/product-form";
import { missingSafetyFields } from "~/domain/safety-profile";
import { applyCatalogImport, exportCatalogCsv, previewCatalogImport } from "~/services/catalog-csv.server";
import { getPublicProduct } from "~/services/catalog.server";
import { compareAtDecisionFor, readPriceWindow } from "~/services/price-history.server";
import { createProduct, duplicateProduct, updateProduct } from "~/services/product-admin.server";
import { countProductsMissingSafety, deleteSafetyProfile, listSafetyProfiles, saveSafetyProfile } from "~/services/product-safety.server";
import { seedSampleCatalogue } from "~/services/seed.server";
import { databaseLabel, openTestDatabase } from "./test-database";

/**
 * Product safety (GPSR), the former price (L112-1-1), weight and VAT: the brand profiles migration
 * 0016 seeds, the product form's new fields saved and logged, the CSV round trip of their columns,
 * the price history the products trigger writes and what the product page shows from it.
 */
const ADMIN_ID = "admin-safety";
const DAY = 24 * 60 * 60 * 1000;
const options = { now: new Date(), imageBaseUrl: "/uploads" };
const base: ProductFormInput = {
  name: "Coffret Ultra-Premium Dracaufeu",
  description: "Le coffret des collectionneurs.",
  price: "20",
  stock: "3",
  category: "TCG",
  subCategory: "Scellés",
  image: "pokemon_1764000000000_coffret",
  // Complete safety information (online products need it): the seeded Glénat profile (set in
  // beforeAll) and the manufacturer's reference.
  manufacturerReference: "REF-TEST-1",
};

describe(`product safety, former price, weight and VAT on ${databaseLabel}`, () => {
  let database: Database;
  const db = () => database.db;
  const profileId = async (brand: string) => (await db().select({ id: safetyProfiles.id }).from(safetyProfiles).where(eq(safetyProfiles.brand, brand)))[0]!.id;
  const productNamed = async (title: string) => (await db().select().from(products).where(eq(products.title, title)))[0]!;
  async function create(input: ProductFormInput, options: { purchasePrice?: string } = {}) {
    const result = await createProduct(db(), { ...base, ...input }, ADMIN_ID, new Date(), options);
    if (result.outcome !== "created") throw new Error(JSON.stringify(result));
    return result.product;
  }
  /** Moves a product's price history back in time, as if each price had been set `daysAgo` days ago. */
  async function backdate(productId: number, daysAgo: number[]) {
    const rows = await db().select({ id: productPrices.id }).from(productPrices).where(eq(productPrices.productId, productId)).orderBy(asc(productPrices.id));
    expect(rows).toHaveLength(daysAgo.length);
    for (const [i, row] of rows.entries()) {
      await db()
        .update(productPrices)
        .set({ effectiveFrom: new Date(Date.now() - daysAgo[i]! * DAY) })
        .where(eq(productPrices.id, row.id));
    }
  }

  beforeAll(async () => {
    database = await openTestDatabase();
    await database.db.insert(users).values({ id: ADMIN_ID, name: "Admin", email: "admin-safety@comptoir.example", role: "admin" });
    await seedSampleCatalogue(database.db);
    base.safetyProfile = String(await profileId("Glénat"));
  });
  afterAll(async () => {
    await database?.close();
  });

  it("starts with complete example profiles, outside-EU makers with their EU responsible person, and every sample linked", async () => {
    const profiles = await listSafetyProfiles(db());
    expect(profiles.map((p) => [p.brand, p.manufacturerName, p.manufacturerOutsideEu, missingSafetyFields(p)])).toEqual([
      ["Accessoires (exemple)", "Fabricant d'accessoires (exemple à vérifier)", false, []],
      ["Glénat", "Glénat Éditions", false, []],
      ["Magic", "Wizards of the Coast LLC", true, []],
      ["Nintendo", "Nintendo Co., Ltd.", true, []],
      ["One Piece", "Bandai Co., Ltd.", true, []],
      ["Pokémon", "The Pokémon Company International, Inc.", true, []],
    ]);
    // Migration 0016's values stay; only the missing ones are filled, with example e-mails.
    const magic = profiles.find((p) => p.brand === "Magic")!;
    expect(magic).toMatchObject({ postalAddress: "PO Box 707\nRenton, WA 98057-0707\nÉtats-Unis", warnings: "Ne convient pas aux enfants de moins de 3 ans.", email: "securite-produits@wizards.example" });
    expect(profiles.every((p) => p.email.endsWith(".example") && (!p.manufacturerOutsideEu || p.euRepEmail.endsWith(".example")))).toBe(true);
    expect(Object.fromEntries(profiles.map((p) => [p.brand, p.productCount]))).toEqual({ "Accessoires (exemple)": 2, Glénat: 1, Magic: 5, Nintendo: 1, "One Piece": 1, Pokémon: 8 });
    expect((await productNamed("Dracaufeu Holo – Set de Base")).safetyProfileId).toBe(await profileId("Magic"));
    expect(await productNamed("One Piece – Tome 105")).toMatchObject({ safetyProfileId: await profileId("Glénat"), manufacturerReference: "EXEMPLE-ONE-PIECE-TOME-105" });
    expect(await productNamed("Pokémon Écarlate – Nintendo Switch")).toMatchObject({ pegiRating: 7, pegiDescriptors: ["violence"] });
    // Every seeded product on sale is complete: the launch checklist counts none.
    expect(await countProductsMissingSafety(db())).toBe(0);
  });

  it("saves the form's new fields, logs them, refuses an unknown brand and copies them on duplicate", async () => {
    const pokemon = await profileId("Pokémon");
    const fields = {
      compareAt: "25",
      weight: "180",
      vatRate: "5,5",
      marginScheme: "on",
      safetyProfile: String(pokemon),
      manufacturerEmail: "Service.Client@Example.com",
      ean: "0820650853272",
      safetyWarnings: "Petits éléments.",
    };
    // Under the margin scheme, its stock needs its purchase price (docs/decisions/057).
    expect(await createProduct(db(), { ...base, ...fields }, ADMIN_ID)).toEqual({
      outcome: "invalid",
      errors: { purchasePrice: "Indiquez le prix d'achat unitaire du stock (3 unités) : la TVA sur la marge en dépend." },
    });
    const product = await create(fields, { purchasePrice: "4,50" });
    expect(await db().select({ quantity: purchaseLots.quantity, remaining: purchaseLots.remaining, unitCostCents: purchaseLots.unitCostCents, source: purchaseLots.source }).from(purchaseLots).where(eq(purchaseLots.productId, product.id))).toEqual([
      { quantity: 3, remaining: 3, unitCostCents: 450, source: "manual" },
    ]);
    expect(product).toMatchObject({
      compareAtCents: 2500,
      weightGrams: 180,
      vatRateBp: 550,
      vatScheme: "margin",
      safetyProfileId: pokemon,
      manufacturerName: null,
      manufacturerEmail: "service.client@example.com",
      ean: "0820650853272",
      safetyWarnings: "Petits éléments.",
    });
    const updated = await updateProduct(db(), product.id, { ...base, weight: "", vatRate: "20", safetyProfile: String(pokemon), ean: "96385074" }, ADMIN_ID);
    expect(updated.outcome).toBe("updated");
    if (updated.outcome !== "updated") return;
    expect(updated.changes).toMatchObject({
      compareAtCents: { before: 2500, after: null },
      weightGrams: { before: 180, after: null },
      vatRateBp: { before: 550, after: 2000 },
      vatScheme: { before: "margin", after: "normal" },
      ean: { before: "0820650853272", after: "96385074" },
    });
    const [log] = await db().select().from(productAdmin).where(eq(productAdmin.productId, product.id)).orderBy(sql`${productAdmin.seq} desc`).limit(1);
    expect(log!.changes).toEqual(updated.changes);

    // A form saved with only a safety value changed is a change (it is logged, not skipped).
    const warned = await updateProduct(db(), product.id, { ...base, vatRate: "20", safetyProfile: String(pokemon), ean: "96385074", safetyWarnings: "Attention." }, ADMIN_ID);
    expect(warned.outcome === "updated" && warned.changes).toEqual({ safetyWarnings: { before: null, after: "Attention." } });

    const unknown = await updateProduct(db(), product.id, { ...base, safetyProfile: "999999" }, ADMIN_ID);
    expect(unknown).toEqual({ outcome: "invalid", errors: { safetyProfile: "Marque inconnue : choisissez-en une dans la liste" } });

    const copy = await duplicateProduct(db(), product.id, ADMIN_ID);
    expect(copy.outcome === "duplicated" && copy.product).toMatchObject({ vatRateBp: 2000, safetyProfileId: pokemon, ean: "96385074", safetyWarnings: "Attention." });
  });

  it("creates, renames and deletes a brand profile; a brand is one profile whatever its case", async () => {
    const noRep = { manufacturerOutsideEu: false, euRepName: "", euRepAddress: "", euRepEmail: "" };
    const created = await saveSafetyProfile(db(), null, { brand: "Lorcana", manufacturerName: "Ravensburger", postalAddress: "", email: "", warnings: "", ...noRep });
    expect(created.outcome).toBe("saved");
    if (created.outcome !== "saved") return;
    expect(await saveSafetyProfile(db(), null, { brand: "lorcana ", manufacturerName: "X", postalAddress: "", email: "", warnings: "", ...noRep })).toEqual({ outcome: "duplicate" });
    expect(await saveSafetyProfile(db(), created.profile.id, { brand: "POKÉMON", manufacturerName: "X", postalAddress: "", email: "", warnings: "", ...noRep })).toEqual({ outcome: "duplicate" });
    const renamed = await saveSafetyProfile(db(), created.profile.id, { brand: "Disney Lorcana", manufacturerName: "Ravensburger", postalAddress: "", email: "contact@example.com", warnings: "", ...noRep });
    expect(renamed.outcome === "saved" && renamed.profile.brand).toBe("Disney Lorcana");
    expect(await saveSafetyProfile(db(), 999_999, { brand: "Ailleurs", manufacturerName: "X", postalAddress: "", email: "", warnings: "", ...noRep })).toEqual({ outcome: "missing" });

    const product = await create({ name: "Coffret Lorcana", status: "hors_ligne", safetyProfile: String(created.profile.id), manufacturerName: "Ravensburger SAS" });
    expect(await deleteSafetyProfile(db(), created.profile.id)).toEqual({ outcome: "deleted", brand: "Disney Lorcana", productCount: 1 });
    // The product keeps its own values and loses the brand's.
    expect((await productNamed("Coffret Lorcana"))).toMatchObject({ id: product.id, safetyProfileId: null, manufacturerName: "Ravensburger SAS" });
    expect(await deleteSafetyProfile(db(), created.profile.id)).toEqual({ outcome: "missing" });
  });

  it("exports and imports the new columns: a brand by name, empty for the defaults, kept when a file lacks them", async () => {
    const magic = await profileId("Magic");
    const product = await create({ name: "Bundle Magic Fondations", weight: "450", vatRate: "20", safetyProfile: String(magic), ean: "4006381333931", manufacturerAddress: "Ligne 1\nLigne 2" });
    const records = (csv: string) => {
      const parsed = parseCsv(csv);
      if (!parsed.ok) throw new Error(parsed.error.message);
      return parsed.records.map((record) => record.cells);
    };
    const col = (column: CatalogCsvColumn) => CATALOG_CSV_COLUMNS.indexOf(column);
    const [header, ...rows] = records(await exportCatalogCsv(db()));
    expect(header).toEqual([...CATALOG_CSV_COLUMNS]);
    const row = rows.find((cells) => cells[col("id")] === String(product.id))!;
    expect([col("weight_grams"), col("vat_rate"), col("margin_scheme"), col("safety_brand"), col("ean"), col("manufacturer_address"), col("compare_at_price")].map((i) => row[i])).toEqual([
      "450",
      "20",
      "non",
      "Magic",
      "4006381333931",
      "Ligne 1\nLigne 2",
      "",
    ]);

    // The seller edits: another brand (typed in lower case), no weight (the default), a former price, second-hand.
    const edited = [...row];
    edited[col("safety_brand")] = "pokémon";
    edited[col("weight_grams")] = "";
    edited[col("compare_at_price")] = "24,90";
    edited[col("margin_scheme")] = "oui";
    edited[col("manufacturer_email")] = "contact@example.com";
    const preview = await previewCatalogImport(db(), serializeCsv([header!, edited]));
    expect(preview.errors).toEqual([]);
    expect(preview.rows[0]!.changes).toMatchObject({ weightGrams: { before: 450, after: null }, compareAtCents: { before: null, after: 2490 }, vatScheme: { before: "normal", after: "margin" } });
    expect(await applyCatalogImport(db(), serializeCsv([header!, edited]), ADMIN_ID)).toEqual({ outcome: "applied", created: 0, updated: 1 });
    expect(await productNamed("Bundle Magic Fondations")).toMatchObject({
      safetyProfileId: await profileId("Pokémon"),
      weightGrams: null,
      compareAtCents: 2490,
      vatScheme: "margin",
      manufacturerEmail: "contact@example.com",
      ean: "4006381333931",
    });

    // An export from before these columns: the product keeps them.
    const older = CATALOG_CSV_COLUMNS.slice(0, col("additional_images") + 1);
    const again = records(await exportCatalogCsv(db()))
      .slice(1)
      .find((cells) => cells[col("id")] === String(product.id))!;
    const olderFile = serializeCsv([older, older.map((column) => again[col(column)]!)]);
    expect((await previewCatalogImport(db(), olderFile)).rows[0]).toMatchObject({ action: "unchanged" });

    // An unknown brand stops the import, with its line and column.
    edited[col("safety_brand")] = "Yu-Gi-Oh";
    const refused = await applyCatalogImport(db(), serializeCsv([header!, edited]), ADMIN_ID);
    expect(refused.outcome).toBe("invalid");
    expect(refused.outcome === "invalid" && refused.errors[0]).toEqual({
      line: 2,
      message: "Ligne 2 : marque inconnue « Yu-Gi-Oh » : créez-la dans Sécurité des produits ou laissez la cellule vide (colonne safety_brand)",
    });
  });

  it("writes every price a product takes, and shows the former price only as L112-1-1 allows", async () => {
    const product = await create({ name: "Display Flammes Fantasmagoriques", price: "20", compareAt: "20" });
    const history = () => db().select({ priceCents: productPrices.priceCents }).from(productPrices).where(eq(productPrices.productId, product.id)).orderBy(asc(productPrices.id));
    expect(await history()).toEqual([{ priceCents: 2000 }]);
    // Not a reduction yet: 20 € beside 20 €.
    expect((await getPublicProduct(db(), product.id, options))!.compareAtCents).toBeNull();

    await updateProduct(db(), product.id, { ...base, name: "Display Flammes Fantasmagoriques", price: "15", compareAt: "20" }, ADMIN_ID);
    // A change that leaves the price alone writes no price.
    await updateProduct(db(), product.id, { ...base, name: "Display Flammes Fantasmagoriques", price: "15", compareAt: "20", stock: "9" }, ADMIN_ID);
    expect(await history()).toEqual([{ priceCents: 2000 }, { priceCents: 1500 }]);
    // 20 € for a moment only: no 30 days of history before the reduction.
    expect(await compareAtDecisionFor(db(), { id: product.id, priceCents: 1500, compareAtCents: 2000 })).toMatchObject({ shown: false, reason: "no-history" });
    expect((await getPublicProduct(db(), product.id, options))!.compareAtCents).toBeNull();

    // 20 € for 60 days, then 15 € since yesterday: 20 € may show, 25 € may not.
    await backdate(product.id, [61, 1]);
    expect((await getPublicProduct(db(), product.id, options))!.compareAtCents).toBe(2000);
    await db().update(products).set({ compareAtCents: 2500 }).where(eq(products.id, product.id));
    expect(await compareAtDecisionFor(db(), { id: product.id, priceCents: 1500, compareAtCents: 2500 })).toEqual({ shown: false, reason: "above-reference", compareAtCents: 2500, referenceCents: 2000 });
    expect((await getPublicProduct(db(), product.id, options))!.compareAtCents).toBeNull();
  });

  it("reads only the prices the reference needs: the one in force 30 days before the current price, and those since", async () => {
    const product = await create({ name: "Booster Mascarade Crépusculaire", price: "9" });
    for (const price of ["8", "7", "6", "5"]) await updateProduct(db(), product.id, { ...base, name: "Booster Mascarade Crépusculaire", price }, ADMIN_ID);
    // 9 € 200 days ago, 8 € 100 days ago, 7 € 40 days ago, 6 € 20 days ago, 5 € since 2 days ago.
    await backdate(product.id, [200, 100, 40, 20, 2]);
    expect((await readPriceWindow(db(), product.id)).map((point) => point.priceCents)).toEqual([700, 600, 500]);
    expect(await compareAtDecisionFor(db(), { id: product.id, priceCents: 500, compareAtCents: 600 })).toEqual({ shown: true, compareAtCents: 600, referenceCents: 600 });
    expect(await compareAtDecisionFor(db(), { id: product.id, priceCents: 500, compareAtCents: 700 })).toMatchObject({ shown: false, reason: "above-reference", referenceCents: 600 });
    expect(await readPriceWindow(db(), 999_999)).toEqual([]);
  });

  it("gives the product page the product's safety values, else its brand's", async () => {
    const sample = await productNamed("Booster de jeu Magic: The Gathering");
    const page = await getPublicProduct(db(), sample.id, options);
    expect(page!.safety).toEqual({
      manufacturerName: "Wizards of the Coast LLC",
      postalAddress: "PO Box 707\nRenton, WA 98057-0707\nÉtats-Unis",
      email: "securite-produits@wizards.example",
      manufacturerOutsideEu: true,
      euRepName: "Importateur UE (exemple à vérifier)",
      euRepAddress: "10 avenue de l'Exemple\n69001 Lyon\nFrance",
      euRepEmail: "securite@importateur-ue.example",
      ean: null,
      manufacturerReference: "EXEMPLE-BOOSTER-MAGIC-THE-GATHERING",
      warnings: "Ne convient pas aux enfants de moins de 3 ans.",
      labelImagePath: null,
    });
    await db().update(products).set({ manufacturerEmail: "service@example.com", ean: "4006381333931", manufacturerOutsideEu: false }).where(eq(products.id, sample.id));
    expect((await getPublicProduct(db(), sample.id, options))!.safety).toMatchObject({ manufacturerName: "Wizards of the Coast LLC", email: "service@example.com", ean: "4006381333931", manufacturerOutsideEu: false });
    const game = await productNamed("Pokémon Écarlate – Nintendo Switch");
    expect((await getPublicProduct(db(), game.id, options))!.pegi).toEqual({ age: 7, descriptors: ["violence"] });
  });
});
