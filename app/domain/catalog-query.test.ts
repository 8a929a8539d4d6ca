import { describe, expect, it } from "vitest";
import { catalogSearch, parseCatalogQuery } from "./catalog-query";

const parse = (qs: string) => parseCatalogQuery(new URLSearchParams(qs));

describe("parseCatalogQuery", () => {
  it("defaults to everything, newest first, page 1", () => {
    expect(parse("")).toEqual({ q: "", category: null, sort: "newest", page: 1 });
  });

  it("reads a search, a category, a sort and a page", () => {
    expect(parse("q=%20dracaufeu%20&category=cards&sort=price-desc&page=3")).toEqual({
      q: "dracaufeu",
      category: "cards",
      sort: "price-desc",
      page: 3,
    });
  });

  it("maps the older category ids onto the catalogue's", () => {
    expect(parse("category=booster").category).toBe("sealed");
    expect(parse("category=single").category).toBe("cards");
    expect(parse("category=manga").category).toBe("entertainment");
    expect(parse("category=accessory").category).toBe("accessories");
  });

  it("falls back to defaults on anything it does not know, never throws", () => {
    expect(parse("category=nimportequoi&sort=random&page=-4")).toEqual({ q: "", category: null, sort: "newest", page: 1 });
    expect(parse("page=abc").page).toBe(1);
    expect(parse(`q=${"x".repeat(500)}`).q).toBe("");
    expect(parse("category=toString&sort=constructor").category).toBeNull();
  });
});

describe("catalogSearch", () => {
  it("leaves defaults out of the URL", () => {
    expect(catalogSearch({ q: "", category: null, sort: "newest", page: 1 })).toBe("");
    expect(catalogSearch({ q: "pokémon", category: "sealed", sort: "name", page: 2 })).toBe("?q=pok%C3%A9mon&category=sealed&sort=name&page=2");
  });
});
