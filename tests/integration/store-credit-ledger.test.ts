import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { products, purchaseLots, storeCreditMovements } from "~/db/schema";
import type { Db } from "~/db/types";
import { addPurchaseLot } from "~/services/purchase-lots.server";
import { recordMovement, storeCreditBalance, storeCreditMovementsOf } from "~/services/store-credit.server";
import { databaseLabel, openTestDatabase } from "./test-database";

/**
 * The store-credit ledger and purchase lots (issue 54) on a real database: concurrent debits of
 * one balance never take it below 0, the ledger refuses to be rewritten, and a lot adds its units
 * to the product's stock with their purchase price.
 */
describe(`store credit ledger on ${databaseLabel}`, () => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let db: Db;
  beforeAll(async () => {
    database = await openTestDatabase();
    db = database.db;
  });
  afterAll(async () => database?.close());

  it("lets 20 concurrent debits of 30 € spend a 100 € balance three times, never below 0", async () => {
    const email = "Collectionneur@Example.fr";
    const credit = await recordMovement(db, { email, amountCents: 100_00, kind: "buyback", reason: "Rachat n° 12", author: "seller:test" });
    expect(credit).toMatchObject({ ok: true, balanceCents: 100_00 });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        recordMovement(db, { email: "collectionneur@example.fr", amountCents: -30_00, kind: "order", reason: `Commande ${i}`, author: "customer" }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(3);
    expect(results.filter((r) => !r.ok).every((r) => r.balanceCents >= 0)).toBe(true);
    expect(await storeCreditBalance(db, email)).toBe(10_00);
    const movements = await storeCreditMovementsOf(db, email);
    expect(movements.map((m) => m.amountCents).reduce((a, b) => a + b, 0)).toBe(10_00);
    expect(movements[0]!.balanceAfterCents).toBe(10_00);
  });

  it("refuses to change or delete a movement", async () => {
    const [first] = await db.select({ id: storeCreditMovements.id }).from(storeCreditMovements).limit(1);
    await expect(db.update(storeCreditMovements).set({ reason: "autre" }).where(eq(storeCreditMovements.id, first!.id))).rejects.toThrow();
    await expect(db.delete(storeCreditMovements).where(eq(storeCreditMovements.id, first!.id))).rejects.toThrow();
  });

  it("refuses a debit larger than the balance without writing anything", async () => {
    const before = await db.select({ n: sql<number>`count(*)::int` }).from(storeCreditMovements);
    const result = await recordMovement(db, { email: "vide@example.fr", amountCents: -1, kind: "order", reason: "Commande", author: "customer" });
    expect(result).toEqual({ ok: false, reason: "insufficient", balanceCents: 0 });
    const after = await db.select({ n: sql<number>`count(*)::int` }).from(storeCreditMovements);
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it("adds a purchase lot's units to the product's stock with their price", async () => {
    const [product] = await db
      .insert(products)
      .values({ title: "Dracaufeu holo", priceCents: 45_00, stock: 1, category: "TCG", vatScheme: "margin", condition: "Occasion" })
      .returning({ id: products.id });
    const lot = await addPurchaseLot(db, { productId: product!.id, quantity: 2, unitCostCents: 20_00, source: "buyback", sourceRef: "offre:1" });
    expect(lot.stock).toBe(3);
    const [row] = await db.select().from(purchaseLots).where(eq(purchaseLots.id, lot.lotId));
    expect(row).toMatchObject({ quantity: 2, remaining: 2, unitCostCents: 20_00, source: "buyback" });
    await expect(addPurchaseLot(db, { productId: product!.id, quantity: 0, unitCostCents: 1, source: "manual" })).rejects.toThrow();
  });
});
