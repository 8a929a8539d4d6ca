import { describe, expect, it } from "vitest";
import { showLowStockBadge, stockMessage, stockState } from "./stock";

describe("stockState / stockMessage", () => {
  it.each([
    [-3, "out", "Rupture de stock"],
    [0, "out", "Rupture de stock"],
    [1, "low", "Plus que 1 exemplaire disponible"],
    [2, "low", "Plus que 2 exemplaires disponibles"],
    [10, "low", "Plus que 10 exemplaires disponibles"],
    [11, "available", "Produit disponible"],
    [500, "available", "Produit disponible"],
  ])("stock %i → %s, %j", (stock, state, message) => {
    expect(stockState(stock)).toBe(state);
    expect(stockMessage(stock)).toBe(message);
  });
});

describe("showLowStockBadge", () => {
  it("shows for 1 to 3 units only", () => {
    expect([-1, 0, 1, 2, 3, 4, 10].map(showLowStockBadge)).toEqual([false, false, true, true, true, false, false]);
  });
});
