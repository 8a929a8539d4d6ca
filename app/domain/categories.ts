import type { CardType, MainCategory } from "./catalog-values";

/** Catalogue-level category ids of SPEC.md and the products they select. */
export const CATALOG_CATEGORY_IDS = ["sealed", "cards", "other-cards", "accessories", "entertainment"] as const;
export type CatalogCategoryId = (typeof CATALOG_CATEGORY_IDS)[number];

export const CATALOG_CATEGORY_FILTERS: Record<
  CatalogCategoryId,
  { category: MainCategory; subCategory?: string }
> = {
  sealed: { category: "TCG", subCategory: "Scellés" },
  cards: { category: "TCG", subCategory: "Cartes" },
  "other-cards": { category: "TCG", subCategory: "Autres Cartes" },
  accessories: { category: "Accessoires" },
  entertainment: { category: "Gaming & Mangas" },
};

/** Which catalogue category a product belongs to, if any (first match of CATALOG_CATEGORY_FILTERS). */
export function catalogCategoryOf(category: string, subCategory: string | null): CatalogCategoryId | null {
  for (const id of CATALOG_CATEGORY_IDS) {
    const filter = CATALOG_CATEGORY_FILTERS[id];
    if (category === filter.category && (filter.subCategory === undefined || subCategory === filter.subCategory)) return id;
  }
  return null;
}

export function isCatalogCategoryId(id: string): id is CatalogCategoryId {
  return (CATALOG_CATEGORY_IDS as readonly string[]).includes(id);
}

/** Home tiles: the five ids with their own page; any other id goes to /catalog?category={id}. */
export function categoryHref(id: string): string {
  switch (id) {
    case "sealed":
    case "cards":
    case "other-cards":
      return `/tcg?category=${id}`;
    case "accessories":
      return "/accessories";
    case "entertainment":
      return "/entertainment";
    default:
      return `/catalog?category=${encodeURIComponent(id)}`;
  }
}

/** Card type: recent also when null or missing (SPEC.md section 3). */
export function effectiveCardType(cardType: CardType | null | undefined): CardType {
  return cardType === "vintage" ? "vintage" : "recent";
}

/** Derived display category: Cartes Vintage / Cartes Récentes for typed TCG singles. */
export function displayCategory(p: {
  category: MainCategory;
  subCategory?: string | null;
  cardType?: CardType | null;
}): string {
  if (p.category === "TCG" && p.subCategory === "Cartes" && p.cardType) {
    return p.cardType === "vintage" ? "Cartes Vintage" : "Cartes Récentes";
  }
  return p.category;
}
