import { and, asc, count, eq, inArray, isNull, sql } from "drizzle-orm";
import { products, safetyProfiles } from "~/db/schema";
import type { Db, Tx } from "~/db/types";
import { brandKey, missingSafetyInformation, productSafety, type SafetyProfileFormValues, type SafetyProfileSummary } from "~/domain/safety-profile";

/**
 * The brand safety profiles (GPSR art. 19) of /admin/product-safety. A change to one changes what
 * every product page of that brand shows: the safety_profiles trigger (drizzle/0015) announces it
 * as a site change, so cached pages are purged and open pages refresh.
 */

export type SafetyProfileRow = SafetyProfileSummary & { updatedAt: Date; productCount: number };
export type SafetyProfileWrite =
  | { outcome: "saved"; profile: SafetyProfileSummary }
  | { outcome: "duplicate" }
  | { outcome: "missing" };

const COLUMNS = {
  id: safetyProfiles.id,
  brand: safetyProfiles.brand,
  manufacturerName: safetyProfiles.manufacturerName,
  postalAddress: safetyProfiles.postalAddress,
  email: safetyProfiles.email,
  warnings: safetyProfiles.warnings,
  manufacturerOutsideEu: safetyProfiles.manufacturerOutsideEu,
  euRepName: safetyProfiles.euRepName,
  euRepAddress: safetyProfiles.euRepAddress,
  euRepEmail: safetyProfiles.euRepEmail,
};

const isProfileId = (id: number) => Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647;

/** Every profile by brand, with how many products (archived ones aside) use it. */
export async function listSafetyProfiles(db: Db): Promise<SafetyProfileRow[]> {
  const used = db
    .select({ profileId: products.safetyProfileId, n: count().as("n") })
    .from(products)
    .where(sql`${products.archivedAt} is null and ${products.safetyProfileId} is not null`)
    .groupBy(products.safetyProfileId)
    .as("used");
  const rows = await db
    .select({ ...COLUMNS, updatedAt: safetyProfiles.updatedAt, productCount: sql<number>`coalesce(${used.n}, 0)`.mapWith(Number) })
    .from(safetyProfiles)
    .leftJoin(used, eq(used.profileId, safetyProfiles.id))
    .orderBy(asc(safetyProfiles.brand));
  return rows;
}

/** The profiles a product form offers, checks a posted id against and completes a product's values with. */
export async function safetyProfileChoices(db: Db | Tx): Promise<SafetyProfileSummary[]> {
  return db.select(COLUMNS).from(safetyProfiles).orderBy(asc(safetyProfiles.brand));
}

/** A unique index's refusal, through drizzle's wrapper (node-postgres) or as PGlite throws it. */
function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === "23505") return true;
  }
  return false;
}

/** Creates a profile (id null) or updates one; a brand is one profile, whatever its case. */
export async function saveSafetyProfile(db: Db, id: number | null, values: SafetyProfileFormValues, now = new Date()): Promise<SafetyProfileWrite> {
  if (id !== null && !isProfileId(id)) return { outcome: "missing" };
  try {
    return await db.transaction(async (tx): Promise<SafetyProfileWrite> => {
      // A few brands: compared here, where "pokémon" is "Pokémon" whatever the database's collation.
      const brands = await tx.select({ id: safetyProfiles.id, brand: safetyProfiles.brand }).from(safetyProfiles);
      if (brands.some((row) => row.id !== id && brandKey(row.brand) === brandKey(values.brand))) return { outcome: "duplicate" };
      const [row] =
        id === null
          ? await tx.insert(safetyProfiles).values({ ...values, updatedAt: now }).returning(COLUMNS)
          : await tx.update(safetyProfiles).set({ ...values, updatedAt: now }).where(eq(safetyProfiles.id, id)).returning(COLUMNS);
      return row ? { outcome: "saved", profile: row } : { outcome: "missing" };
    });
  } catch (error) {
    // Two admins creating the same brand at once: the unique index refuses the second.
    if (isUniqueViolation(error)) return { outcome: "duplicate" };
    throw error;
  }
}

/** Deletes a profile; its products keep their own values and lose the brand's (the foreign key sets null). */
export async function deleteSafetyProfile(db: Db, id: number): Promise<{ outcome: "deleted"; brand: string; productCount: number } | { outcome: "missing" }> {
  if (!isProfileId(id)) return { outcome: "missing" };
  return db.transaction(async (tx) => {
    const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(products).where(eq(products.safetyProfileId, id));
    const [row] = await tx.delete(safetyProfiles).where(eq(safetyProfiles.id, id)).returning({ brand: safetyProfiles.brand });
    return row ? { outcome: "deleted" as const, brand: row.brand, productCount: Number(n) } : { outcome: "missing" as const };
  });
}

/** A product's own safety values (each overrides its brand profile's; see productSafety). */
export const PRODUCT_SAFETY_COLUMNS = {
  manufacturerName: products.manufacturerName,
  manufacturerAddress: products.manufacturerAddress,
  manufacturerEmail: products.manufacturerEmail,
  manufacturerOutsideEu: products.manufacturerOutsideEu,
  euRepName: products.euRepName,
  euRepAddress: products.euRepAddress,
  euRepEmail: products.euRepEmail,
  ean: products.ean,
  manufacturerReference: products.manufacturerReference,
  safetyWarnings: products.safetyWarnings,
};

/**
 * How many products on sale or scheduled lack safety information (the launch checklist): those
 * put online before the rule, or whose brand profile lost a value since. The rule is the form's
 * (missingSafetyInformation), applied to each product and its brand.
 */
export async function countProductsMissingSafety(db: Db): Promise<number> {
  const [profiles, rows] = await Promise.all([
    safetyProfileChoices(db),
    db
      .select({
        safetyProfileId: products.safetyProfileId,
        ...PRODUCT_SAFETY_COLUMNS,
      })
      .from(products)
      .where(and(inArray(products.status, ["en_ligne", "a_venir"]), isNull(products.archivedAt))),
  ]);
  const profileOf = new Map(profiles.map((profile) => [profile.id, profile]));
  return rows.filter((row) => missingSafetyInformation(productSafety(row, row.safetyProfileId === null ? null : profileOf.get(row.safetyProfileId))).length > 0).length;
}
