import { count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { orderItems, orders, productAdmin, products, users } from "~/db/schema";
import type { CatalogQuery } from "~/domain/catalog-query";
import { parisWallTime } from "~/domain/paris-time";
import type { ProductFormInput } from "~/domain/product-form";
import { listCatalog } from "~/services/catalog.server";
import {
  ADMIN_LOG_PAGE_SIZE,
  createProduct,
  deleteProduct,
  duplicateProduct,
  getProductForEdit,
  listAdminLog,
  setFeatured,
  updateProduct,
} from "~/services/product-admin.server";
import { DEFAULT_ADMIN_QUERY } from "~/domain/admin-product-list";
import { listAdminProducts } from "~/services/admin-product-list.server";
import { COMPLETE_SAFETY } from "./complete-safety";
import { databaseLabel, openTestDatabase } from "./test-database";

const ADMIN = { id: "admin-1", name: "Chef Comptoir", email: "chef@comptoir.example" };
const input: ProductFormInput = {
  name: "Coffret Dresseur d'Élite Écarlate",
  description: "8 boosters, protège-cartes et dés.",
  price: "59,99",
  stock: "4",
  category: "TCG",
  subCategory: "Scellés",
  series: "Écarlate et Violet",
  image: "pokemon_1764000000000_main",
  additionalImages: ["pokemon_1764000000000_back"],
  ...COMPLETE_SAFETY,
};

describe(`product admin writes on ${databaseLabel}`, () => {
  let database: Database;
  const db = () => database.db;

  beforeAll(async () => {
    database = await openTestDatabase();
    await database.db.insert(users).values({ ...ADMIN, role: "admin" });
  });
  afterAll(async () => {
    await database?.close();
  });

  const logOf = (productId: number) => db().select().from(productAdmin).where(eq(productAdmin.productId, productId));
  const counts = async () => ({
    products: (await db().select({ n: count() }).from(products))[0]!.n,
    log: (await db().select({ n: count() }).from(productAdmin))[0]!.n,
  });
  async function created(overrides: ProductFormInput = {}) {
    const result = await createProduct(db(), { ...input, ...overrides }, ADMIN.id);
    if (result.outcome !== "created") throw new Error(JSON.stringify(result));
    return result.product;
  }
  const publicNames = async () => {
    const query: CatalogQuery = { q: "", category: null, sort: "newest", page: 1 };
    return (await listCatalog(db(), query, { now: new Date(), imageBaseUrl: "/uploads", pageSize: 100 })).products.map((p) => p.name);
  };

  it("creates a product from form input, with its search columns, and logs one ajout", async () => {
    const product = await created();
    expect(product).toMatchObject({
      title: "Coffret Dresseur d'Élite Écarlate",
      priceCents: 5999,
      stock: 4,
      status: "en_ligne",
      featured: false,
      imagePath: "pokemon_1764000000000_main",
      additionalImages: ["pokemon_1764000000000_back"],
      nameSearch: "coffret dresseur d'elite ecarlate",
      seriesSearch: "ecarlate et violet",
      archivedAt: null,
    });
    expect(product.searchText).toContain("protege-cartes");
    const log = await logOf(product.id);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      adminAction: "ajout",
      title: product.title,
      adminUserId: ADMIN.id,
      snapshot: { id: product.id, priceCents: 5999, status: "en_ligne" },
    });
    expect(log[0]!.changes).toMatchObject({ priceCents: { before: null, after: 5999 }, subCategory: { before: null, after: "Scellés" } });
    expect(await publicNames()).toContain(product.title);
  });

  it("refuses bad input with French field errors and writes nothing", async () => {
    const before = await counts();
    const result = await createProduct(db(), { ...input, price: "-5", stock: "2,5", image: "", category: "Jouets" }, ADMIN.id);
    expect(result).toEqual({
      outcome: "invalid",
      errors: {
        price: "Le prix ne peut pas être négatif",
        stock: "Le stock doit être un nombre entier",
        image: "L'image est obligatoire",
        category: "Catégorie inconnue",
      },
    });
    const product = await created({ name: "Classeur 9 cases" });
    const midway = await counts();
    const update = await updateProduct(db(), product.id, { ...input, price: "douze" }, ADMIN.id);
    expect(update).toEqual({ outcome: "invalid", errors: { price: "Le prix doit être un nombre" } });
    expect(await counts()).toEqual(midway);
    expect(midway).toEqual({ products: before.products + 1, log: before.log + 1 });
    expect((await getProductForEdit(db(), product.id))?.title).toBe("Classeur 9 cases");
  });

  it("makes a product with a launch date a_venir at that time, hidden until then", async () => {
    const launch = new Date(Date.now() + 3 * 24 * 60 * 60 * 1000);
    launch.setUTCSeconds(0, 0);
    const { date, time } = parisWallTime(launch);
    const product = await created({ name: "Display Flammes Obsidiennes", status: "en_ligne", launchDate: date, launchTime: time });
    expect(product).toMatchObject({ status: "a_venir", dropTime: launch });
    expect(await publicNames()).not.toContain("Display Flammes Obsidiennes");
    const past = await createProduct(db(), { ...input, launchDate: "2020-01-01", launchTime: "10:00" }, ADMIN.id);
    expect(past).toEqual({ outcome: "invalid", errors: { launchDate: "La date de lancement doit être dans le futur" } });
  });

  it("updates a product and logs one modification with before → after of the changed fields only", async () => {
    const product = await created({ name: "Booster Pokémon 151" });
    const result = await updateProduct(db(), product.id, { ...input, name: "Booster Pokémon 151 – FR", price: "6.49", stock: "4" }, ADMIN.id);
    expect(result.outcome).toBe("updated");
    if (result.outcome !== "updated") return;
    expect(result.changes).toEqual({
      title: { before: "Booster Pokémon 151", after: "Booster Pokémon 151 – FR" },
      priceCents: { before: 5999, after: 649 },
    });
    expect(result.product).toMatchObject({ priceCents: 649, nameSearch: "booster pokemon 151 – fr" });
    const log = await logOf(product.id);
    expect(log.map((row) => row.adminAction).sort()).toEqual(["ajout", "modification"]);
    const modification = log.find((row) => row.adminAction === "modification")!;
    expect(modification.changes).toEqual(result.changes);
    expect(modification).toMatchObject({ title: "Booster Pokémon 151 – FR", snapshot: { priceCents: 649 } });

    // The same form again changes nothing, and writes nothing.
    const again = await updateProduct(db(), product.id, { ...input, name: "Booster Pokémon 151 – FR", price: "6,49" }, ADMIN.id);
    expect(again.outcome).toBe("unchanged");
    expect(await logOf(product.id)).toHaveLength(2);
    expect(await updateProduct(db(), 987_654, input, ADMIN.id)).toEqual({ outcome: "missing" });
  });

  it("a form opened before a sale counts the stock from what it showed: the sold unit stays sold", async () => {
    const product = await created({ name: "Dracaufeu unique", stock: "1" });
    const sold = async (units: number) => {
      await db().update(products).set({ stock: sql`${products.stock} - ${units}` }).where(eq(products.id, product.id));
    };
    const stockNow = async () => (await db().select({ stock: products.stock }).from(products).where(eq(products.id, product.id)))[0]!.stock;
    // The form showed 1; the unit sells; the seller saves a new description with the stock as shown.
    await sold(1);
    const edited = await updateProduct(db(), product.id, { ...input, name: "Dracaufeu unique", description: "Nouvelle description", stock: "1" }, ADMIN.id, new Date(), { stockSeen: 1 });
    expect(edited.outcome).toBe("updated");
    expect(await stockNow()).toBe(0);
    // A restock typed as 1 → 4 in a form that showed 1 adds 3 to today's stock.
    await updateProduct(db(), product.id, { ...input, name: "Dracaufeu unique", stock: "4" }, ADMIN.id, new Date(), { stockSeen: 1 });
    expect(await stockNow()).toBe(3);
    // 3 → 0 typed after 2 sold: nothing left, never below 0.
    await sold(2);
    await updateProduct(db(), product.id, { ...input, name: "Dracaufeu unique", stock: "0" }, ADMIN.id, new Date(), { stockSeen: 3 });
    expect(await stockNow()).toBe(0);
    // Without what the form showed (a CSV import), the stock is set as given.
    await updateProduct(db(), product.id, { ...input, name: "Dracaufeu unique", stock: "7" }, ADMIN.id);
    expect(await stockNow()).toBe(7);
    const log = (await logOf(product.id)).filter((row) => row.adminAction === "modification").sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    expect(log.map((row) => (row.changes as { stock?: { after: number } }).stock?.after ?? null)).toEqual([null, 3, 0, 7]);
  });

  it("moving a product away from TCG clears its sub-category and card type", async () => {
    const card = await created({ name: "Pikachu Illustrator", subCategory: "Cartes", cardType: "vintage" });
    expect(card).toMatchObject({ subCategory: "Cartes", cardType: "vintage" });
    const result = await updateProduct(db(), card.id, { ...input, name: "Pikachu Illustrator", category: "Accessoires", subCategory: "Cartes", cardType: "vintage" }, ADMIN.id);
    expect(result.outcome === "updated" && result.changes).toEqual({
      category: { before: "TCG", after: "Accessoires" },
      subCategory: { before: "Cartes", after: null },
      cardType: { before: "vintage", after: null },
    });
  });

  it("toggles featured with one modification log row per change, none when nothing changes", async () => {
    const product = await created({ name: "Tapis de jeu Dracaufeu" });
    const on = await setFeatured(db(), product.id, true, ADMIN.id);
    expect(on).toMatchObject({ outcome: "updated", product: { featured: true }, changes: { featured: { before: false, after: true } } });
    expect(await setFeatured(db(), product.id, true, ADMIN.id)).toMatchObject({ outcome: "unchanged" });
    const log = await logOf(product.id);
    expect(log).toHaveLength(2);
    expect(log.find((row) => row.adminAction === "modification")!.changes).toEqual({ featured: { before: false, after: true } });
    expect(await setFeatured(db(), 0, true, ADMIN.id)).toEqual({ outcome: "missing" });
  });

  it("duplicates as '… (copie)', not featured, with a new id and creation date, logged as ajout", async () => {
    const original = await created({ name: "Coffret Ultra Premium", featured: "on" });
    const before = new Date();
    const result = await duplicateProduct(db(), original.id, ADMIN.id);
    expect(result.outcome).toBe("duplicated");
    if (result.outcome !== "duplicated") return;
    const copy = result.product;
    expect(copy.id).not.toBe(original.id);
    expect(copy).toMatchObject({
      title: "Coffret Ultra Premium (copie)",
      featured: false,
      priceCents: original.priceCents,
      imagePath: original.imagePath,
      nameSearch: "coffret ultra premium (copie)",
    });
    expect(copy.createdAt.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
    const log = await logOf(copy.id);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ adminAction: "ajout", title: "Coffret Ultra Premium (copie)" });
    expect(await logOf(original.id)).toHaveLength(1);

    expect(await duplicateProduct(db(), 987_654, ADMIN.id)).toEqual({ outcome: "missing", message: "Impossible de dupliquer un produit inexistant" });
  });

  it("removes a product without orders, logs it, and returns the image keys no other product uses", async () => {
    const product = await created({ name: "Étui deck box", image: "pokemon_1_deck", additionalImages: ["pokemon_1_side", "pokemon_1_top"] });
    // Another product shows one of its images: that file must stay.
    await created({ name: "Étui deck box bleu", image: "pokemon_2_deck", additionalImages: ["pokemon_1_top"] });
    const before = await counts();
    const result = await deleteProduct(db(), product.id, ADMIN.id);
    expect(result).toEqual({ outcome: "deleted", title: "Étui deck box", imageKeys: ["pokemon_1_deck", "pokemon_1_side"] });
    expect(await getProductForEdit(db(), product.id)).toBeNull();
    expect(await counts()).toEqual({ products: before.products - 1, log: before.log + 1 });
    const log = await logOf(product.id);
    expect(log.map((row) => row.adminAction).sort()).toEqual(["ajout", "suppression"]);
    const suppression = log.find((row) => row.adminAction === "suppression")!;
    expect(suppression).toMatchObject({ title: "Étui deck box", snapshot: { id: product.id, imagePath: "pokemon_1_deck" } });
    expect(suppression.changes).toMatchObject({ title: { before: "Étui deck box", after: null }, priceCents: { before: 5999, after: null } });
    expect(await deleteProduct(db(), product.id, ADMIN.id)).toEqual({ outcome: "missing" });
  });

  it("archives a product that orders point to: kept, hors_ligne, hidden everywhere, logged as suppression", async () => {
    const product = await created({ name: "Dracaufeu ex Full Art", featured: "on" });
    const [order] = await db()
      .insert(orders)
      .values({ number: "CPT-123456-0001", subtotalCents: 5999, totalCents: 5999, paymentProvider: "test", status: "paid" })
      .returning();
    await db().insert(orderItems).values({ orderId: order!.id, productId: product.id, name: product.title, unitPriceCents: 5999, quantity: 1 });
    expect(await publicNames()).toContain("Dracaufeu ex Full Art");
    const adminTotal = async () => (await listAdminProducts(db(), { ...DEFAULT_ADMIN_QUERY, q: "Dracaufeu ex Full Art" })).total;
    expect(await adminTotal()).toBe(1);

    const now = new Date();
    expect(await deleteProduct(db(), product.id, ADMIN.id, now)).toEqual({ outcome: "archived", title: "Dracaufeu ex Full Art" });
    const [row] = await db().select().from(products).where(eq(products.id, product.id));
    expect(row).toMatchObject({ status: "hors_ligne", archivedAt: now });
    const [line] = await db().select().from(orderItems).where(eq(orderItems.orderId, order!.id));
    expect(line!.productId).toBe(product.id);
    expect(await publicNames()).not.toContain("Dracaufeu ex Full Art");
    expect(await getProductForEdit(db(), product.id)).toBeNull();
    // Nor listed in the admin's product list.
    expect(await adminTotal()).toBe(0);

    const suppression = (await logOf(product.id)).find((entry) => entry.adminAction === "suppression")!;
    expect(suppression.changes).toEqual({
      status: { before: "en_ligne", after: "hors_ligne" },
      archivedAt: { before: null, after: now.toISOString() },
    });
    // Gone for every admin action too.
    expect(await deleteProduct(db(), product.id, ADMIN.id)).toEqual({ outcome: "missing" });
    expect(await setFeatured(db(), product.id, false, ADMIN.id)).toEqual({ outcome: "missing" });
    expect(await updateProduct(db(), product.id, input, ADMIN.id)).toEqual({ outcome: "missing" });
    expect((await duplicateProduct(db(), product.id, ADMIN.id)).outcome).toBe("missing");
    // The database refuses to put an archived product back online.
    await expect(db().update(products).set({ status: "en_ligne" }).where(eq(products.id, product.id))).rejects.toThrow();
  });

  it("lists the log newest first with the admin, 20 a page, filterable by product", async () => {
    const product = await created({ name: "Sleeves Pikachu" });
    for (let i = 0; i < 21; i++) await setFeatured(db(), product.id, i % 2 === 0, ADMIN.id);
    const first = await listAdminLog(db(), { productId: product.id, page: 1 });
    expect(first).toMatchObject({ total: 22, page: 1, pageCount: 2 });
    expect(first.entries).toHaveLength(ADMIN_LOG_PAGE_SIZE);
    expect(first.entries.every((entry) => entry.productId === product.id)).toBe(true);
    expect(first.entries[0]).toMatchObject({
      action: "modification",
      changes: { featured: { before: false, after: true } }, // the 21st toggle (i = 20)
      admin: { id: ADMIN.id, name: ADMIN.name, email: ADMIN.email },
    });
    const times = first.entries.map((entry) => entry.createdAt.getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const last = await listAdminLog(db(), { productId: product.id, page: 9 });
    expect(last.page).toBe(2);
    expect(last.entries.map((entry) => entry.action)).toEqual(["modification", "ajout"]);

    const everything = await listAdminLog(db(), { page: 1 });
    expect(everything.total).toBeGreaterThan(22);
    expect(everything.entries[0]!.productId).toBe(product.id);
  });
});
