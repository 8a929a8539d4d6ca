import { describe, expect, it } from "vitest";
import { countOf, groupThousands } from "./numbers";

describe("groupThousands", () => {
  it("writes what Intl.NumberFormat('fr-FR') writes for whole numbers", () => {
    const intl = new Intl.NumberFormat("fr-FR");
    for (const n of [0, 7, 42, 999, 1000, 1234, 10000, 99999, 100000, 1000000, 123456789, -1500]) {
      expect(groupThousands(n)).toBe(intl.format(n));
    }
  });
});

describe("countOf", () => {
  it("puts the plural from 2 on and groups the thousands", () => {
    expect(countOf(0, "produit")).toBe("0 produit");
    expect(countOf(1, "produit")).toBe("1 produit");
    expect(countOf(2, "produit")).toBe("2 produits");
    expect(countOf(1000, "produit")).toBe("1\u202f000 produits");
    expect(countOf(3, "article", "articles")).toBe("3 articles");
  });
});
