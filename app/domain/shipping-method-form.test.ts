import { describe, expect, it } from "vitest";
import { fieldErrors } from "./field-errors";
import { SHIPPING_COUNTRY_CODES } from "./shipping-countries";
import {
  bandsSummary,
  countriesSummary,
  euroInput,
  freeFromLabel,
  shippingExample,
  shippingExampleOf,
  shippingMethodFormDefaults,
  shippingMethodFormEntries,
  shippingMethodFormSchema,
} from "./shipping-method-form";

/** The relay method of migration 0014, as its form posts it. */
const relay = {
  name: "Point relais",
  kind: "relay",
  "country.FR": "on",
  "country.BE": "on",
  "country.LU": "on",
  "bands.0.upTo": "500",
  "bands.0.from": "",
  "bands.0.price": "3,99",
  "bands.1.upTo": "1000",
  "bands.1.from": "0",
  "bands.1.price": "4,49",
  freeFrom: "60",
  deliveryTime: "3 à 5 jours ouvrés",
  active: "on",
};

function values(input: Record<string, unknown>) {
  const result = shippingMethodFormSchema.safeParse(input);
  if (!result.success) throw new Error(JSON.stringify(fieldErrors(result.error)));
  return result.data;
}

function errors(input: Record<string, unknown>) {
  const result = shippingMethodFormSchema.safeParse(input);
  if (result.success) throw new Error("expected errors");
  return fieldErrors(result.error);
}

const without = (input: Record<string, string>, ...keys: string[]) => Object.fromEntries(Object.entries(input).filter(([key]) => !keys.includes(key)));

describe("shipping method form: a valid method", () => {
  it("reads names, euros typed with a comma, grams, countries and the switch", () => {
    expect(values(relay)).toEqual({
      name: "Point relais",
      kind: "relay",
      countries: ["FR", "BE", "LU"],
      bands: [
        { upToGrams: 500, fromSubtotalCents: 0, priceCents: 399 },
        { upToGrams: 1000, fromSubtotalCents: 0, priceCents: 449 },
      ],
      freeFromCents: 6000,
      deliveryTime: "3 à 5 jours ouvrés",
      active: true,
    });
  });

  it("keeps the countries in the shop's order (France first) whatever order they came in", () => {
    const input = { ...without(relay, "country.FR", "country.BE", "country.LU"), "country.SE": "on", "country.DE": "on", "country.FR": "on" };
    expect(values(input).countries).toEqual(["FR", "DE", "SE"]);
  });

  it("an unchecked switch (not posted) is inactive; an empty threshold is never free; an empty weight has no limit", () => {
    const result = values({ ...without(relay, "active"), freeFrom: " ", "bands.2.upTo": "", "bands.2.from": "", "bands.2.price": "12" });
    expect(result.active).toBe(false);
    expect(result.freeFromCents).toBeNull();
    expect(result.bands.at(-1)).toEqual({ upToGrams: null, fromSubtotalCents: 0, priceCents: 1200 });
  });

  it("reads rows by their numbers (gaps left by removed rows), sorts the bands lightest first, skips an empty row", () => {
    const result = values({
      ...without(relay, "bands.0.upTo", "bands.0.from", "bands.0.price", "bands.1.upTo", "bands.1.from", "bands.1.price"),
      "bands.12.upTo": "",
      "bands.12.from": "",
      "bands.12.price": "9,90",
      "bands.3.upTo": "1 000 g",
      "bands.3.from": "49,90",
      "bands.3.price": "0",
      "bands.7.upTo": "",
      "bands.7.from": "",
      "bands.7.price": "",
      "bands.5.upTo": "1000",
      "bands.5.price": "4.5",
    });
    expect(result.bands).toEqual([
      { upToGrams: 1000, fromSubtotalCents: 0, priceCents: 450 },
      { upToGrams: 1000, fromSubtotalCents: 4990, priceCents: 0 },
      { upToGrams: null, fromSubtotalCents: 0, priceCents: 990 },
    ]);
  });

  it("trims the texts", () => {
    expect(values({ ...relay, name: "  Mondial Relay  ", deliveryTime: "  48 h " })).toMatchObject({ name: "Mondial Relay", deliveryTime: "48 h" });
  });
});

describe("shipping method form: refusals in French, beside their field", () => {
  it.each([
    [{ name: "" }, "name", "Le nom est obligatoire."],
    [{ name: "A" }, "name", "Le nom doit faire de 2 à 80 caractères."],
    [{ name: "x".repeat(81) }, "name", "Le nom doit faire de 2 à 80 caractères."],
    [{ name: "Relais\u202Eexe" }, "name", "Le nom contient un caractère non autorisé."],
    [{ kind: "drone" }, "kind", "Choisissez le type de livraison."],
    [{ kind: "" }, "kind", "Choisissez le type de livraison."],
    [{ freeFrom: "soixante" }, "freeFrom", "Indiquez un montant en euros, par exemple 60 ou 49,90, ou laissez vide."],
    [{ freeFrom: "-5" }, "freeFrom", "Indiquez un montant en euros, par exemple 60 ou 49,90, ou laissez vide."],
    [{ deliveryTime: "x".repeat(81) }, "deliveryTime", "Le délai fait 80 caractères au plus."],
    [{ "bands.0.price": "" }, "bands.0.price", "Indiquez le prix de cette tranche (0 pour la rendre gratuite)."],
    [{ "bands.0.price": "-1" }, "bands.0.price", "Indiquez un prix en euros, par exemple 4,99."],
    [{ "bands.0.price": "3,999" }, "bands.0.price", "Indiquez un prix en euros, par exemple 4,99."],
    [{ "bands.0.price": "10000,01" }, "bands.0.price", "Le prix ne peut pas dépasser 10\u202f000,00\u00a0€."],
    [{ "bands.1.upTo": "1,5" }, "bands.1.upTo", "Indiquez un poids en grammes, de 1 à 100\u202f000, ou laissez vide pour ne pas limiter."],
    [{ "bands.1.upTo": "0" }, "bands.1.upTo", "Indiquez un poids en grammes, de 1 à 100\u202f000, ou laissez vide pour ne pas limiter."],
    [{ "bands.1.upTo": "100001" }, "bands.1.upTo", "Indiquez un poids en grammes, de 1 à 100\u202f000, ou laissez vide pour ne pas limiter."],
    [{ "bands.1.from": "beaucoup" }, "bands.1.from", "Indiquez un montant en euros, par exemple 0 ou 49,90."],
    [{ "country.US": "on" }, "countries", "La boutique ne livre pas ce pays\u00a0: US."],
  ])("refuses %j", (change, field, message) => {
    expect(errors({ ...relay, ...change })[field]).toBe(message);
  });

  it("wants at least one country", () => {
    expect(errors(without(relay, "country.FR", "country.BE", "country.LU")).countries).toBe("Choisissez au moins un pays de livraison.");
    // An unchecked box is not posted; a posted "off" is not a choice either.
    expect(errors({ ...without(relay, "country.FR", "country.BE", "country.LU"), "country.FR": "" }).countries).toBe("Choisissez au moins un pays de livraison.");
  });

  it("wants 1 to 20 bands", () => {
    const noBands = without(relay, "bands.0.upTo", "bands.0.from", "bands.0.price", "bands.1.upTo", "bands.1.from", "bands.1.price");
    expect(errors(noBands).bands).toBe("Ajoutez au moins une tranche de prix.");
    expect(errors({ ...noBands, "bands.0.upTo": "", "bands.0.price": "" }).bands).toBe("Ajoutez au moins une tranche de prix.");
    const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`bands.${i}.upTo`, String((i + 1) * 100)]).concat(Array.from({ length: 21 }, (_, i) => [`bands.${i}.price`, "5"])));
    expect(errors({ ...noBands, ...many }).bands).toBe("20 tranches de prix au plus.");
    const twenty = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`bands.${i}.upTo`, String((i + 1) * 100)]).concat(Array.from({ length: 20 }, (_, i) => [`bands.${i}.price`, "5"])));
    expect(values({ ...noBands, ...twenty }).bands).toHaveLength(20);
  });

  it("refuses two bands with the same weight limit and subtotal floor, on the second row", () => {
    const twice = { ...relay, "bands.1.upTo": "500", "bands.1.from": "0,00" };
    expect(errors(twice)).toEqual({
      "bands.1.upTo": "Une autre tranche a déjà ce poids maximal (500\u00a0g) et ce minimum d'achat (0,00\u00a0€)\u00a0: changez l'un des deux ou supprimez cette ligne.",
    });
    const unlimited = { ...relay, "bands.0.upTo": "", "bands.1.upTo": "" };
    expect(errors(unlimited)["bands.1.upTo"]).toContain("(sans limite)");
    // Same weight, another floor: two bands.
    expect(values({ ...relay, "bands.1.upTo": "500", "bands.1.from": "30" }).bands).toHaveLength(2);
  });

  it("gives every error at once, the first field first", () => {
    const result = errors({ ...relay, name: "", kind: "x", "bands.1.price": "abc", freeFrom: "x" });
    expect(Object.keys(result)).toEqual(["name", "kind", "bands.1.price", "freeFrom"]);
  });
});

describe("shipping method form: the stored method and back", () => {
  const stored = {
    name: "Point relais",
    kind: "relay" as const,
    countries: ["BE", "FR"],
    bands: [
      { upToGrams: 500, fromSubtotalCents: 0, priceCents: 399 },
      { upToGrams: null, fromSubtotalCents: 2990, priceCents: 1000 },
    ],
    freeFromCents: 6000,
    deliveryTime: "3 à 5 jours ouvrés",
    active: false,
  };

  it("shows it as a person types it", () => {
    expect(shippingMethodFormDefaults(stored)).toEqual({
      name: "Point relais",
      kind: "relay",
      countries: ["FR", "BE"],
      bands: [
        { upTo: "500", from: "", price: "3,99" },
        { upTo: "", from: "29,90", price: "10" },
      ],
      freeFrom: "60",
      deliveryTime: "3 à 5 jours ouvrés",
      active: false,
    });
  });

  it("posts back to the same values", () => {
    const { active, ...rest } = stored;
    expect(values(shippingMethodFormEntries(shippingMethodFormDefaults(stored)))).toEqual({ ...rest, countries: ["FR", "BE"], active });
  });

  it("a new method starts in France, active, with one empty band (which the schema then asks to fill)", () => {
    const fresh = shippingMethodFormDefaults(null);
    expect(fresh).toMatchObject({ countries: ["FR"], active: true, bands: [{ upTo: "", from: "", price: "" }] });
    expect(errors(shippingMethodFormEntries(fresh))).toEqual({ name: "Le nom est obligatoire.", bands: "Ajoutez au moins une tranche de prix." });
  });

  it.each([
    [0, "0"],
    [399, "3,99"],
    [6000, "60"],
    [2990, "29,90"],
    [105, "1,05"],
  ])("euroInput(%i) is %j", (cents, text) => {
    expect(euroInput(cents)).toBe(text);
  });
});

describe("shipping methods in the list", () => {
  it.each([
    [["FR"], "France", null],
    [["FR", "BE"], "France, Belgique", null],
    [["FR", "BE", "LU", "NL", "ES"], "France et 4 autres pays", "Belgique, Espagne, Luxembourg, Pays-Bas"],
    [["FR", "BE", "LU"], "France et 2 autres pays", "Belgique, Luxembourg"],
    [SHIPPING_COUNTRY_CODES.filter((code) => code !== "FR"), "26 pays de l'UE", null],
    [SHIPPING_COUNTRY_CODES, "France et l'UE (27 pays)", null],
    [["DE", "IT", "ES"], "3 pays de l'UE", "Allemagne, Espagne, Italie"],
    [["DE"], "Allemagne", null],
    [[], "Aucun pays", null],
  ])("%j: %s", (countries, label, others) => {
    expect(countriesSummary(countries)).toEqual({ label, others });
  });

  it("says a France-plus-many method in few words", () => {
    const many = SHIPPING_COUNTRY_CODES.slice(0, 12);
    expect(countriesSummary(many)).toEqual({ label: "France et 11 autres pays", others: null });
  });

  it("sums up the bands: price range, count, heaviest", () => {
    expect(
      bandsSummary([
        { upToGrams: 500, fromSubtotalCents: 0, priceCents: 399 },
        { upToGrams: 10_000, fromSubtotalCents: 0, priceCents: 899 },
      ]),
    ).toEqual({ prices: "3,99\u00a0€ à 8,99\u00a0€", detail: "2 tranches, jusqu'à 10\u00a0kg" });
    expect(bandsSummary([{ upToGrams: null, fromSubtotalCents: 0, priceCents: 500 }])).toEqual({ prices: "5,00\u00a0€", detail: "1 tranche, sans limite de poids" });
    expect(bandsSummary([])).toEqual({ prices: "—", detail: "Aucune tranche" });
  });

  it("says when it is free", () => {
    expect(freeFromLabel(6000)).toBe("dès 60,00\u00a0€");
    expect(freeFromLabel(null)).toBe("Jamais");
  });
});

describe("the form's example", () => {
  const bands = [
    { upToGrams: 500, fromSubtotalCents: 0, priceCents: 399 },
    { upToGrams: 1000, fromSubtotalCents: 0, priceCents: 449 },
  ];

  it("prices a 500 g, 30 € cart with the method being edited", () => {
    expect(shippingExample({ bands, freeFromCents: 6000 })).toBe("Exemple\u00a0: un panier de 500\u00a0g à 30\u00a0€ → 3,99\u00a0€");
    expect(shippingExample({ bands, freeFromCents: null }, { weightGrams: 800, goodsCents: 2990 })).toBe("Exemple\u00a0: un panier de 800\u00a0g à 29,90\u00a0€ → 4,49\u00a0€");
  });

  it("says free from the threshold, and when no band carries the cart", () => {
    expect(shippingExample({ bands, freeFromCents: 3000 })).toBe("Exemple\u00a0: un panier de 500\u00a0g à 30\u00a0€ → offert (dès 30\u00a0€)");
    expect(shippingExample({ bands, freeFromCents: 3000 }, { weightGrams: 2000, goodsCents: 3000 })).toBe(
      "Exemple\u00a0: un panier de 2\u00a0kg à 30\u00a0€ → non proposé (aucune tranche pour ce poids et ce montant)",
    );
  });
});

describe("the form's example as the seller types", () => {
  it("follows the bands and the threshold, whatever the other fields hold", () => {
    expect(shippingExampleOf({ ...relay, name: "" })).toBe("Exemple\u00a0: un panier de 500\u00a0g à 30\u00a0€ → 3,99\u00a0€");
    expect(shippingExampleOf({ ...relay, "bands.0.price": "4,20" }, { weightGrams: 120, goodsCents: 1500 })).toBe("Exemple\u00a0: un panier de 120\u00a0g à 15\u00a0€ → 4,20\u00a0€");
    expect(shippingExampleOf({ ...relay, freeFrom: "25" })).toBe("Exemple\u00a0: un panier de 500\u00a0g à 30\u00a0€ → offert (dès 25\u00a0€)");
  });

  it("says nothing while a band or the threshold cannot be read, or there is no band", () => {
    expect(shippingExampleOf({ ...relay, "bands.1.price": "abc" })).toBeNull();
    expect(shippingExampleOf({ ...relay, freeFrom: "soixante" })).toBeNull();
    expect(shippingExampleOf({ name: "Vide" })).toBeNull();
  });
});
