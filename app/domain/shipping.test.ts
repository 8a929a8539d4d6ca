import { describe, expect, it } from "vitest";
import { type ShippingCart, type ShippingMethodRule, bandFor, defaultWeightGrams, formatWeight, quoteAll, quoteShipping, shippingRefusal } from "./shipping";
import type { ShippingBand } from "./shipping-method";

const band = (upToGrams: number | null, priceCents: number, fromSubtotalCents = 0): ShippingBand => ({ upToGrams, fromSubtotalCents, priceCents });

const COLISSIMO: ShippingMethodRule = {
  id: 1,
  name: "Colissimo suivi",
  kind: "home",
  countries: ["FR", "BE"],
  bands: [band(250, 690), band(1000, 890), band(5000, 1290)],
  freeFromCents: 10_000,
  deliveryTime: "48 h",
};
const RELAY: ShippingMethodRule = {
  id: 2,
  name: "Mondial Relay",
  kind: "relay",
  countries: ["FR", "BE", "ES"],
  bands: [band(1000, 490), band(null, 790)],
  freeFromCents: null,
  deliveryTime: "3 à 5 jours",
};
const LETTER: ShippingMethodRule = {
  id: 3,
  name: "Lettre suivie",
  kind: "letter",
  countries: ["FR"],
  bands: [band(100, 250)],
  freeFromCents: null,
  deliveryTime: "2 à 3 jours",
};

const cart = (weightGrams: number, goodsCents = 2_000, country = "FR"): ShippingCart => ({ weightGrams, goodsCents, country });

describe("bandFor", () => {
  const bands = [band(1000, 890), band(250, 690), band(5000, 1290)];

  it("takes the lightest band the cart fits", () => {
    expect(bandFor(bands, 100, 0)).toEqual(band(250, 690));
    expect(bandFor(bands, 251, 0)).toEqual(band(1000, 890));
    expect(bandFor(bands, 4_999, 0)).toEqual(band(5000, 1290));
  });

  it("includes the band's limit", () => {
    expect(bandFor(bands, 250, 0)).toEqual(band(250, 690));
    expect(bandFor(bands, 1000, 0)).toEqual(band(1000, 890));
    expect(bandFor(bands, 5000, 0)).toEqual(band(5000, 1290));
  });

  it("gives null when the cart is too heavy for every band", () => {
    expect(bandFor(bands, 5001, 0)).toBeNull();
    expect(bandFor([], 0, 0)).toBeNull();
  });

  it("lets a band without a limit carry any weight, after the bands with one", () => {
    const open = [band(null, 790), band(1000, 490)];
    expect(bandFor(open, 500, 0)).toEqual(band(1000, 490));
    expect(bandFor(open, 1001, 0)).toEqual(band(null, 790));
    expect(bandFor(open, 1_000_000, 0)).toEqual(band(null, 790));
  });

  it("applies a band from its goods subtotal floor only, the highest floor reached winning", () => {
    const floors = [band(1000, 890), band(1000, 490, 5_000), band(1000, 0, 20_000)];
    expect(bandFor(floors, 500, 4_999)).toEqual(band(1000, 890));
    expect(bandFor(floors, 500, 5_000)).toEqual(band(1000, 490, 5_000));
    expect(bandFor(floors, 500, 19_999)).toEqual(band(1000, 490, 5_000));
    expect(bandFor(floors, 500, 20_000)).toEqual(band(1000, 0, 20_000));
    // Only floored bands: a cart below every floor is not carried.
    expect(bandFor([band(1000, 490, 5_000)], 500, 4_999)).toBeNull();
  });

  it("prefers the lighter band to a heavier one with a higher floor", () => {
    expect(bandFor([band(2000, 0, 5_000), band(500, 690)], 400, 6_000)).toEqual(band(500, 690));
  });

  it("keeps the seller's order between two bands alike", () => {
    const first = band(1000, 490);
    const second = band(1000, 590);
    expect(bandFor([first, second], 500, 0)).toBe(first);
    expect(bandFor([second, first], 500, 0)).toBe(second);
  });

  it("does not reorder the bands it is given", () => {
    const given = [band(1000, 890), band(250, 690)];
    bandFor(given, 100, 0);
    expect(given).toEqual([band(1000, 890), band(250, 690)]);
  });
});

describe("quoteShipping", () => {
  it("prices the cart by its band", () => {
    expect(quoteShipping(COLISSIMO, cart(600))).toEqual({ methodId: 1, name: "Colissimo suivi", kind: "home", deliveryTime: "48 h", priceCents: 890, free: false });
    expect(quoteShipping(RELAY, cart(6_000, 2_000, "ES"))).toEqual({ methodId: 2, name: "Mondial Relay", kind: "relay", deliveryTime: "3 à 5 jours", priceCents: 790, free: false });
  });

  it("gives null for a country the method does not serve", () => {
    expect(quoteShipping(COLISSIMO, cart(600, 2_000, "ES"))).toBeNull();
    expect(quoteShipping(LETTER, cart(50, 2_000, "BE"))).toBeNull();
    expect(quoteShipping({ ...COLISSIMO, countries: [] }, cart(600))).toBeNull();
  });

  it("gives null for a cart too heavy for the method", () => {
    expect(quoteShipping(LETTER, cart(101))).toBeNull();
    expect(quoteShipping(COLISSIMO, cart(5_001, 50_000))).toBeNull();
  });

  it("is free from the threshold on", () => {
    expect(quoteShipping(COLISSIMO, cart(600, 9_999))).toMatchObject({ priceCents: 890, free: false });
    expect(quoteShipping(COLISSIMO, cart(600, 10_000))).toMatchObject({ priceCents: 0, free: true });
    expect(quoteShipping(COLISSIMO, cart(600, 25_000))).toMatchObject({ priceCents: 0, free: true });
    expect(quoteShipping({ ...LETTER, freeFromCents: 0 }, cart(50, 0))).toMatchObject({ priceCents: 0, free: true });
  });

  it("never makes a method free when it has no threshold", () => {
    expect(quoteShipping(RELAY, cart(600, 1_000_000))).toMatchObject({ priceCents: 490, free: false });
  });

  it("does not carry a cart too heavy even when it would be free", () => {
    expect(quoteShipping(COLISSIMO, cart(6_000, 50_000))).toBeNull();
  });

  it("calls a band priced at nothing not free", () => {
    expect(quoteShipping({ ...RELAY, bands: [band(null, 0)] }, cart(600))).toMatchObject({ priceCents: 0, free: false });
  });
});

describe("quoteAll", () => {
  it("lists the methods that fit, cheapest first", () => {
    expect(quoteAll([COLISSIMO, RELAY, LETTER], cart(80)).map((quote) => [quote.methodId, quote.priceCents])).toEqual([
      [3, 250],
      [2, 490],
      [1, 690],
    ]);
  });

  it("leaves out the methods that do not go there or cannot carry the cart", () => {
    expect(quoteAll([COLISSIMO, RELAY, LETTER], cart(600, 2_000, "ES")).map((quote) => quote.methodId)).toEqual([2]);
    expect(quoteAll([COLISSIMO, LETTER], cart(6_000))).toEqual([]);
    expect(quoteAll([COLISSIMO, RELAY, LETTER], cart(80, 2_000, "DE"))).toEqual([]);
    expect(quoteAll([], cart(80))).toEqual([]);
  });

  it("puts a method made free first", () => {
    expect(quoteAll([LETTER, RELAY, COLISSIMO], cart(80, 10_000)).map((quote) => [quote.methodId, quote.priceCents, quote.free])).toEqual([
      [1, 0, true],
      [3, 250, false],
      [2, 490, false],
    ]);
  });

  it("keeps the seller's order between methods of the same price", () => {
    const a = { ...RELAY, id: 10, name: "A", bands: [band(null, 490)] };
    const b = { ...RELAY, id: 11, name: "B", bands: [band(null, 490)] };
    const c = { ...RELAY, id: 12, name: "C", bands: [band(null, 390)] };
    expect(quoteAll([a, b, c], cart(80)).map((quote) => quote.name)).toEqual(["C", "A", "B"]);
    expect(quoteAll([b, a, c], cart(80)).map((quote) => quote.name)).toEqual(["C", "B", "A"]);
  });
});

describe("shippingRefusal", () => {
  it("says a method that is gone is no longer offered", () => {
    expect(shippingRefusal(null, cart(80), "France")).toBe("Ce mode de livraison n'est plus proposé. Choisissez-en un autre dans votre panier.");
  });

  it("names the country the method does not serve", () => {
    expect(shippingRefusal(LETTER, cart(80, 2_000, "DE"), "Allemagne")).toBe("« Lettre suivie » ne livre pas en Allemagne. Choisissez un autre mode de livraison.");
  });

  it("gives the weight of a cart the method cannot carry", () => {
    expect(shippingRefusal(LETTER, cart(150), "France")).toBe("« Lettre suivie » ne peut pas transporter ce panier (150\u00a0g). Choisissez un autre mode de livraison.");
    expect(shippingRefusal(COLISSIMO, cart(6_500), "France")).toBe("« Colissimo suivi » ne peut pas transporter ce panier (6,5\u00a0kg). Choisissez un autre mode de livraison.");
  });
});

describe("formatWeight", () => {
  it("writes grams under a kilogram, kilograms from one, with a no-break space", () => {
    expect(formatWeight(0)).toBe("0\u00a0g");
    expect(formatWeight(5)).toBe("5\u00a0g");
    expect(formatWeight(950)).toBe("950\u00a0g");
    expect(formatWeight(999)).toBe("999\u00a0g");
    expect(formatWeight(1000)).toBe("1\u00a0kg");
    expect(formatWeight(1500)).toBe("1,5\u00a0kg");
    expect(formatWeight(1250)).toBe("1,25\u00a0kg");
    expect(formatWeight(2001)).toBe("2\u00a0kg");
    expect(formatWeight(12_340)).toBe("12,34\u00a0kg");
  });
});

describe("defaultWeightGrams", () => {
  it("weighs a product by where it sits in the catalogue", () => {
    expect(defaultWeightGrams("TCG", "Scellés")).toBe(150);
    expect(defaultWeightGrams("TCG", "Cartes à l'unité")).toBe(5);
    expect(defaultWeightGrams("TCG", null)).toBe(5);
    expect(defaultWeightGrams("TCG", undefined)).toBe(5);
    expect(defaultWeightGrams("Accessoires", "Protège-cartes")).toBe(120);
    expect(defaultWeightGrams("Accessoires", null)).toBe(120);
    expect(defaultWeightGrams("Gaming & Mangas", "Mangas")).toBe(250);
    expect(defaultWeightGrams("Autre", null)).toBe(250);
  });
});
