import { describe, expect, it } from "vitest";
import { compareAtDecision, compareAtRefusal, type PricePoint, referencePrice } from "./reference-price";

const DAY = 24 * 60 * 60 * 1000;
const cut = new Date("2026-11-20T10:00:00Z"); // when the reduced price took effect
const at = (daysBeforeCut: number) => new Date(cut.getTime() - daysBeforeCut * DAY);
const point = (priceCents: number, daysBeforeCut: number): PricePoint => ({ priceCents, effectiveFrom: at(daysBeforeCut) });

describe("referencePrice (L112-1-1: the lowest price of the 30 days before the reduction)", () => {
  it("is the price in force before the reduction when it did not move", () => {
    expect(referencePrice([point(2000, 90), point(1500, 0)])).toEqual({ referenceCents: 2000, currentSince: cut });
  });

  it("is the lowest of the prices in force during the 30 days, the one in force when they began included", () => {
    // 18 € from day 40 (in force at day 30), 16 € from day 20, 21 € from day 10, then 15 €.
    expect(referencePrice([point(2500, 60), point(1800, 40), point(1600, 20), point(2100, 10), point(1500, 0)])?.referenceCents).toBe(1600);
    // A price that ended before the 30 days does not count.
    expect(referencePrice([point(900, 60), point(2000, 31), point(1500, 0)])?.referenceCents).toBe(2000);
  });

  it("counts a price that started exactly 30 days before, not one replaced at the same instant", () => {
    expect(referencePrice([point(2000, 30), point(1500, 0)])?.referenceCents).toBe(2000);
    // 9 € set and replaced by 20 € in one transaction (same instant): never applied.
    expect(referencePrice([point(900, 45), point(2000, 45), point(1500, 0)])?.referenceCents).toBe(2000);
  });

  it("is unknown when the history does not cover the 30 days whole", () => {
    expect(referencePrice([])).toBeNull();
    expect(referencePrice([point(1500, 0)])).toBeNull(); // the current price only
    expect(referencePrice([point(2000, 29), point(1500, 0)])).toBeNull(); // on sale 29 days before
  });
});

describe("compareAtDecision", () => {
  const history = [point(2000, 90), point(1500, 0)];

  it("shows a former price above the price and at most the reference price", () => {
    expect(compareAtDecision({ priceCents: 1500, compareAtCents: 2000, history })).toEqual({ shown: true, compareAtCents: 2000, referenceCents: 2000 });
    expect(compareAtDecision({ priceCents: 1500, compareAtCents: 1800, history })).toMatchObject({ shown: true, compareAtCents: 1800 });
  });

  it("says why not otherwise", () => {
    expect(compareAtDecision({ priceCents: 1500, compareAtCents: null, history })).toEqual({ shown: false, reason: "no-compare-at" });
    expect(compareAtDecision({ priceCents: 1500, compareAtCents: 1500, history })).toMatchObject({ shown: false, reason: "not-a-reduction" });
    expect(compareAtDecision({ priceCents: 1500, compareAtCents: 1200, history })).toMatchObject({ shown: false, reason: "not-a-reduction" });
    expect(compareAtDecision({ priceCents: 1500, compareAtCents: 2500, history })).toEqual({ shown: false, reason: "above-reference", compareAtCents: 2500, referenceCents: 2000 });
    // A price raised to 25 € for the last 10 days before the reduction does not lift the reference.
    expect(compareAtDecision({ priceCents: 1500, compareAtCents: 2500, history: [point(2000, 90), point(2500, 10), point(1500, 0)] })).toMatchObject({
      reason: "above-reference",
      referenceCents: 2000,
    });
    expect(compareAtDecision({ priceCents: 1500, compareAtCents: 2000, history: [point(2000, 12), point(1500, 0)] })).toEqual({
      shown: false,
      reason: "no-history",
      compareAtCents: 2000,
      currentSince: cut,
      firstKnown: at(12),
    });
  });

  it("trusts no history that does not end on the price shown", () => {
    expect(compareAtDecision({ priceCents: 1400, compareAtCents: 2000, history })).toMatchObject({ reason: "no-history", currentSince: null });
    expect(compareAtDecision({ priceCents: 1400, compareAtCents: 2000, history: [] })).toMatchObject({ reason: "no-history", currentSince: null });
  });

  it("reads the history in any order, equal instants in the order given", () => {
    expect(compareAtDecision({ priceCents: 1500, compareAtCents: 2000, history: [point(1500, 0), point(2000, 90)] })).toMatchObject({ shown: true });
  });
});

describe("compareAtRefusal", () => {
  it("tells the seller why the former price is not shown, in French", () => {
    const refusal = (compareAtCents: number | null, list: PricePoint[], priceCents = 1500) => compareAtRefusal(compareAtDecision({ priceCents, compareAtCents, history: list }));
    expect(refusal(null, [])).toBeNull();
    expect(refusal(2000, [point(2000, 90), point(1500, 0)])).toBeNull();
    expect(refusal(1500, [])).toBe("ce n'est pas une réduction (15,00\u00a0€ n'est pas au-dessus du prix de 15,00\u00a0€).");
    expect(refusal(2500, [point(2000, 90), point(1500, 0)])).toBe(
      "25,00\u00a0€ dépasse le prix le plus bas des 30 jours précédant la baisse (20,00\u00a0€), qui est le prix de référence (article L112-1-1 du Code de la consommation).",
    );
    expect(refusal(2000, [point(2000, 12), point(1500, 0)])).toBe(
      "l'historique des prix ne couvre pas les 30 jours précédant le prix actuel (premier prix connu le 8 novembre 2026, prix actuel depuis le 20 novembre 2026).",
    );
    expect(refusal(2000, [point(1500, 0)])).toBe(
      "le prix actuel est le premier connu (depuis le 20 novembre 2026) ; une baisse ne peut s'annoncer qu'avec 30 jours d'historique de prix avant elle.",
    );
    expect(refusal(2000, [])).toBe("aucun historique de prix sur les 30 jours précédant ce prix.");
  });
});
