import { describe, expect, it } from "vitest";
import { accountOrderListHref, emptyAccountOrdersText, orderContentsText } from "./account-order-list";

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
