// Seeds a benchmark database with about 1,000 public products (`npm run bench` runs it before it
// starts the server: a PGlite data directory opens in one process only).
//
//   node --import tsx scripts/bench-seed.ts            DATA_DIR=… (PGlite) or DATABASE_URL=…
//
// The 18 sample products come first (seedSampleCatalogue, which also writes the marker row, so
// the server does not seed again), then generated ones spread across every catalogue category.
// Images reuse the sample keys seed/<slug>, which the server draws at start.
// Deterministic: the same BENCH_PRODUCTS gives the same catalogue.
//
// BENCH_CUSTOMER='{"name":…,"email":…,"password":…}': also a confirmed customer account.
// BENCH_SEED_MIX=admin (the admin list scenario, with BENCH_PRODUCTS=10000): the generated
// products also get every status (about 75 % en_ligne, 15 % hors_ligne, 10 % a_venir with a
// drop time 1 to 60 days ahead) and more of them featured (about 8 %). These are drawn from a
// second generator, so names, prices, stock and categories stay those the pages scenario gets.
import { SAMPLE_CATALOGUE } from "~/db/sample-catalogue";
import { orderItems, orders, products, type NewProductRow } from "~/db/schema";
import type { Db } from "~/db/types";
import type { CardType, Condition, MainCategory, Rarity } from "~/domain/catalog-values";
import { CONDITIONS, RARITIES } from "~/domain/catalog-values";
import { productSearchColumns } from "~/domain/search";
import { sampleImageKey, seedSampleCatalogue } from "~/services/seed.server";
import { createUserWithPassword } from "~/services/users.server";
import { openBenchDatabase } from "./bench-db";

const TOTAL = Number(process.env.BENCH_PRODUCTS ?? 1000);
const DAY = 24 * 60 * 60 * 1000;

// Small deterministic PRNG (mulberry32): same catalogue on every run.
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = generator(0x5eed);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
const between = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));

const slugsOf = (art: string) => SAMPLE_CATALOGUE.filter((p) => p.art === art).map((p) => p.slug);
const IMAGES = {
  sealed: [...slugsOf("display"), ...slugsOf("booster"), ...slugsOf("bundle")],
  single: slugsOf("single"),
  other: slugsOf("tcg-other"),
  accessory: [...slugsOf("accessory"), ...slugsOf("binder")],
  entertainment: [...slugsOf("manga"), ...slugsOf("game")],
};

const POKEMON_SERIES = ["Écarlate et Violet", "Épée et Bouclier", "Astres Radieux", "Soleil et Lune", "Fusion Strike", "Flammes Obsidiennes", "Évolutions Prismatiques", "Couronne Stellaire"];
const VINTAGE_SERIES = ["Base Set", "Jungle", "Fossile", "Team Rocket", "Neo Genesis", "Neo Discovery", "Gym Heroes"];
const POKEMON = ["Dracaufeu", "Pikachu", "Mewtwo", "Lugia", "Évoli", "Salamèche", "Tortank", "Florizarre", "Rayquaza", "Gardevoir", "Ectoplasma", "Léviator", "Ronflex", "Mew", "Dracolosse", "Typhlosion", "Noctali", "Aquali"];
const SUFFIX = ["ex", "V", "VMAX", "VSTAR", "Holo", "GX", "Reverse", "Full Art"];
const SEALED = [
  { name: "Display", art: "36 boosters", min: 14_999, max: 49_999 },
  { name: "Booster", art: "10 cartes", min: 499, max: 799 },
  { name: "Coffret Dresseur d'Élite", art: "9 boosters", min: 4_999, max: 8_999 },
  { name: "Tripack", art: "3 boosters", min: 1_499, max: 1_999 },
  { name: "Coffret Collection", art: "4 boosters et une carte promo", min: 2_499, max: 3_999 },
];
const OTHER_GAMES = [
  { series: "Magic", items: ["Booster de jeu", "Booster Collector", "Deck Commander", "Bundle"] },
  { series: "One Piece", items: ["Booster OP-05", "Starter Deck", "Carte Leader", "Double Pack"] },
  { series: "Lorcana", items: ["Booster", "Coffret Illumineer", "Starter Deck"] },
  { series: "Yu-Gi-Oh!", items: ["Booster", "Deck de Structure", "Tin"] },
];
const ACCESSORIES = [
  { sub: "Protection", names: ["Protège-cartes Premium (100 pochettes)", "Toploaders (25)", "Pochettes Perfect Fit (100)", "Boîte de rangement magnétique"] },
  { sub: "Rangement", names: ["Classeur 9 cases – 360 cartes", "Classeur 4 cases – 160 cartes", "Deck box", "Boîte à cartes 1000"] },
  { sub: "Jeu", names: ["Tapis de jeu", "Dés et marqueurs", "Compteur de dégâts"] },
];
const ENTERTAINMENT = [
  { sub: "Manga", names: ["One Piece", "Naruto", "Dragon Ball", "Pokémon La Grande Aventure", "My Hero Academia", "Demon Slayer"], art: "manga" },
  { sub: "Jeux Vidéo", names: ["Pokémon Écarlate", "Pokémon Violet", "Pokémon Légendes Arceus", "Zelda Tears of the Kingdom", "Mario Kart 8 Deluxe"], art: "game" },
];

type Generated = Omit<NewProductRow, "searchText" | "nameSearch" | "seriesSearch">;

function sealed(i: number): Generated {
  const kind = pick(SEALED);
  const series = pick(POKEMON_SERIES);
  return base(i, {
    title: `${kind.name} Pokémon ${series}`,
    description: `${kind.name} Pokémon ${series} (${kind.art}), version française, scellé d'usine. Idéal pour ouvrir en live ou garder en collection.`,
    priceCents: between(kind.min, kind.max),
    stock: between(0, 40),
    category: "TCG",
    subCategory: "Scellés",
    series,
    imagePath: sampleImageKey(pick(IMAGES.sealed)),
  });
}

function card(i: number, cardType: CardType): Generated {
  const series = cardType === "vintage" ? pick(VINTAGE_SERIES) : pick(POKEMON_SERIES);
  const name = `${pick(POKEMON)} ${pick(SUFFIX)}`;
  const rarity: Rarity = pick(RARITIES.slice(2));
  const condition: Condition = pick(CONDITIONS);
  return base(i, {
    title: `${name} – ${series} #${between(1, 250)}`,
    description: `Carte Pokémon ${name} de l'extension ${series}, état ${condition}. Expédiée en toploader sous enveloppe rigide.`,
    priceCents: cardType === "vintage" ? between(2_999, 59_999) : between(299, 14_999),
    stock: between(0, 4),
    category: "TCG",
    subCategory: "Cartes",
    cardType,
    series,
    rarity,
    condition,
    imagePath: sampleImageKey(pick(IMAGES.single)),
  });
}

function otherCards(i: number): Generated {
  const game = pick(OTHER_GAMES);
  const item = pick(game.items);
  return base(i, {
    title: `${item} ${game.series} – édition ${between(1, 12)}`,
    description: `${item} du jeu de cartes ${game.series}, version française. Produit neuf.`,
    priceCents: between(499, 5_999),
    stock: between(0, 30),
    category: "TCG",
    subCategory: "Autres Cartes",
    series: game.series,
    rarity: pick(RARITIES),
    imagePath: sampleImageKey(pick(IMAGES.other)),
  });
}

function accessory(i: number): Generated {
  const group = pick(ACCESSORIES);
  const name = pick(group.names);
  const color = pick(["noir", "bleu", "rouge", "vert", "blanc", "violet", "Pikachu", "Dracaufeu"]);
  return base(i, {
    title: `${name} – ${color}`,
    description: `${name}, coloris ${color}. Sans acide et sans PVC, pour cartes Pokémon, Magic et One Piece.`,
    priceCents: between(299, 4_999),
    stock: between(0, 80),
    category: "Accessoires",
    subCategory: group.sub,
    imagePath: sampleImageKey(pick(IMAGES.accessory)),
  });
}

function entertainment(i: number): Generated {
  const group = pick(ENTERTAINMENT);
  const name = pick(group.names);
  const title = group.sub === "Manga" ? `${name} – Tome ${between(1, 110)}` : `${name} – Nintendo Switch`;
  return base(i, {
    title,
    description: group.sub === "Manga" ? `${title}, édition française, neuf.` : `${title}, version française, neuf sous blister.`,
    priceCents: group.sub === "Manga" ? between(599, 799) : between(2_999, 5_999),
    stock: between(0, 25),
    category: "Gaming & Mangas" as MainCategory,
    subCategory: group.sub,
    imagePath: sampleImageKey(pick(group.art === "manga" ? slugsOf("manga") : slugsOf("game"))),
  });
}

function base(i: number, row: Omit<Generated, "createdAt" | "updatedAt" | "status" | "featured">): Generated {
  const createdAt = new Date(Date.now() - between(0, 365) * DAY - i * 1000);
  return { ...row, status: "en_ligne", featured: random() < 0.04, createdAt, updatedAt: createdAt };
}

/** Share of the generated products per category (sums to 1). */
const MIX: [number, (i: number) => Generated][] = [
  [0.22, sealed],
  [0.25, (i) => card(i, "recent")],
  [0.15, (i) => card(i, "vintage")],
  [0.14, otherCards],
  [0.12, accessory],
  [0.12, entertainment],
];

function generate(count: number): NewProductRow[] {
  const rows: NewProductRow[] = [];
  for (let i = 0; i < count; i++) {
    let roll = random();
    let make = MIX[MIX.length - 1]![1];
    for (const [share, fn] of MIX) {
      if (roll < share) {
        make = fn;
        break;
      }
      roll -= share;
    }
    const row = make(i);
    rows.push({ ...row, ...(MIXED ? adminMix() : {}), ...productSearchColumns({ title: row.title, series: row.series, description: row.description }) });
  }
  return rows;
}

const MIXED = process.env.BENCH_SEED_MIX === "admin";
const mixRandom = generator(0xad317);
/** Status, drop time and featured flag of a generated product in the admin mix. */
function adminMix(): Pick<Generated, "status" | "dropTime" | "featured"> {
  const roll = mixRandom();
  const featured = mixRandom() < 0.08;
  if (roll < 0.75) return { status: "en_ligne", dropTime: null, featured };
  if (roll < 0.9) return { status: "hors_ligne", dropTime: null, featured };
  // Ahead of the run: the server's drop sweeper leaves them a_venir.
  const dropTime = new Date(Date.now() + (1 + Math.floor(mixRandom() * 60)) * DAY + Math.floor(mixRandom() * DAY));
  return { status: "a_venir", dropTime, featured };
}

/**
 * BENCH_ORDERS=N (the dashboard scenario): N orders paid over the last 120 days, one to three
 * lines each on random products, 20 % VAT; most shipped, some waiting to ship, 3 % refunded.
 */
async function seedOrders(db: Db, count: number): Promise<number> {
  if (count <= 0) return 0;
  const random = generator(0x0d45b);
  const ids = (await db.select({ id: products.id, priceCents: products.priceCents }).from(products)).slice(0, 5_000);
  const now = Date.now();
  for (let start = 0; start < count; start += 500) {
    const batch = Array.from({ length: Math.min(500, count - start) }, (_, i) => {
      const lines = Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
        const product = ids[Math.floor(random() * ids.length)]!;
        return { productId: product.id, unitPriceCents: product.priceCents, quantity: 1 + Math.floor(random() * 2) };
      });
      const totalCents = lines.reduce((sum, line) => sum + line.unitPriceCents * line.quantity, 0);
      const vatCents = Math.round(totalCents - totalCents / 1.2);
      const paidAt = new Date(now - Math.floor(random() * 120 * DAY));
      const roll = random();
      const refunded = roll < 0.03;
      return {
        order: {
          number: `BEN-${String(start + i).padStart(6, "0")}-0000`,
          status: refunded ? ("refunded" as const) : roll < 0.1 ? ("paid" as const) : ("shipped" as const),
          subtotalCents: totalCents,
          totalCents,
          paymentProvider: "test",
          vatBreakdown: [{ rateBp: 2000 as const, baseCents: totalCents - vatCents, vatCents, totalCents }],
          paidAt,
          refundedAt: refunded ? new Date(Math.min(now, paidAt.getTime() + 3 * DAY)) : null,
          createdAt: new Date(paidAt.getTime() - 60_000),
        },
        lines,
      };
    });
    const inserted = await db.insert(orders).values(batch.map((row) => row.order)).returning({ id: orders.id });
    await db.insert(orderItems).values(batch.flatMap((row, i) => row.lines.map((line) => ({ ...line, orderId: inserted[i]!.id, name: `Produit ${line.productId}` }))));
  }
  return count;
}

const database = await openBenchDatabase();
try {
  const { inserted } = await seedSampleCatalogue(database.db);
  const extra = generate(Math.max(0, TOTAL - inserted));
  for (let start = 0; start < extra.length; start += 250) {
    await database.db.insert(products).values(extra.slice(start, start + 250));
  }
  const statuses = MIXED ? Object.fromEntries(["en_ligne", "hors_ligne", "a_venir"].map((status) => [status, extra.filter((row) => row.status === status).length])) : undefined;
  const featured = MIXED ? extra.filter((row) => row.featured).length : undefined;
  const orderCount = await seedOrders(database.db, Number(process.env.BENCH_ORDERS ?? 0));
  // BENCH_CUSTOMER ({ name, email, password }): a confirmed customer, who signs in at /login for the signed-in rows.
  if (process.env.BENCH_CUSTOMER) {
    const customer = JSON.parse(process.env.BENCH_CUSTOMER) as { name: string; email: string; password: string };
    await createUserWithPassword(database.db, { ...customer, role: "user", emailVerified: true });
  }
  console.log(JSON.stringify({ database: database.kind, sample: inserted, generated: extra.length, total: inserted + extra.length, statuses, featured, orders: orderCount }));
} finally {
  await database.close();
}
