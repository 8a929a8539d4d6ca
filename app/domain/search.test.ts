import { describe, expect, it } from "vitest";
import { escapeLike, isFuzzyWord, normalizeSearch, productSearchColumns, productSearchText, searchWords } from "./search";

describe("normalizeSearch", () => {
  it("lower-cases and folds accents", () => {
    expect(normalizeSearch("Pokémon")).toBe("pokemon");
    expect(normalizeSearch("Écarlate et Violet")).toBe("ecarlate et violet");
    expect(normalizeSearch("ÉPÉE ET BOUCLIER")).toBe("epee et bouclier");
  });

  it("expands œ and æ ligatures", () => {
    expect(normalizeSearch("Œuvre cœur Ænigma")).toBe("oeuvre coeur aenigma");
  });

  it("collapses and trims whitespace", () => {
    expect(normalizeSearch("  Base \t Set\n  Jungle  ")).toBe("base set jungle");
  });
});

describe("productSearchText", () => {
  it("joins title, series and description, normalised", () => {
    expect(productSearchText({ title: "Dracaufeu", series: "Écarlate et Violet", description: "Carte  rare" })).toBe(
      "dracaufeu ecarlate et violet carte rare",
    );
  });

  it("tolerates missing series and description", () => {
    expect(productSearchText({ title: "Pokémon Display", series: null })).toBe("pokemon display");
  });
});

describe("escapeLike", () => {
  it("escapes LIKE wildcards and the escape character", () => {
    expect(escapeLike("100%")).toBe("100\\%");
    expect(escapeLike("a_b")).toBe("a\\_b");
    expect(escapeLike("a\\b")).toBe("a\\\\b");
    expect(escapeLike("%_\\")).toBe("\\%\\_\\\\");
  });

  it("leaves ordinary text alone", () => {
    expect(escapeLike("dracaufeu ex")).toBe("dracaufeu ex");
  });
});

describe("productSearchColumns", () => {
  it("folds the name and the series into their own columns", () => {
    expect(productSearchColumns({ title: "Écarlate et Violet – Display", series: "Écarlate et Violet", description: "36 boosters" })).toEqual({
      searchText: "ecarlate et violet – display ecarlate et violet 36 boosters",
      nameSearch: "ecarlate et violet – display",
      seriesSearch: "ecarlate et violet",
    });
  });

  it("leaves the series column empty when there is no series", () => {
    expect(productSearchColumns({ title: "Sleeves", series: null }).seriesSearch).toBe("");
  });
});

describe("searchWords", () => {
  it("splits the normalised text into at most 8 words", () => {
    expect(searchWords("  Dracaufeu   EX  ")).toEqual(["dracaufeu", "ex"]);
    expect(searchWords("a b c d e f g h i j")).toEqual(["a", "b", "c", "d", "e", "f", "g", "h"]);
  });

  it("gives no word for blank text", () => {
    expect(searchWords(" \t ")).toEqual([]);
  });
});

describe("isFuzzyWord", () => {
  it("tolerates typos from 4 letters or digits, with a letter", () => {
    expect(isFuzzyWord("pika")).toBe(true);
    expect(isFuzzyWord("dracofeu")).toBe(true);
    expect(isFuzzyWord("op05")).toBe(true);
  });

  it("takes short words, punctuation and numbers as typed", () => {
    expect(isFuzzyWord("mew")).toBe(false);
    expect(isFuzzyWord("ex")).toBe(false);
    expect(isFuzzyWord("a-b!")).toBe(false);
    expect(isFuzzyWord("2024")).toBe(false);
  });
});
