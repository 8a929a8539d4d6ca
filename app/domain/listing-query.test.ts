import { describe, expect, it } from "vitest";
import { listingHref, pagedTitle, parseAccessoriesQuery, parsePage } from "./listing-query";

const params = (search: string) => new URLSearchParams(search);

describe("parsePage", () => {
  it.each([
    ["", 1],
    ["page=3", 3],
    ["page=0", 1],
    ["page=-2", 1],
    ["page=2.5", 1],
    ["page=abc", 1],
    ["page=", 1],
    ["page=99999999", 1],
  ])("%j → %i", (search, page) => {
    expect(parsePage(params(search))).toBe(page);
  });
});

describe("parseAccessoriesQuery", () => {
  it("reads the page and the packs filter, packs only for 1", () => {
    expect(parseAccessoriesQuery(params(""))).toEqual({ page: 1, packs: false });
    expect(parseAccessoriesQuery(params("packs=1&page=2"))).toEqual({ page: 2, packs: true });
    expect(parseAccessoriesQuery(params("packs=oui"))).toEqual({ page: 1, packs: false });
  });
});

describe("listingHref", () => {
  it("leaves the defaults out", () => {
    expect(listingHref("/accessories", { page: 1, packs: false })).toBe("/accessories");
    expect(listingHref("/accessories", {})).toBe("/accessories");
    expect(listingHref("/entertainment", { page: 2 })).toBe("/entertainment?page=2");
    expect(listingHref("/accessories", { page: 3, packs: true })).toBe("/accessories?packs=1&page=3");
    expect(listingHref("/accessories", { page: 1, packs: true })).toBe("/accessories?packs=1");
  });
});

describe("pagedTitle", () => {
  it("names the page after the first", () => {
    expect(pagedTitle("Accessoires", 1)).toBe("Accessoires");
    expect(pagedTitle("Accessoires", 2)).toBe("Accessoires – page 2");
  });
});
