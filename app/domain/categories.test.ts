import { describe, expect, it } from "vitest";
import { CATALOG_CATEGORY_IDS, catalogCategoryOf, categoryHref, displayCategory, effectiveCardType, isCatalogCategoryId } from "./categories";

describe("categoryHref", () => {
  it.each([
    ["sealed", "/tcg?category=sealed"],
    ["cards", "/tcg?category=cards"],
    ["other-cards", "/tcg?category=other-cards"],
    ["accessories", "/accessories"],
    ["entertainment", "/entertainment"],
    ["booster", "/catalog?category=booster"],
  ])("%s → %s", (id, href) => {
    expect(categoryHref(id)).toBe(href);
  });

  it("encodes unknown ids in the query string", () => {
    expect(categoryHref("a&b c")).toBe("/catalog?category=a%26b%20c");
  });
});

describe("displayCategory", () => {
  it("derives Cartes Vintage / Cartes Récentes for typed TCG singles", () => {
    expect(displayCategory({ category: "TCG", subCategory: "Cartes", cardType: "vintage" })).toBe("Cartes Vintage");
    expect(displayCategory({ category: "TCG", subCategory: "Cartes", cardType: "recent" })).toBe("Cartes Récentes");
  });

  it("falls back to the main category otherwise", () => {
    expect(displayCategory({ category: "TCG", subCategory: "Cartes", cardType: null })).toBe("TCG");
    expect(displayCategory({ category: "TCG", subCategory: "Cartes" })).toBe("TCG");
    expect(displayCategory({ category: "TCG", subCategory: "Scellés", cardType: "vintage" })).toBe("TCG");
    expect(displayCategory({ category: "Accessoires", subCategory: null })).toBe("Accessoires");
    expect(displayCategory({ category: "Gaming & Mangas", subCategory: "Manga" })).toBe("Gaming & Mangas");
  });
});

describe("effectiveCardType", () => {
  it("is recent unless explicitly vintage", () => {
    expect(effectiveCardType("vintage")).toBe("vintage");
    expect(effectiveCardType("recent")).toBe("recent");
    expect(effectiveCardType(null)).toBe("recent");
    expect(effectiveCardType(undefined)).toBe("recent");
  });
});

describe("isCatalogCategoryId", () => {
  it("accepts exactly the five catalogue ids", () => {
    for (const id of CATALOG_CATEGORY_IDS) expect(isCatalogCategoryId(id)).toBe(true);
    expect(CATALOG_CATEGORY_IDS).toHaveLength(5);
    expect(isCatalogCategoryId("booster")).toBe(false);
    expect(isCatalogCategoryId("Sealed")).toBe(false);
    expect(isCatalogCategoryId("")).toBe(false);
  });
});

describe("catalogCategoryOf", () => {
  it("finds the catalogue category of a product, or none", () => {
    expect(catalogCategoryOf("TCG", "Scellés")).toBe("sealed");
    expect(catalogCategoryOf("TCG", "Cartes")).toBe("cards");
    expect(catalogCategoryOf("TCG", "Autres Cartes")).toBe("other-cards");
    expect(catalogCategoryOf("Accessoires", "Protection")).toBe("accessories");
    expect(catalogCategoryOf("Gaming & Mangas", null)).toBe("entertainment");
    expect(catalogCategoryOf("TCG", null)).toBeNull();
  });
});
