import { describe, expect, it } from "vitest";
import { ACCOUNT_ORDER_SEARCH_MAX, accountOrderListHref, emptyAccountOrdersText, orderContentsText, parseAccountOrderQuery } from "./account-order-list";

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

describe("accountOrderListHref", () => {
  it("leaves the defaults out and encodes the search", () => {
    expect(accountOrderListHref({ q: "", page: 1 })).toBe("/account/orders");
    expect(accountOrderListHref({ q: "", page: 2 })).toBe("/account/orders?page=2");
    expect(accountOrderListHref({ q: "pokémon & co", page: 3 })).toBe("/account/orders?q=pok%C3%A9mon+%26+co&page=3");
  });
});

describe("texts", () => {
  it("says why the list is empty", () => {
    expect(emptyAccountOrdersText("")).toBe("Vous n'avez pas encore passé de commande.");
    expect(emptyAccountOrdersText("zzz")).toBe("Aucune commande ne correspond à votre recherche.");
  });

  it("names the first product and counts the others", () => {
    expect(orderContentsText("Booster Écarlate", 1)).toBe("Booster Écarlate");
    expect(orderContentsText("Booster Écarlate", 2)).toBe("Booster Écarlate et 1 autre produit");
    expect(orderContentsText("Booster Écarlate", 4)).toBe("Booster Écarlate et 3 autres produits");
    expect(orderContentsText(null, 0)).toBe("");
  });
});
