import { describe, expect, it } from "vitest";
import {
  DEFAULT_ADMIN_QUERY,
  adminProductListHref,
  clearFilters,
  foundCountText,
  hasFilters,
  pagerItems,
  parseAdminProductQuery,
  scheduledNotice,
  sortBy,
} from "./admin-product-list";

const parse = (search: string) => parseAdminProductQuery(new URLSearchParams(search));

describe("admin product list URL", () => {
  it("reads the defaults from a bare URL and anything unknown as the default", () => {
    expect(parse("")).toEqual(DEFAULT_ADMIN_QUERY);
    expect(parse("sort=prix&order=up&page=-2&status=vendu&category=Pokémon&featured=peut-être")).toEqual(DEFAULT_ADMIN_QUERY);
  });

  it("round-trips a full state, and leaves the defaults out", () => {
    const query = { q: "dracaufeu", category: "TCG" as const, status: "a_venir" as const, featured: "oui" as const, sort: "price" as const, order: "desc" as const, page: 3 };
    const href = adminProductListHref(query);
    expect(href).toBe("/admin/products?q=dracaufeu&category=TCG&status=a_venir&featured=oui&sort=price&order=desc&page=3");
    expect(parse(href.split("?")[1]!)).toEqual(query);
    expect(adminProductListHref(DEFAULT_ADMIN_QUERY)).toBe("/admin/products");
    expect(adminProductListHref({ ...DEFAULT_ADMIN_QUERY, category: "Gaming & Mangas" })).toBe("/admin/products?category=Gaming+%26+Mangas");
  });

  it("sorts as SPEC.md says: the active field flips, a new field starts ascending, back to page 1", () => {
    const onPage4 = { ...DEFAULT_ADMIN_QUERY, page: 4 };
    const byName = sortBy(onPage4, "name");
    expect(byName).toMatchObject({ sort: "name", order: "desc", page: 1 });
    expect(sortBy(byName, "name")).toMatchObject({ sort: "name", order: "asc" });
    expect(sortBy(byName, "stock")).toMatchObject({ sort: "stock", order: "asc" });
  });

  it("clears the filters but keeps the sort", () => {
    const query = { ...DEFAULT_ADMIN_QUERY, q: "x", status: "hors_ligne" as const, sort: "stock" as const, page: 2 };
    expect(hasFilters(query)).toBe(true);
    const cleared = clearFilters(query);
    expect(hasFilters(cleared)).toBe(false);
    expect(cleared).toMatchObject({ sort: "stock", page: 1 });
  });
});

describe("pagerItems", () => {
  it("is empty for one page or none", () => {
    expect(pagerItems(1, 0)).toEqual([]);
    expect(pagerItems(1, 1)).toEqual([]);
  });

  it("always shows the first, the last and the current page ±1, with an ellipsis for each gap", () => {
    expect(pagerItems(1, 2)).toEqual([1, 2]);
    expect(pagerItems(1, 5)).toEqual([1, 2, "…", 5]);
    expect(pagerItems(3, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pagerItems(5, 10)).toEqual([1, "…", 4, 5, 6, "…", 10]);
    expect(pagerItems(10, 10)).toEqual([1, "…", 9, 10]);
    expect(pagerItems(99, 10)).toEqual([1, "…", 9, 10]);
  });
});

describe("texts", () => {
  it("counts the products found and the scheduled launches in French", () => {
    expect(foundCountText(0)).toBe("0 produit trouvé");
    expect(foundCountText(1)).toBe("1 produit trouvé");
    expect(foundCountText(10_000)).toBe("10\u202f000 produits trouvés");
    expect(scheduledNotice(0)).toBeNull();
    expect(scheduledNotice(1)).toBe("1 produit a un lancement programmé.");
    expect(scheduledNotice(3)).toBe("3 produits ont un lancement programmé.");
  });
});
