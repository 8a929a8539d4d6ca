import { describe, expect, it } from "vitest";
import { parseTcgQuery, tcgHeading, tcgSearch } from "./tcg-query";

const parse = (qs: string) => parseTcgQuery(new URLSearchParams(qs));

describe("parseTcgQuery", () => {
  it("defaults to the sealed tab, recent cards, first page, 12 cards shown", () => {
    expect(parse("")).toEqual({ category: "sealed", type: "recent", q: "", rarity: null, page: 1, shown: 12 });
  });

  it("reads every parameter and falls back on nonsense", () => {
    expect(parse("category=cards&type=vintage&q=%20Dracaufeu%20&rarity=ultra-rare&shown=24")).toMatchObject({
      category: "cards",
      type: "vintage",
      q: "Dracaufeu",
      rarity: "ultra-rare",
      shown: 24,
    });
    expect(parse("category=magic&type=old&rarity=mythic&page=-2&shown=abc")).toEqual(parse(""));
  });

  it("rounds the shown count up to whole batches of 12 and caps it", () => {
    expect(parse("category=cards&shown=13").shown).toBe(24);
    expect(parse("category=cards&shown=100000").shown).toBe(12);
  });
});

describe("tcgSearch", () => {
  it("keeps only what applies to the tab", () => {
    expect(tcgSearch({ ...parse("category=sealed&page=3"), q: "x" })).toBe("?category=sealed&page=3");
    expect(tcgSearch(parse("category=cards&type=vintage&q=pika&shown=36&page=4"))).toBe(
      "?category=cards&type=vintage&q=pika&shown=36",
    );
    expect(tcgSearch(parse("category=other-cards"))).toBe("?category=other-cards");
  });
});

describe("tcgHeading", () => {
  it("varies by tab and card type", () => {
    expect(tcgHeading({ category: "sealed", type: "recent" }).title).toBe("Produits scellés");
    expect(tcgHeading({ category: "cards", type: "recent" }).title).toBe("Cartes récentes");
    expect(tcgHeading({ category: "cards", type: "vintage" }).title).toBe("Cartes vintage");
    expect(tcgHeading({ category: "other-cards", type: "recent" }).title).toBe("Autres cartes");
  });
});
