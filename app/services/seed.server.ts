import { randomBytes } from "node:crypto";
import sharp from "sharp";
import { eq } from "drizzle-orm";
import { SAMPLE_CATALOGUE } from "~/db/sample-catalogue";
import { products, safetyProfiles, siteSettings, users } from "~/db/schema";
import type { Db } from "~/db/types";
import { productSearchColumns } from "~/domain/search";
import { artworkSvg } from "./placeholder-art.server";
import { storeImageVariants, type Storage } from "./storage.server";
import { createUserWithPassword } from "./users.server";

const SAMPLE_MARKER = "seed.sample_catalogue";

/**
 * The brand safety profile (migration 0016) of the sample products whose maker is plain from their
 * series: the current Pokémon sets (The Pokémon Company International), Magic (Wizards of the
 * Coast) and the One Piece card game (Bandai). The vintage Pokémon cards (Base Set, Team Rocket,
 * Neo Genesis: printed by Wizards of the Coast then), the accessories, the manga and the video game
 * have other makers: the seller fills theirs in.
 */
const SAFETY_BRAND_OF_SERIES: Record<string, string> = {
  "Écarlate et Violet": "Pokémon",
  "Astres Radieux": "Pokémon",
  "Épée et Bouclier": "Pokémon",
  "Fusion Strike": "Pokémon",
  "Soleil et Lune": "Pokémon",
  Magic: "Magic",
  "One Piece": "One Piece",
};
const DAY = 24 * 60 * 60 * 1000;

export const sampleImageKey = (slug: string) => `seed/${slug}`;

/** Draws the sample artwork once per product; files already there are kept. */
export async function ensureSampleImages(storage: Storage): Promise<void> {
  for (const item of SAMPLE_CATALOGUE) {
    const key = sampleImageKey(item.slug);
    if (await storage.exists(`${key}-320.webp`)) continue;
    const { svg } = artworkSvg(item.art, item.slug);
    const png = await sharp(Buffer.from(svg)).png().toBuffer();
    await storeImageVariants(storage, key, png);
  }
}

/**
 * Inserts the sample catalogue on the first start of an empty database. The marker row
 * and the products are written in one transaction, and the marker insert is the guard:
 * restarts (or two instances starting together) never insert twice, and a seller who
 * deletes the samples does not get them back.
 */
export async function seedSampleCatalogue(db: Db, now = new Date()): Promise<{ inserted: number }> {
  return db.transaction(async (tx) => {
    const marker = await tx
      .insert(siteSettings)
      .values({ key: SAMPLE_MARKER, value: { seededAt: now.toISOString(), count: SAMPLE_CATALOGUE.length } })
      .onConflictDoNothing()
      .returning({ key: siteSettings.key });
    if (marker.length === 0) return { inserted: 0 };
    const profileOf = new Map((await tx.select({ id: safetyProfiles.id, brand: safetyProfiles.brand }).from(safetyProfiles)).map((row) => [row.brand, row.id]));
    const rows = SAMPLE_CATALOGUE.map((item) => {
      const createdAt = new Date(now.getTime() - item.ageDays * DAY);
      return {
        title: item.title,
        description: item.description,
        priceCents: item.priceCents,
        stock: item.stock,
        imagePath: sampleImageKey(item.slug),
        category: item.category,
        subCategory: item.subCategory ?? null,
        cardType: item.cardType ?? null,
        series: item.series ?? null,
        rarity: item.rarity ?? null,
        condition: item.condition ?? null,
        status: "en_ligne" as const,
        featured: item.featured ?? false,
        // TCG cards only: the One Piece manga is Glénat's.
        safetyProfileId: item.category === "TCG" && item.series ? (profileOf.get(SAFETY_BRAND_OF_SERIES[item.series] ?? "") ?? null) : null,
        ...productSearchColumns(item),
        createdAt,
        updatedAt: createdAt,
      };
    });
    await tx.insert(products).values(rows);
    return { inserted: rows.length };
  });
}

export type AdminSeedResult =
  | { created: false; conflictEmail?: string }
  | { created: true; email: string; generatedPassword: string | null };

/** Creates the first admin when the shop has none (ADMIN_EMAIL / ADMIN_PASSWORD, else generated). */
export async function ensureAdminAccount(
  db: Db,
  options: { email?: string; password?: string },
): Promise<AdminSeedResult> {
  const hasAdmin = async () => (await db.select({ id: users.id }).from(users).where(eq(users.role, "admin")).limit(1)).length > 0;
  if (await hasAdmin()) return { created: false };
  const email = options.email ?? "admin@comptoir.local";
  const generatedPassword = options.password ? null : randomBytes(12).toString("base64url");
  const password = options.password ?? generatedPassword!;
  const result = await createUserWithPassword(db, {
    email,
    password,
    name: "Administrateur",
    role: "admin",
    emailVerified: true,
  });
  if (!result.created) {
    // Another instance starting at the same moment created it: nothing to say here.
    if (await hasAdmin()) return { created: false };
    // The address belongs to a customer account: never promote it silently.
    return { created: false, conflictEmail: email };
  }
  return { created: true, email, generatedPassword };
}
