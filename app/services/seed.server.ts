import { randomBytes } from "node:crypto";
import sharp from "sharp";
import { eq } from "drizzle-orm";
import { SAMPLE_CATALOGUE } from "~/db/sample-catalogue";
import { products, safetyProfiles, siteSettings, users } from "~/db/schema";
import type { Db, Tx } from "~/db/types";
import { type SafetyProfileValues, TCG_AGE_WARNING_SUGGESTION } from "~/domain/safety-profile";
import { productSearchColumns } from "~/domain/search";
import { artworkSvg } from "./placeholder-art.server";
import { storeImageVariants, type Storage } from "./storage.server";
import { createUserWithPassword } from "./users.server";

const SAMPLE_MARKER = "seed.sample_catalogue";

/**
 * EXAMPLE DATA, for the demonstration catalogue only (the seller must check every value against
 * the product's packaging before selling): the brand safety profiles of the sample products, so
 * that they are complete and may be online (GPSR art. 19, domain/safety-profile). The makers'
 * names and head offices are public; the EU responsible persons marked "exemple" and every
 * e-mail (reserved .example domain, never delivered) are placeholders. Migration 0016's three
 * profiles only get the values they still lack: a seller's own values are never overwritten.
 */
const EXAMPLE_EU_IMPORTER = {
  euRepName: "Importateur UE (exemple à vérifier)",
  euRepAddress: "10 avenue de l'Exemple\n69001 Lyon\nFrance",
  euRepEmail: "securite@importateur-ue.example",
};
const SAMPLE_SAFETY_PROFILES: (SafetyProfileValues & { brand: string })[] = [
  {
    brand: "Pokémon",
    manufacturerName: "The Pokémon Company International, Inc.",
    postalAddress: "10400 NE 4th Street, Suite 2800\nBellevue, WA 98004\nÉtats-Unis",
    email: "securite-produits@pokemon.example",
    warnings: TCG_AGE_WARNING_SUGGESTION,
    manufacturerOutsideEu: true,
    ...EXAMPLE_EU_IMPORTER,
  },
  {
    brand: "Magic",
    manufacturerName: "Wizards of the Coast LLC",
    postalAddress: "PO Box 707\nRenton, WA 98057-0707\nÉtats-Unis",
    email: "securite-produits@wizards.example",
    warnings: TCG_AGE_WARNING_SUGGESTION,
    manufacturerOutsideEu: true,
    ...EXAMPLE_EU_IMPORTER,
  },
  {
    brand: "One Piece",
    manufacturerName: "Bandai Co., Ltd.",
    postalAddress: "1-4-8 Komagata, Taito-ku\nTokyo 111-8081\nJapon",
    email: "securite-produits@bandai.example",
    warnings: TCG_AGE_WARNING_SUGGESTION,
    manufacturerOutsideEu: true,
    ...EXAMPLE_EU_IMPORTER,
  },
  {
    brand: "Nintendo",
    manufacturerName: "Nintendo Co., Ltd.",
    postalAddress: "11-1 Kamitoba-hokotate-cho, Minami-ku\nKyoto 601-8501\nJapon",
    email: "securite-produits@nintendo.example",
    warnings: "Avant de jouer, lisez les précautions d'emploi de la console (risque de crise d'épilepsie photosensible).",
    manufacturerOutsideEu: true,
    euRepName: "Nintendo of Europe SE",
    euRepAddress: "Goldsteinstraße 235\n60528 Francfort-sur-le-Main\nAllemagne",
    euRepEmail: "securite-produits@nintendo-europe.example",
  },
  {
    brand: "Accessoires (exemple)",
    manufacturerName: "Fabricant d'accessoires (exemple à vérifier)",
    postalAddress: "1 rue de l'Exemple\n75001 Paris\nFrance",
    email: "securite@accessoires.example",
    warnings: "Tenir l'emballage plastique hors de portée des jeunes enfants.",
    manufacturerOutsideEu: false,
    euRepName: "",
    euRepAddress: "",
    euRepEmail: "",
  },
  {
    brand: "Glénat",
    manufacturerName: "Glénat Éditions",
    postalAddress: "37 rue Servan\n38000 Grenoble\nFrance",
    email: "securite-produits@glenat.example",
    warnings: "Aucun avertissement de sécurité particulier.",
    manufacturerOutsideEu: false,
    euRepName: "",
    euRepAddress: "",
    euRepEmail: "",
  },
];

/**
 * The brand of each sample product: the current Pokémon sets (The Pokémon Company International),
 * Magic and the vintage Pokémon cards (Base Set, Team Rocket, Neo Genesis: printed by Wizards of
 * the Coast then), the One Piece card game (Bandai), the video game (Nintendo), the manga (Glénat).
 */
const SAFETY_BRAND_OF_SERIES: Record<string, string> = {
  "Écarlate et Violet": "Pokémon",
  "Astres Radieux": "Pokémon",
  "Épée et Bouclier": "Pokémon",
  "Fusion Strike": "Pokémon",
  "Soleil et Lune": "Pokémon",
  "Base Set": "Magic",
  "Team Rocket": "Magic",
  "Neo Genesis": "Magic",
  Magic: "Magic",
  "One Piece": "One Piece",
};
function sampleBrand(item: (typeof SAMPLE_CATALOGUE)[number]): string {
  if (item.category === "Accessoires") return "Accessoires (exemple)";
  if (item.subCategory === "Jeux Vidéo") return "Nintendo";
  if (item.subCategory === "Manga") return "Glénat";
  return SAFETY_BRAND_OF_SERIES[item.series ?? ""] ?? "Pokémon";
}

/** Writes the example profiles: missing ones created, existing ones completed where empty. */
async function ensureSampleSafetyProfiles(tx: Tx): Promise<Map<string, number>> {
  const existing = await tx.select().from(safetyProfiles);
  for (const example of SAMPLE_SAFETY_PROFILES) {
    const row = existing.find((candidate) => candidate.brand === example.brand);
    if (!row) {
      await tx.insert(safetyProfiles).values(example).onConflictDoNothing();
      continue;
    }
    const missing = Object.fromEntries(
      (["postalAddress", "email", "warnings", "euRepName", "euRepAddress", "euRepEmail"] as const).filter((field) => row[field].trim() === "").map((field) => [field, example[field]]),
    );
    if (Object.keys(missing).length > 0) await tx.update(safetyProfiles).set(missing).where(eq(safetyProfiles.id, row.id));
  }
  return new Map((await tx.select({ id: safetyProfiles.id, brand: safetyProfiles.brand }).from(safetyProfiles)).map((row) => [row.brand, row.id]));
}

/** Pokémon Écarlate's rating as its box shows it (example data as well). */
const SAMPLE_PEGI: Record<string, { pegiRating: number; pegiDescriptors: string[] }> = {
  "pokemon-ecarlate-switch": { pegiRating: 7, pegiDescriptors: ["violence"] },
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
    const profileOf = await ensureSampleSafetyProfiles(tx);
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
        safetyProfileId: profileOf.get(sampleBrand(item)) ?? null,
        // An example identifier, plainly one: a made-up EAN would be another product's real code.
        manufacturerReference: `EXEMPLE-${item.slug.toUpperCase()}`.slice(0, 100),
        ...SAMPLE_PEGI[item.slug],
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
