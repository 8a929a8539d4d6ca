import { describe, expect, it } from "vitest";
import { ACCOUNT_ORDER_SEARCH_MAX } from "./account-order-list";
import { parseAccountOrderQuery } from "./account-order-query";

const parse = (search: string) => parseAccountOrderQuery(new URLSearchParams(search));

describe("parseAccountOrderQuery", () => {
  it("reads the search trimmed, and the page", () => {
    expect(parse("q=%20%20CPT-123456%20&page=3")).toEqual({ query: { q: "CPT-123456", page: 3 }, error: null });
    expect(parse("q=Booster%20%C3%89carlate")).toEqual({ query: { q: "Booster Écarlate", page: 1 }, error: null });
  });

  it("keeps % and _ as typed: the SQL escapes them", () => {
    expect(parse("q=100%25_x").query.q).toBe("100%_x");
  });

  it("reads a missing, blank or bad page as page 1", () => {
    expect(parse("")).toEqual({ query: { q: "", page: 1 }, error: null });
    expect(parse("q=%20%20&page=0")).toEqual({ query: { q: "", page: 1 }, error: null });
    expect(parse("page=2.5").query.page).toBe(1);
    expect(parse("page=abc").query.page).toBe(1);
  });

  it("refuses a search longer than the cap with a French message, and shows the whole list", () => {
    expect(parse(`q=${"x".repeat(ACCOUNT_ORDER_SEARCH_MAX)}`).error).toBeNull();
    expect(parse(`q=${"x".repeat(ACCOUNT_ORDER_SEARCH_MAX + 1)}&page=4`)).toEqual({
      query: { q: "", page: 1 },
      error: `Votre recherche ne peut pas dépasser ${ACCOUNT_ORDER_SEARCH_MAX} caractères.`,
    });
    // Spaces around do not count.
    expect(parse(`q=%20${"x".repeat(ACCOUNT_ORDER_SEARCH_MAX)}%20`).error).toBeNull();
  });
});
