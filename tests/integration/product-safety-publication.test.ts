import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { products, safetyProfiles, users } from "~/db/schema";
import { CATALOG_CSV_COLUMNS, type CatalogCsvColumn, parseCsv, serializeCsv } from "~/domain/catalog-csv";
import type { ProductFormInput } from "~/domain/product-form";
import { EMPTY_IDENTITY } from "~/domain/shop-identity";
import { applyCatalogImport, exportCatalogCsv } from "~/services/catalog-csv.server";
import { getPublicProduct } from "~/services/catalog.server";
import { launchChecklist } from "~/services/launch-checklist.server";
import { createProduct, duplicateProduct, updateProduct } from "~/services/product-admin.server";
import { saveSafetyProfile } from "~/services/product-safety.server";
import { databaseLabel, openTestDatabase } from "./test-database";

/**
 * GPSR art. 19 as a publication rule (issue 52): the server refuses to put online or schedule a
 * product without complete safety information, with the French message listing what is missing;
 * the launch checklist counts the products on sale without it; the CSV carries the new columns
 * (EU responsible person, manufacturer's reference, label picture, PEGI) there and back.
 */
const ADMIN_ID = "admin-safety-publication";
const base: ProductFormInput = {
  name: "Display Mascarade",
  description: "36 boosters.",
  price: "199",
  stock: "4",
  category: "TCG",
  subCategory: "Scellés",
  image: "pokemon_1764000000000_mascarade",
};
const REFUSAL_START = "Publication impossible : informations de sécurité manquantes (";

describe(`publication refused without complete safety information on ${databaseLabel}`, () => {
  let database: Database;
  const db = () => database.db;
  let outsideEu = 0;
  const checklistLine = async () =>
    (await launchChecklist(db(), { legalDefaults: EMPTY_IDENTITY, payments: "test", smtp: false, publicUrl: "https://boutique.example" })).find((line) => line.key === "product_safety")!;

  beforeAll(async () => {
    database = await openTestDatabase();
    await database.db.insert(users).values({ id: ADMIN_ID, name: "Admin", email: "admin-publication@comptoir.example", role: "admin" });
    const saved = await saveSafetyProfile(database.db, null, {
      brand: "Bandai (test)",
      manufacturerName: "Bandai Co., Ltd.",
      postalAddress: "1-4-8 Komagata\nTokyo",
      email: "contact@bandai.example",
      warnings: "Ne convient pas aux enfants de moins de 3 ans. Petits éléments.",
      manufacturerOutsideEu: true,
      euRepName: "",
      euRepAddress: "",
      euRepEmail: "",
    });
    if (saved.outcome !== "saved") throw new Error("profile");
    outsideEu = saved.profile.id;
  });
  afterAll(async () => {
    await database?.close();
  });

  it("refuses en_ligne and a_venir with the missing list, saves hors_ligne, and publishes once complete", async () => {
    const refused = await createProduct(db(), base, ADMIN_ID);
    expect(refused).toEqual({
      outcome: "invalid",
      errors: {
        status:
          "Publication impossible : informations de sécurité manquantes (nom du fabricant, adresse postale du fabricant, adresse électronique du fabricant, identifiant du produit (EAN ou référence du fabricant), avertissements et informations de sécurité). Complétez-les dans « Sécurité du produit » ou la fiche de la marque, ou enregistrez le produit hors ligne.",
      },
    });
    expect(await db().select().from(products).where(eq(products.title, base.name!))).toEqual([]);

    // Scheduled: refused as well, on the launch date.
    const scheduled = await createProduct(db(), { ...base, launchDate: "2099-01-01", launchTime: "18:00" }, ADMIN_ID);
    expect(scheduled.outcome === "invalid" && scheduled.errors.launchDate?.startsWith(REFUSAL_START)).toBe(true);

    const offline = await createProduct(db(), { ...base, status: "hors_ligne", safetyProfile: String(outsideEu), ean: "4006381333931" }, ADMIN_ID);
    expect(offline.outcome).toBe("created");
    if (offline.outcome !== "created") return;
    // The maker is outside the EU: its EU responsible person is what is still missing.
    const stillMissing = await updateProduct(db(), offline.product.id, { ...base, safetyProfile: String(outsideEu), ean: "4006381333931" }, ADMIN_ID);
    expect(stillMissing).toEqual({
      outcome: "invalid",
      errors: {
        status: `${REFUSAL_START}nom de la personne responsable dans l'UE, adresse postale de la personne responsable dans l'UE, adresse électronique de la personne responsable dans l'UE). Complétez-les dans « Sécurité du produit » ou la fiche de la marque, ou enregistrez le produit hors ligne.`,
      },
    });
    expect((await db().select({ status: products.status }).from(products).where(eq(products.id, offline.product.id)))[0]!.status).toBe("hors_ligne");

    const rep = { euRepName: "Importateur SARL", euRepAddress: "10 avenue X\n69001 Lyon", euRepEmail: "ue@importateur.example" };
    const published = await updateProduct(db(), offline.product.id, { ...base, safetyProfile: String(outsideEu), ean: "4006381333931", ...rep }, ADMIN_ID);
    expect(published.outcome === "updated" && published.product.status).toBe("en_ligne");
    const page = await getPublicProduct(db(), offline.product.id, { now: new Date(), imageBaseUrl: "/uploads" });
    expect(page!.safety).toMatchObject({ manufacturerName: "Bandai Co., Ltd.", manufacturerOutsideEu: true, euRepName: "Importateur SARL", ean: "4006381333931" });
  });

  it("counts on the launch checklist the products on sale without complete information, and copies one offline", async () => {
    expect(await checklistLine()).toMatchObject({ done: true, state: "Produits en vente complets", href: "/admin/product-safety" });
    // A product put online before the rule (written straight to the table, as an old shop has them).
    const [legacy] = await db()
      .insert(products)
      .values({ title: "Ancien booster", priceCents: 500, category: "TCG", subCategory: "Scellés", status: "en_ligne", imagePath: "x" })
      .returning();
    await db().insert(products).values({ title: "Ancien hors ligne", priceCents: 500, category: "TCG", status: "hors_ligne", imagePath: "x" });
    expect(await checklistLine()).toMatchObject({ done: false, state: "1 produit en vente ou programmé sans informations de sécurité complètes" });
    // A brand profile that loses a value makes its products incomplete too.
    const [withBrand] = await db().select({ id: products.id }).from(products).where(eq(products.safetyProfileId, outsideEu));
    await db().update(safetyProfiles).set({ warnings: "" }).where(eq(safetyProfiles.id, outsideEu));
    expect((await checklistLine()).state).toBe("2 produits en vente ou programmés sans informations de sécurité complètes");
    // Its copy is not published as it is.
    const copy = await duplicateProduct(db(), withBrand!.id, ADMIN_ID);
    expect(copy.outcome === "duplicated" && copy.product.status).toBe("hors_ligne");
    await db().update(safetyProfiles).set({ warnings: "Petits éléments." }).where(eq(safetyProfiles.id, outsideEu));
    await db().delete(products).where(eq(products.id, legacy!.id));
    expect((await checklistLine()).done).toBe(true);
  });

  it("exports and imports the EU responsible person, the reference, the label and PEGI; an import cannot publish an incomplete product", async () => {
    const game = await createProduct(
      db(),
      {
        ...base,
        name: "Jeu vidéo test",
        category: "Gaming & Mangas",
        subCategory: "Jeux Vidéo",
        manufacturerName: "Éditeur SA",
        manufacturerAddress: "1 rue Y\n75001 Paris",
        manufacturerEmail: "contact@editeur.example",
        manufacturerOutsideEu: "non",
        manufacturerReference: "ED-42",
        safetyWarnings: "Avertissement épilepsie.",
        labelImage: "label_1764000000000_ab12",
        pegiRating: "16",
        pegiDescriptors: ["langage_grossier", "violence"],
      },
      ADMIN_ID,
    );
    expect(game.outcome).toBe("created");
    if (game.outcome !== "created") return;
    expect(game.product).toMatchObject({ status: "en_ligne", pegiRating: 16, pegiDescriptors: ["violence", "langage_grossier"], labelImagePath: "label_1764000000000_ab12" });

    const parsed = parseCsv(await exportCatalogCsv(db()));
    if (!parsed.ok) throw new Error(parsed.error.message);
    const [header, ...rows] = parsed.records.map((record) => record.cells);
    const col = (column: CatalogCsvColumn) => CATALOG_CSV_COLUMNS.indexOf(column);
    const row = rows.find((cells) => cells[col("id")] === String(game.product.id))!;
    expect(["manufacturer_outside_eu", "manufacturer_reference", "label_image_path", "pegi_rating", "pegi_descriptors"].map((c) => row[col(c as CatalogCsvColumn)])).toEqual([
      "non",
      "ED-42",
      "label_1764000000000_ab12",
      "16",
      "violence|langage_grossier",
    ]);

    // Edited in a spreadsheet: PEGI 18 with a French label; the maker outside the EU with its representative.
    const edited = [...row];
    edited[col("pegi_rating")] = "18";
    edited[col("pegi_descriptors")] = "Violence|Drogue";
    edited[col("manufacturer_outside_eu")] = "oui";
    edited[col("eu_rep_name")] = "Représentant UE SARL";
    edited[col("eu_rep_address")] = "2 rue Z\n69002 Lyon";
    edited[col("eu_rep_email")] = "ue@representant.example";
    expect(await applyCatalogImport(db(), serializeCsv([header!, edited]), ADMIN_ID)).toEqual({ outcome: "applied", created: 0, updated: 1 });
    expect((await db().select().from(products).where(eq(products.id, game.product.id)))[0]).toMatchObject({
      pegiRating: 18,
      pegiDescriptors: ["violence", "drogue"],
      manufacturerOutsideEu: true,
      euRepName: "Représentant UE SARL",
      euRepAddress: "2 rue Z\n69002 Lyon",
    });

    // The same row without the identifier, online: refused, nothing written.
    edited[col("manufacturer_reference")] = "";
    const refused = await applyCatalogImport(db(), serializeCsv([header!, edited]), ADMIN_ID);
    expect(refused).toEqual({
      outcome: "invalid",
      errors: [
        {
          line: 2,
          message: `Ligne 2 : ${REFUSAL_START}identifiant du produit (EAN ou référence du fabricant)). Complétez-les dans « Sécurité du produit » ou la fiche de la marque, ou enregistrez le produit hors ligne. (colonne status)`,
        },
      ],
    });
    expect((await db().select({ reference: products.manufacturerReference }).from(products).where(eq(products.id, game.product.id)))[0]!.reference).toBe("ED-42");
  });
});
