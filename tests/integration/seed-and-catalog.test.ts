import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { SAMPLE_CATALOGUE } from "~/db/sample-catalogue";
import { accounts, products, users } from "~/db/schema";
import { countByCatalogCategory, listFeaturedProducts } from "~/services/catalog.server";
import { ensureAdminAccount, seedSampleCatalogue } from "~/services/seed.server";
import { createUserWithPassword } from "~/services/users.server";
import { databaseLabel, openTestDatabase } from "./test-database";

describe(`seed and catalogue reads on ${databaseLabel}`, () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  it("seeds the 18 sample products once, however often it runs", async () => {
    const first = await seedSampleCatalogue(database.db);
    const second = await seedSampleCatalogue(database.db);
    expect(first.inserted).toBe(18);
    expect(second.inserted).toBe(0);
    const [row] = await database.db.select({ n: sql<number>`count(*)::int` }).from(products);
    expect(row!.n).toBe(18);
  });

  it("covers every main category and sub-category, with prices from 4,99 € to 499,99 €", async () => {
    const rows = await database.db.select().from(products);
    const pairs = new Set(rows.map((p) => `${p.category}/${p.subCategory}`));
    for (const pair of ["TCG/Scellés", "TCG/Cartes", "TCG/Autres Cartes"]) expect(pairs).toContain(pair);
    expect(rows.some((p) => p.category === "Accessoires")).toBe(true);
    expect(rows.some((p) => p.category === "Gaming & Mangas")).toBe(true);
    expect(Math.min(...rows.map((p) => p.priceCents))).toBe(499);
    expect(Math.max(...rows.map((p) => p.priceCents))).toBe(49_999);
    expect(rows.filter((p) => p.stock === 0)).toHaveLength(1);
    expect(rows.filter((p) => p.stock > 0 && p.stock <= 3).length).toBeGreaterThan(0);
    expect(rows.filter((p) => p.featured).length).toBeGreaterThan(0);
    expect(rows.find((p) => p.title.startsWith("Dracaufeu Holo"))?.searchText).toContain("dracaufeu");
  });

  it("never re-seeds after the seller deleted the sample products", async () => {
    const scratch = await openTestDatabase();
    try {
      await seedSampleCatalogue(scratch.db);
      await scratch.db.delete(products);
      expect((await seedSampleCatalogue(scratch.db)).inserted).toBe(0);
    } finally {
      await scratch.close();
    }
  });

  it("lists only public featured products, and an a_venir product once its drop time has come", async () => {
    const now = new Date();
    const [hidden] = await database.db.select().from(products).where(eq(products.featured, true)).limit(1);
    await database.db.update(products).set({ status: "hors_ligne" }).where(eq(products.id, hidden!.id));
    const [dropped] = await database.db
      .insert(products)
      .values({ title: "Drop passé", priceCents: 1000, stock: 3, category: "TCG", subCategory: "Scellés", status: "a_venir", featured: true, dropTime: new Date(now.getTime() - 1000) })
      .returning();
    const [future] = await database.db
      .insert(products)
      .values({ title: "Drop futur", priceCents: 1000, stock: 3, category: "TCG", subCategory: "Scellés", status: "a_venir", featured: true, dropTime: new Date(now.getTime() + 3_600_000) })
      .returning();

    const featured = await listFeaturedProducts(database.db, { now, imageBaseUrl: "/uploads", limit: 50 });
    const ids = featured.map((p) => p.id);
    expect(ids).not.toContain(hidden!.id);
    expect(ids).toContain(dropped!.id);
    expect(ids).not.toContain(future!.id);
    expect(featured.every((p) => p.featured)).toBe(true);

    const counts = await countByCatalogCategory(database.db, now);
    const expectedSealed = SAMPLE_CATALOGUE.filter((p) => p.subCategory === "Scellés").length - (hidden!.subCategory === "Scellés" ? 1 : 0) + 1;
    expect(counts.sealed).toBe(expectedSealed);
    expect(counts.accessories).toBe(2 - (hidden!.category === "Accessoires" ? 1 : 0));
  });

  it("refuses a stock below zero: a conditional decrement reserves or fails, never oversells", async () => {
    const [p] = await database.db.insert(products).values({ title: "Dernier exemplaire", priceCents: 500, stock: 1, category: "TCG" }).returning();
    const reserve = () =>
      database.db
        .update(products)
        .set({ stock: sql`${products.stock} - 1` })
        .where(sql`${products.id} = ${p!.id} and ${products.stock} >= 1`)
        .returning({ id: products.id });
    const results = await Promise.all([reserve(), reserve(), reserve()]);
    expect(results.filter((r) => r.length === 1)).toHaveLength(1);
    await expect(database.db.update(products).set({ stock: -1 }).where(eq(products.id, p!.id))).rejects.toThrow();
  });

  it("creates the first admin once, with a better-auth credential account", async () => {
    const created = await ensureAdminAccount(database.db, { email: "Boss@Example.com", password: "motdepasse-solide" });
    expect(created).toEqual({ created: true, email: "Boss@Example.com", generatedPassword: null });
    const again = await ensureAdminAccount(database.db, { email: "other@example.com" });
    expect(again.created).toBe(false);
    const [admin] = await database.db.select().from(users).where(eq(users.email, "boss@example.com"));
    expect(admin?.role).toBe("admin");
    const [account] = await database.db.select().from(accounts).where(eq(accounts.userId, admin!.id));
    expect(account?.providerId).toBe("credential");
    expect(account?.password).toMatch(/^[0-9a-f]+:[0-9a-f]+$/);
    expect(account?.password).not.toContain("motdepasse");
  });

  it("generates and returns a password when none is configured, and never promotes a customer", async () => {
    const scratch = await openTestDatabase();
    try {
      await createUserWithPassword(scratch.db, { email: "client@example.com", password: "secret-client", name: "Client", role: "user" });
      const conflict = await ensureAdminAccount(scratch.db, { email: "client@example.com" });
      expect(conflict).toEqual({ created: false, conflictEmail: "client@example.com" });
      const [client] = await scratch.db.select().from(users).where(eq(users.email, "client@example.com"));
      expect(client?.role).toBe("user");

      const generated = await ensureAdminAccount(scratch.db, {});
      expect(generated.created && generated.generatedPassword).toMatch(/^[\w-]{16}$/);
    } finally {
      await scratch.close();
    }
  });

  it("has one of two instances starting together on an empty database create the admin, the other say nothing of a customer", async () => {
    const scratch = await openTestDatabase();
    try {
      const both = await Promise.all([1, 2].map(() => ensureAdminAccount(scratch.db, { email: "vendeur@example.com", password: "motdepasse-solide" })));
      expect(both.filter((result) => result.created)).toHaveLength(1);
      expect(both.find((result) => !result.created)).toEqual({ created: false });
      expect(await scratch.db.select({ role: users.role }).from(users)).toEqual([{ role: "admin" }]);
    } finally {
      await scratch.close();
    }
  });
});
