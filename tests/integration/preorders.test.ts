import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { productDrops, productPreorders, products } from "~/db/schema";
import { getPublicProduct } from "~/services/catalog.server";
import { preorderOf, removePreorder, savePreorder } from "~/services/preorders.server";
import { databaseLabel, openTestDatabase } from "./test-database";

/** Pre-orders (issue 55): the seller's settings and what the product page shows, on a real database. */
const now = new Date("2026-11-29T10:00:00Z");
const settings = { releaseOn: "2026-12-12", estimatedDeliveryOn: "2026-12-15", quantity: "300", perCustomerLimit: "2" };

describe(`pre-order settings on ${databaseLabel}`, () => {
  let database: Database;
  let count = 0;
  const product = async () => {
    const [row] = await database.db
      .insert(products)
      .values({ title: `Display précommande ${++count}`, priceCents: 15_999, stock: 0, category: "TCG", subCategory: "Scellés", imagePath: "seed/display-ev" })
      .returning();
    return row!;
  };

  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  it("makes a product a pre-order, and its page shows the dates and the units left", async () => {
    const { id } = await product();
    const saved = await savePreorder(database.db, id, settings, now);
    expect(saved).toMatchObject({ outcome: "saved", preorder: { releaseOn: "2026-12-12", estimatedDeliveryOn: "2026-12-15", quantity: 300, perCustomerLimit: 2, orderedUnits: 0 } });
    await database.db.update(productPreorders).set({ orderedUnits: 120 }).where(eq(productPreorders.productId, id));
    const page = await getPublicProduct(database.db, id, { now, imageBaseUrl: "/images" });
    expect(page?.preorder).toEqual({ releaseOn: "2026-12-12", estimatedDeliveryOn: "2026-12-15", perCustomerLimit: 2, unitsLeft: 180 });
    expect(page?.stock).toBe(180);
    // From its release day it sells from stock like any product.
    const released = await getPublicProduct(database.db, id, { now: new Date("2026-12-12T09:00:00Z"), imageBaseUrl: "/images" });
    expect(released?.preorder).toBeNull();
    expect(released?.stock).toBe(0);
  });

  it("refuses bad settings in French and writes nothing", async () => {
    const { id } = await product();
    expect(await savePreorder(database.db, id, { ...settings, releaseOn: "2026-11-29", quantity: "abc" }, now)).toEqual({
      outcome: "invalid",
      errors: { releaseOn: "La date de sortie doit être dans le futur", quantity: "La quantité en précommande doit être un nombre entier" },
    });
    expect(await preorderOf(database.db, id)).toBeNull();
    expect(await savePreorder(database.db, 999_999, settings, now)).toEqual({ outcome: "missing" });
  });

  it("never sets the quantity under the units pre-ordered, nor removes a pre-order someone holds", async () => {
    const { id } = await product();
    await savePreorder(database.db, id, settings, now);
    await database.db.update(productPreorders).set({ orderedUnits: 41 }).where(eq(productPreorders.productId, id));
    expect(await savePreorder(database.db, id, { ...settings, quantity: "40" }, now)).toEqual({
      outcome: "invalid",
      errors: { quantity: "La quantité ne peut pas être inférieure aux 41 exemplaires déjà précommandés" },
    });
    expect(await removePreorder(database.db, id)).toEqual({ outcome: "ordered", units: 41 });
    expect((await savePreorder(database.db, id, { ...settings, quantity: "41" }, now)).outcome).toBe("saved");
    await database.db.update(productPreorders).set({ orderedUnits: 0 }).where(eq(productPreorders.productId, id));
    expect(await removePreorder(database.db, id)).toEqual({ outcome: "removed" });
    expect(await preorderOf(database.db, id)).toBeNull();
  });

  it("keeps a drop and a pre-order apart", async () => {
    const { id } = await product();
    await database.db.insert(productDrops).values({ productId: id });
    expect(await savePreorder(database.db, id, settings, now)).toEqual({
      outcome: "invalid",
      errors: { form: "Ce produit est une sortie : retirez-la de « Sorties » pour le vendre en précommande." },
    });
  });
});
