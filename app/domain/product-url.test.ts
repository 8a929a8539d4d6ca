import { describe, expect, it } from "vitest";
import { parseProductParam, productPath, productSlug } from "./product-url";

describe("productSlug", () => {
  it("folds accents and punctuation into dashes", () => {
    expect(productSlug("Dracaufeu Holo – Set de Base")).toBe("dracaufeu-holo-set-de-base");
    expect(productSlug("Écarlate & Violet : Display (36)")).toBe("ecarlate-violet-display-36");
  });
  it("stays short and never ends with a dash", () => {
    const slug = productSlug("a ".repeat(80));
    expect(slug.length).toBeLessThanOrEqual(60);
    expect(slug.endsWith("-")).toBe(false);
  });
});

describe("productPath", () => {
  it("builds /product/{id}-{slug}", () => {
    expect(productPath({ id: 7, name: "Pikachu Illustrator" })).toBe("/product/7-pikachu-illustrator");
  });
  it("falls back to the id when the name has no letters", () => {
    expect(productPath({ id: 7, name: "★★★" })).toBe("/product/7");
  });
});

describe("parseProductParam", () => {
  it("accepts the id alone or followed by a slug", () => {
    expect(parseProductParam("12")).toBe(12);
    expect(parseProductParam("12-pikachu-illustrator")).toBe(12);
  });
  it("rejects everything else", () => {
    expect(parseProductParam("undefined")).toBeNull();
    expect(parseProductParam("0")).toBeNull();
    expect(parseProductParam("12abc")).toBeNull();
    expect(parseProductParam("-3")).toBeNull();
    expect(parseProductParam(undefined)).toBeNull();
    expect(parseProductParam("1234567890")).toBeNull();
  });
});
