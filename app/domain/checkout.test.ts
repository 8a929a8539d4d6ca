import { describe, expect, it } from "vitest";
import { checkoutRequestSchema, computeOrderTotals, deliveryChoiceSchema, fieldErrorsOf, mergeLines, outOfStockDetails, relayPointSchema } from "./checkout";

describe("checkout request", () => {
  it("keeps only ids, quantities and the insurance choice", () => {
    const parsed = checkoutRequestSchema.parse({ items: [{ productId: 3, quantity: 2, priceCents: 1 }], insuranceSelected: true, amount: 1, metadata: { x: 1 } });
    expect(parsed).toEqual({ items: [{ productId: 3, quantity: 2 }], insuranceSelected: true });
  });

  it.each([
    [{ items: [{ productId: 3, quantity: 0 }] }, "items.0.quantity"],
    [{ items: [{ productId: 3, quantity: 1.5 }] }, "items.0.quantity"],
    [{ items: [{ productId: 3, quantity: 100 }] }, "items.0.quantity"],
    [{ items: [{ productId: "3", quantity: 1 }] }, "items.0.productId"],
    [{ items: [{ productId: -3, quantity: 1 }] }, "items.0.productId"],
    [{ items: "x" }, "items"],
    [{ items: [], email: "pas-un-email" }, "email"],
  ])("refuses %j", (body, path) => {
    const result = checkoutRequestSchema.safeParse(body);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join("."))).toContain(path);
  });

  it("caps the sum of the same product's lines, as for one line", () => {
    const result = checkoutRequestSchema.safeParse({ items: [{ productId: 2, quantity: 99 }, { productId: 2, quantity: 21 }] });
    expect(result.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([["items", "La quantité ne peut pas dépasser 99."]]);
    expect(checkoutRequestSchema.safeParse({ items: [{ productId: 2, quantity: 50 }, { productId: 2, quantity: 49 }] }).success).toBe(true);
  });

  it.each([null, [], "x", { items: [1, "x"], email: 5 }, { items: [], discountCode: ["X"] }, { items: [{}] }])("answers %j in French", (body) => {
    const messages = checkoutRequestSchema.safeParse(body).error?.issues.map((i) => i.message) ?? [];
    expect(messages.length).toBeGreaterThan(0);
    for (const message of messages) expect(message).toMatch(/^(La commande envoyée est illisible\.|Le panier est illisible\.|Merci d'entrer une adresse email valide|Code promo illisible\.|Produit inconnu\.|La quantité doit être un nombre entier\.)$/);
  });

  it("merges the same product and sorts by id", () => {
    expect(mergeLines([{ productId: 9, quantity: 1 }, { productId: 2, quantity: 1 }, { productId: 9, quantity: 2 }])).toEqual([
      { productId: 2, quantity: 1 },
      { productId: 9, quantity: 3 },
    ]);
  });

  it("computes totals in cents with the insurance tiers and a discount", () => {
    expect(computeOrderTotals([{ unitPriceCents: 49_999, quantity: 1 }], true)).toEqual({ subtotalCents: 49_999, insuranceCents: 1_000, discountCents: 0, shippingCents: 0, totalCents: 50_999 });
    expect(computeOrderTotals([{ unitPriceCents: 50_001, quantity: 1 }], true).insuranceCents).toBe(2_000);
    expect(computeOrderTotals([{ unitPriceCents: 100_001, quantity: 1 }], true).insuranceCents).toBe(0);
    expect(computeOrderTotals([{ unitPriceCents: 1_000, quantity: 2 }], false, 5_000)).toEqual({ subtotalCents: 2_000, insuranceCents: 0, discountCents: 2_000, shippingCents: 0, totalCents: 0 });
  });

  it("names the product in the victime de son succès text", () => {
    expect(outOfStockDetails("Coffret Dracaufeu")).toMatch(/^« Coffret Dracaufeu » a été victime de son succès/);
  });
});

describe("delivery choice", () => {
  const RELAY = { id: "FR-012345", name: "Tabac de la Gare", line1: "2 place de la Gare", postalCode: "69003", city: "Lyon" };
  const errorsOf = (body: unknown) => {
    const result = deliveryChoiceSchema.safeParse(body);
    expect(result.success).toBe(false);
    return fieldErrorsOf(result.error!);
  };

  it("takes a home delivery: a method and a country", () => {
    expect(deliveryChoiceSchema.parse({ methodId: 1, country: "FR" })).toEqual({ methodId: 1, country: "FR" });
    expect(deliveryChoiceSchema.parse({ methodId: 4, country: "BE", priceCents: 0 })).toEqual({ methodId: 4, country: "BE" });
  });

  it("takes a relay choice with the point's full address, trimmed", () => {
    expect(deliveryChoiceSchema.parse({ methodId: 2, country: "FR", relayPoint: RELAY })).toEqual({ methodId: 2, country: "FR", relayPoint: RELAY });
    const spaced = { id: " FR-012345 ", name: " Tabac de la Gare ", line1: "  2 place de la Gare", postalCode: " 69003 ", city: "Lyon  " };
    expect(deliveryChoiceSchema.parse({ methodId: 2, country: "FR", relayPoint: spaced }).relayPoint).toEqual(RELAY);
  });

  it("takes a relay point abroad with its own postal code", () => {
    expect(deliveryChoiceSchema.parse({ methodId: 2, country: "BE", relayPoint: { ...RELAY, postalCode: "1000", city: "Bruxelles" } }).relayPoint?.postalCode).toBe("1000");
    expect(deliveryChoiceSchema.parse({ methodId: 2, country: "NL", relayPoint: { ...RELAY, postalCode: "1012 AB", city: "Amsterdam" } }).relayPoint?.postalCode).toBe("1012 AB");
  });

  it("asks for each missing relay field in French", () => {
    expect(errorsOf({ methodId: 2, country: "FR", relayPoint: {} })).toEqual({
      "relayPoint.id": "Indiquez l'identifiant du point relais",
      "relayPoint.name": "Indiquez le nom du point relais",
      "relayPoint.line1": "Indiquez l'adresse du point relais",
      "relayPoint.postalCode": "Code postal invalide",
      "relayPoint.city": "Indiquez la ville du point relais",
    });
  });

  it("refuses relay fields that are blank or too short", () => {
    expect(errorsOf({ methodId: 2, country: "FR", relayPoint: { ...RELAY, id: "1", name: "   ", line1: "ab", city: " L " } })).toEqual({
      "relayPoint.id": "Indiquez l'identifiant du point relais",
      "relayPoint.name": "Indiquez le nom du point relais",
      "relayPoint.line1": "Indiquez l'adresse du point relais",
      "relayPoint.city": "Indiquez la ville du point relais",
    });
  });

  it("refuses relay fields that are too long", () => {
    expect(errorsOf({ methodId: 2, country: "FR", relayPoint: { ...RELAY, id: "x".repeat(33), name: "x".repeat(121), city: "x".repeat(81) } })).toEqual({
      "relayPoint.id": "Texte trop long.",
      "relayPoint.name": "Texte trop long.",
      "relayPoint.city": "Texte trop long.",
    });
    expect(relayPointSchema.safeParse({ ...RELAY, id: "x".repeat(32), name: "x".repeat(120), city: "x".repeat(80) }).success).toBe(true);
  });

  it.each(["6900", "690031", "69 003", "A9003", "2A004"])("wants a French relay point's postal code in 5 digits, not %j", (postalCode) => {
    expect(errorsOf({ methodId: 2, country: "FR", relayPoint: { ...RELAY, postalCode } })).toEqual({ "relayPoint.postalCode": "Code postal invalide (5 chiffres)" });
  });

  it.each(["", "12", "-1000", "1000!", "12345678901"])("refuses the postal code %j in any country", (postalCode) => {
    expect(errorsOf({ methodId: 2, country: "BE", relayPoint: { ...RELAY, postalCode } })).toEqual({ "relayPoint.postalCode": "Code postal invalide" });
  });

  it.each([
    ["a line break", "Tabac\nde la Gare"],
    ["a NUL", "Tabac\u0000"],
    ["a tab", "Tabac\tGare"],
    ["a bidi override", "Tabac \u202Eeraf"],
    ["a bidi isolate", "Tabac \u2066Gare\u2069"],
  ])("refuses %s in a relay field", (_, text) => {
    expect(errorsOf({ methodId: 2, country: "FR", relayPoint: { ...RELAY, name: text } })).toEqual({ "relayPoint.name": "Ce champ contient des caractères non autorisés." });
    expect(relayPointSchema.safeParse({ ...RELAY, city: text }).error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["city", "Ce champ contient des caractères non autorisés."],
    ]);
  });

  it("accepts accents and typographic characters in a relay field", () => {
    expect(relayPointSchema.safeParse({ ...RELAY, name: "L’Épicerie « Chez Zoé » – n° 2", city: "Saint-Étienne" }).success).toBe(true);
  });

  it.each(["US", "CH", "GB", "fr", "", 33, null])("refuses the country %j", (country) => {
    expect(errorsOf({ methodId: 1, country })).toEqual({ country: "Choisissez un pays de livraison" });
  });

  it.each([0, -1, 1.5, "1", null, 2_147_483_648])("refuses the method id %j", (methodId) => {
    expect(errorsOf({ methodId, country: "FR" })).toEqual({ methodId: "Choisissez un mode de livraison." });
  });

  it.each([null, "x", []])("answers a delivery that is not an object in French: %j", (body) => {
    expect(errorsOf(body)).toEqual({ body: "Choisissez un mode de livraison." });
  });

  it("is optional in the checkout request, checked when given", () => {
    expect(checkoutRequestSchema.parse({ items: [{ productId: 3, quantity: 1 }] }).delivery).toBeUndefined();
    expect(checkoutRequestSchema.parse({ items: [{ productId: 3, quantity: 1 }], delivery: { methodId: 2, country: "FR", relayPoint: RELAY } }).delivery).toEqual({
      methodId: 2,
      country: "FR",
      relayPoint: RELAY,
    });
    const refused = checkoutRequestSchema.safeParse({ items: [{ productId: 3, quantity: 1 }], delivery: { methodId: 2, country: "FR", relayPoint: { ...RELAY, postalCode: "6900" } } });
    expect(fieldErrorsOf(refused.error!)).toEqual({ "delivery.relayPoint.postalCode": "Code postal invalide (5 chiffres)" });
  });
});

describe("order totals with delivery", () => {
  it("adds the delivery: total = subtotal + insurance − discount + delivery", () => {
    expect(computeOrderTotals([{ unitPriceCents: 720, quantity: 2 }, { unitPriceCents: 650, quantity: 3 }], true, 339, 490)).toEqual({
      subtotalCents: 3_390,
      insuranceCents: 1_000,
      discountCents: 339,
      shippingCents: 490,
      totalCents: 4_541,
    });
    expect(computeOrderTotals([{ unitPriceCents: 2_000, quantity: 1 }], false, 0, 690)).toEqual({ subtotalCents: 2_000, insuranceCents: 0, discountCents: 0, shippingCents: 690, totalCents: 2_690 });
  });

  it("takes the discount off the goods only, never off the delivery", () => {
    expect(computeOrderTotals([{ unitPriceCents: 1_000, quantity: 1 }], false, 5_000, 490)).toEqual({ subtotalCents: 1_000, insuranceCents: 0, discountCents: 1_000, shippingCents: 490, totalCents: 490 });
  });

  it("counts free delivery as nothing", () => {
    expect(computeOrderTotals([{ unitPriceCents: 12_000, quantity: 1 }], true, 0, 0)).toMatchObject({ shippingCents: 0, totalCents: 13_000 });
  });
});
