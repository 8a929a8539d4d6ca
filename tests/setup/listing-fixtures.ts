// Adds to a copy of the run's data directory template, for tests/e2e/listing-pages.spec.ts,
// before its server starts (PGlite opens a data directory in one process only): enough TCG
// products for the listings' pagers and "Afficher plus de produits" (50 sealed, 22 other cards,
// 30 recent cards with the sample catalogue's), and the Switch game sold out.
// Usage: node --import tsx tests/setup/listing-fixtures.ts DIR
import path from "node:path";
import { eq } from "drizzle-orm";
import { openDatabase } from "~/db/client.server";
import { products } from "~/db/schema";
import { productSearchColumns } from "~/domain/search";

const dir = process.argv[2];
if (!dir) throw new Error("usage: listing-fixtures.ts DATA_DIR");

/** `count` products "{prefix} 001"…, the first the newest (a minute apart). */
function batch(count: number, values: { subCategory: string; cardType?: "recent"; prefix: string }) {
  const now = Date.now();
  return Array.from({ length: count }, (_, i) => {
    const n = i + 1;
    const title = `${values.prefix} ${String(n).padStart(3, "0")}`;
    const description = "Produit de test";
    return {
      title,
      description,
      priceCents: 1000 + n,
      stock: 20,
      category: "TCG" as const,
      subCategory: values.subCategory,
      cardType: values.cardType ?? null,
      createdAt: new Date(now - n * 60_000),
      ...productSearchColumns({ title, description, series: null }),
    };
  });
}

const database = await openDatabase({ kind: "pglite", dataDir: path.resolve(dir) });
try {
  await database.db
    .insert(products)
    .values([
      ...batch(45, { subCategory: "Scellés", prefix: "Booster test" }),
      ...batch(20, { subCategory: "Autres Cartes", prefix: "Carte Magic test" }),
      ...batch(27, { subCategory: "Cartes", cardType: "recent", prefix: "Carte récente test" }),
    ]);
  await database.db.update(products).set({ stock: 0 }).where(eq(products.title, "Pokémon Écarlate – Nintendo Switch"));
} finally {
  await database.close();
}
