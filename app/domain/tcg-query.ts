import { parsePageNumber } from "./pagination";
import { intParam, oneOfParam, textParam } from "./query-params";
import { CARD_TYPES, type CardType, RARITIES, type Rarity } from "./catalog-values";

/** /tcg tabs, kept in ?category= (default sealed). */
export const TCG_TABS = ["sealed", "cards", "other-cards"] as const;
export type TcgTab = (typeof TCG_TABS)[number];

export const TCG_TAB_LABELS: Record<TcgTab, string> = {
  sealed: "Scellés",
  cards: "Cartes",
  "other-cards": "Autres cartes",
};

/** SPEC.md section 9: sealed 8 per page, other cards 12, cards load 12 more at a time. */
export const TCG_PAGE_SIZE = { sealed: 8, "other-cards": 12 } as const;
export const CARDS_BATCH = 12;
const MAX_SHOWN = 600;

export type TcgQuery = {
  category: TcgTab;
  /** Cards tab: recent or vintage. */
  type: CardType;
  /** Cards tab: name or series. */
  q: string;
  rarity: Rarity | null;
  /** Paged tabs. */
  page: number;
  /** Cards tab: how many are shown (grows by 12 with "Afficher plus de produits"). */
  shown: number;
};

export function parseTcgQuery(params: URLSearchParams): TcgQuery {
  const shown = intParam(params.get("shown"), { min: CARDS_BATCH, max: MAX_SHOWN }, CARDS_BATCH);
  return {
    category: oneOfParam(params.get("category"), TCG_TABS, "sealed"),
    type: oneOfParam(params.get("type"), CARD_TYPES, "recent"),
    q: textParam(params.get("q"), 100),
    rarity: oneOfParam(params.get("rarity"), RARITIES, null),
    page: parsePageNumber(params.get("page")),
    // Load-more grows by whole batches.
    shown: Math.ceil(shown / CARDS_BATCH) * CARDS_BATCH,
  };
}

/** The query string of a /tcg state, with only what applies to the tab and no defaults. */
export function tcgSearch(query: TcgQuery): string {
  const params = new URLSearchParams({ category: query.category });
  if (query.category === "cards") {
    if (query.type !== "recent") params.set("type", query.type);
    if (query.q) params.set("q", query.q);
    if (query.rarity) params.set("rarity", query.rarity);
    if (query.shown > CARDS_BATCH) params.set("shown", String(query.shown));
  } else if (query.page > 1) {
    params.set("page", String(query.page));
  }
  return `?${params}`;
}

/** Title and description of the page by tab and card type. */
export function tcgHeading(query: Pick<TcgQuery, "category" | "type">): { title: string; description: string } {
  switch (query.category) {
    case "sealed":
      return {
        title: "Produits scellés",
        description: "Boosters, displays, coffrets et bundles Pokémon, scellés d'origine.",
      };
    case "cards":
      return query.type === "vintage"
        ? {
            title: "Cartes vintage",
            description: "Les cartes Pokémon des premières séries : Set de Base, Jungle, Fossile, Team Rocket, Neo Genesis.",
          }
        : {
            title: "Cartes récentes",
            description: "Les cartes Pokémon des séries récentes : Épée et Bouclier, Écarlate et Violet, Astres Radieux.",
          };
    case "other-cards":
      return {
        title: "Autres cartes",
        description: "Magic: The Gathering, One Piece et les autres jeux de cartes à collectionner.",
      };
  }
}
