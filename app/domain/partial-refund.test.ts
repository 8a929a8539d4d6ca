import { describe, expect, it } from "vitest";
import type { VatBreakdownRow } from "./invoice";
import {
  type ChargeBucketPart,
  type ComputedRefund,
  type PriorRefund,
  type RefundRequest,
  type RefundableLine,
  type RefundableOrder,
  type VatBucket,
  computeRefund,
  refundableRest,
  restOfRates,
  wholeRestRefund,
  wholeRestRequest,
} from "./partial-refund";
import { VAT_RATES_BP, type VatRateBp, type VatScheme } from "./vat";
import { allocateVat, chargesByRate, exclVatOf, splitProRata, vatByRate } from "./vat-allocation";
import { seeded } from "../../tests/support/seeded-random";

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
/** "2,90 €" as formatEuros writes it: a no-break space before the symbol. */
const euros = (text: string) => `${text}\u00a0€`;

type Article = { id: string; name: string; quantity: number; unitPriceCents: number; rateBp: VatRateBp; margin?: boolean };

/**
 * An order as the checkout places it (allocateVat: the discount shared, the charges following the
 * goods' rates) and as services/partial-refunds.server.ts hands it to computeRefund: each line's
 * net, its bucket, the charges' parts by rate (chargesByRate), the breakdown and the margin goods.
 */
function placed(articles: Article[], discountCents: number, shippingCents: number, insuranceCents = 0): RefundableOrder {
  const vat = allocateVat(
    articles.map((article) => ({ totalCents: article.unitPriceCents * article.quantity, vatRateBp: article.rateBp, vatScheme: (article.margin ? "margin" : "normal") as VatScheme })),
    discountCents,
    shippingCents + insuranceCents,
    false,
  );
  const [shipping, insurance] = chargesByRate([shippingCents, insuranceCents], vat.chargesVat);
  const lines = articles.map((article, i): RefundableLine => ({
    orderItemId: article.id,
    name: article.name,
    quantity: article.quantity,
    unitPriceCents: article.unitPriceCents,
    netCents: vat.lines[i]!.netCents,
    bucket: article.margin ? "margin" : article.rateBp,
    vatScheme: (article.margin ? "margin" : "normal") as VatScheme,
  }));
  return {
    totalCents: sum(lines.map((line) => line.netCents)) + shippingCents + insuranceCents,
    lines,
    shipping: shipping!.map((part) => ({ bucket: part.rateBp, totalCents: part.totalCents })),
    insurance: insurance!.map((part) => ({ bucket: part.rateBp, totalCents: part.totalCents })),
    vatBreakdown: vat.breakdown,
    marginSchemeCents: vat.marginSchemeCents,
  };
}

/** What a refund leaves for the next ones to see (services/partial-refunds.server.ts stores these fields). */
const asPrior = (refund: ComputedRefund): PriorRefund => ({
  amountCents: refund.amountCents,
  lines: refund.lines.map((line) => ({ orderItemId: line.orderItemId, quantity: line.quantity })),
  shippingCents: refund.shippingCents,
  insuranceCents: refund.insuranceCents,
  vatBreakdown: refund.vatBreakdown,
  marginSchemeCents: refund.marginSchemeCents,
  parts: { shipping: refund.shippingParts, insurance: refund.insuranceParts, adjustment: refund.adjustment?.parts ?? [] },
});

const request = (overrides: Partial<RefundRequest> = {}): RefundRequest => ({ lines: [], shippingCents: 0, insuranceCents: 0, adjustment: null, ...overrides });
const units = (orderItemId: string, quantity: number, restock = true) => ({ orderItemId, quantity, restock });

function refunded(order: RefundableOrder, prior: readonly PriorRefund[], wanted: RefundRequest): ComputedRefund {
  const result = computeRefund(order, prior, wanted);
  if (!result.ok) throw new Error(`refused: ${result.error}`);
  return result.refund;
}

function refusal(order: RefundableOrder, prior: readonly PriorRefund[], wanted: RefundRequest): string {
  const result = computeRefund(order, prior, wanted);
  if (result.ok) throw new Error(`accepted: ${JSON.stringify(result.refund)}`);
  return result.error;
}

/** base + VAT = TTC on each row, the base that of the row's TTC (the VAT of each rate's total). */
function expectRowsOfTheirTotals(rows: readonly VatBreakdownRow[]) {
  for (const row of rows) {
    expect(row.baseCents + row.vatCents, `rate ${row.rateBp}`).toBe(row.totalCents);
    expect(row.baseCents, `rate ${row.rateBp}`).toBe(exclVatOf(row.totalCents, row.rateBp));
  }
}

/** A refund's amounts by bucket: its articles, its charges' parts, its adjustment's parts. */
function bucketsOf(refund: ComputedRefund): Map<VatBucket, number> {
  const totals = new Map<VatBucket, number>();
  const add = (bucket: VatBucket, cents: number) => totals.set(bucket, (totals.get(bucket) ?? 0) + cents);
  refund.lines.forEach((line) => add(line.rateBp ?? (line.vatScheme === "margin" ? "margin" : "none"), line.totalCents));
  for (const part of [...refund.shippingParts, ...refund.insuranceParts, ...(refund.adjustment?.parts ?? [])]) add(part.bucket, part.totalCents);
  return totals;
}

/**
 * Three boosters at 20 % (3 × 4,00 €) and a display at 5,5 % (100,00 €), 18,67 € off (2,00 € of
 * it the boosters': their net is 10,00 €, which 3 does not divide; 16,67 € the display's: 83,33 €),
 * delivery 4,90 € (0,53 € at 20 %, 4,37 € at 5,5 %, following the goods): 98,23 € paid.
 */
const BOOSTERS = { id: "item-boosters", name: "Booster Écarlate et Violet", quantity: 3, unitPriceCents: 400, rateBp: 2000 } as const;
const DISPLAY = { id: "item-display", name: "Display Flammes Obsidiennes", quantity: 1, unitPriceCents: 10_000, rateBp: 550 } as const;
const ORDER = placed([BOOSTERS, DISPLAY], 1867, 490);

describe("the order of these examples", () => {
  it("is what the checkout stores", () => {
    expect(ORDER.lines.map((line) => [line.netCents, line.bucket])).toEqual([
      [1000, 2000],
      [8333, 550],
    ]);
    expect(ORDER.shipping).toEqual([
      { bucket: 2000, totalCents: 53 },
      { bucket: 550, totalCents: 437 },
    ]);
    expect(ORDER.insurance).toEqual([]);
    expect(ORDER.vatBreakdown).toEqual([
      { rateBp: 2000, baseCents: 878, vatCents: 175, totalCents: 1053 },
      { rateBp: 550, baseCents: 8313, vatCents: 457, totalCents: 8770 },
    ]);
    expect(ORDER.totalCents).toBe(9823);
  });
});

describe("computeRefund: articles", () => {
  it("prices one booster of three at a third of the line's net, its VAT that of its rate's total", () => {
    const one = refunded(ORDER, [], request({ lines: [units(BOOSTERS.id, 1)] }));
    expect(one.amountCents).toBe(333); // 10,00 € / 3, rounded
    expect(one.lines).toEqual([
      { orderItemId: BOOSTERS.id, name: BOOSTERS.name, quantity: 1, unitPriceCents: 400, totalCents: 333, rateBp: 2000, vatScheme: "normal", restock: true },
    ]);
    // 3,33 € / 1,2 = 2,775 €: 2,78 € of base (a half cent up), 0,55 € of VAT.
    expect(one.vatBreakdown).toEqual([{ rateBp: 2000, baseCents: 278, vatCents: 55, totalCents: 333 }]);
    expect(one.marginSchemeCents).toBe(0);
    expect(one.closesOrder).toBe(false);
    expect([one.shippingCents, one.insuranceCents, one.shippingParts, one.insuranceParts, one.adjustment]).toEqual([0, 0, [], [], null]);
  });

  it("gives the other two boosters what is left of the line: the two refunds sum to its net exactly", () => {
    const first = refunded(ORDER, [], request({ lines: [units(BOOSTERS.id, 1)] }));
    const second = refunded(ORDER, [asPrior(first)], request({ lines: [units(BOOSTERS.id, 2, false)] }));
    expect(second.amountCents).toBe(667);
    expect(second.lines[0]).toMatchObject({ quantity: 2, totalCents: 667, restock: false });
    expect(second.vatBreakdown).toEqual([{ rateBp: 2000, baseCents: 556, vatCents: 111, totalCents: 667 }]);
    expect(first.amountCents + second.amountCents).toBe(1000);
  });

  it("gives three refunds of one booster 3,33 €, 3,34 €, 3,33 €: their cumulative shares, rounded", () => {
    const prior: PriorRefund[] = [];
    const amounts: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const refund = refunded(ORDER, prior, request({ lines: [units(BOOSTERS.id, 1)] }));
      amounts.push(refund.amountCents);
      prior.push(asPrior(refund));
    }
    expect(amounts).toEqual([333, 334, 333]);
    expect(sum(amounts)).toBe(1000);
  });

  it("prices two boosters refunded first as two thirds, and the last one as the rest", () => {
    const two = refunded(ORDER, [], request({ lines: [units(BOOSTERS.id, 2)] }));
    const last = refunded(ORDER, [asPrior(two)], request({ lines: [units(BOOSTERS.id, 1)] }));
    expect([two.amountCents, last.amountCents]).toEqual([667, 333]);
  });

  it("refunds articles of two rates with a row for each, highest rate first", () => {
    const refund = refunded(ORDER, [], request({ lines: [units(DISPLAY.id, 1), units(BOOSTERS.id, 1)] }));
    expect(refund.amountCents).toBe(8333 + 333);
    // 83,33 € / 1,055 = 78,9857 €.
    expect(refund.vatBreakdown).toEqual([
      { rateBp: 2000, baseCents: 278, vatCents: 55, totalCents: 333 },
      { rateBp: 550, baseCents: 7899, vatCents: 434, totalCents: 8333 },
    ]);
    expect(refund.lines.map((line) => line.orderItemId)).toEqual([DISPLAY.id, BOOSTERS.id]);
  });

  it("skips a line asked with no unit", () => {
    const refund = refunded(ORDER, [], request({ lines: [units(DISPLAY.id, 0), units(BOOSTERS.id, 1)] }));
    expect(refund.lines.map((line) => line.orderItemId)).toEqual([BOOSTERS.id]);
  });

  it("closes the order with the refund that takes all that is left, at the rates left", () => {
    const first = refunded(ORDER, [], request({ lines: [units(BOOSTERS.id, 1)] }));
    const rest = refunded(ORDER, [asPrior(first)], request({ lines: [units(BOOSTERS.id, 2), units(DISPLAY.id, 1)], shippingCents: 490 }));
    expect(rest.closesOrder).toBe(true);
    expect(rest.amountCents).toBe(9823 - 333);
    expect(rest.vatBreakdown).toEqual([
      { rateBp: 2000, baseCents: 878 - 278, vatCents: 175 - 55, totalCents: 1053 - 333 },
      { rateBp: 550, baseCents: 8313, vatCents: 457, totalCents: 8770 },
    ]);
    expect(rest.vatBreakdown).toEqual(restOfRates(ORDER, [asPrior(first)]).vatBreakdown);
  });
});

describe("computeRefund: refusals", () => {
  const afterOne = [asPrior(refunded(ORDER, [], request({ lines: [units(BOOSTERS.id, 1)] })))];
  const afterAll = [asPrior(refunded(ORDER, [], request({ lines: [units(BOOSTERS.id, 3)] })))];

  it("refuses more units than are left, saying how many are", () => {
    expect(refusal(ORDER, [], request({ lines: [units(BOOSTERS.id, 4)] }))).toBe(`Quantité trop élevée pour « ${BOOSTERS.name} » : 3 au plus restent à rembourser.`);
    expect(refusal(ORDER, afterOne, request({ lines: [units(BOOSTERS.id, 3)] }))).toBe(`Quantité trop élevée pour « ${BOOSTERS.name} » : 2 au plus restent à rembourser.`);
    expect(refusal(ORDER, [], request({ lines: [units(DISPLAY.id, 2)] }))).toBe(`Quantité trop élevée pour « ${DISPLAY.name} » : 1 au plus reste à rembourser.`);
  });

  it("refuses a line already refunded", () => {
    expect(refusal(ORDER, afterAll, request({ lines: [units(BOOSTERS.id, 1)] }))).toBe(`« ${BOOSTERS.name} » a déjà été remboursé.`);
  });

  it("refuses a line of another order, or the same line twice", () => {
    const message = "Un des articles choisis n'appartient pas à cette commande.";
    expect(refusal(ORDER, [], request({ lines: [units("item-elsewhere", 1)] }))).toBe(message);
    expect(refusal(ORDER, [], request({ lines: [units(BOOSTERS.id, 1), units(BOOSTERS.id, 1)] }))).toBe(message);
  });

  it("refuses a quantity that is not a whole number of units", () => {
    expect(refusal(ORDER, [], request({ lines: [units(BOOSTERS.id, 1.5)] }))).toBe(`Quantité invalide pour « ${BOOSTERS.name} ».`);
    expect(refusal(ORDER, [], request({ lines: [units(BOOSTERS.id, -1)] }))).toBe(`Quantité invalide pour « ${BOOSTERS.name} ».`);
  });

  it("refuses more of the delivery than is left, saying how much is", () => {
    expect(refusal(ORDER, [], request({ shippingCents: 491 }))).toBe(`La livraison : ${euros("4,90")} au plus reste à rembourser.`);
    const part = [asPrior(refunded(ORDER, [], request({ shippingCents: 200 })))];
    expect(refusal(ORDER, part, request({ shippingCents: 300 }))).toBe(`La livraison : ${euros("2,90")} au plus reste à rembourser.`);
    expect(refusal(ORDER, [], request({ shippingCents: -1 }))).toBe("La livraison : montant invalide.");
    expect(refusal(ORDER, [], request({ insuranceCents: 1 }))).toBe(`La remise contre signature : ${euros("0,00")} au plus reste à rembourser.`);
  });

  it("refuses a refund of nothing", () => {
    const message = "Choisissez au moins un article, la livraison ou un montant à rembourser.";
    expect(refusal(ORDER, [], request())).toBe(message);
    expect(refusal(ORDER, [], request({ lines: [units(BOOSTERS.id, 0)] }))).toBe(message);
    expect(refusal(ORDER, [], request({ adjustment: { kind: "goodwill", cents: 0, reason: "Rien" } }))).toBe(message);
  });

  it("refuses a goodwill amount above what is left to refund", () => {
    expect(refusal(ORDER, [], request({ adjustment: { kind: "goodwill", cents: 9824, reason: "Retard" } }))).toBe(`Le remboursement dépasse ce qui reste à rembourser (${euros("98,23")}).`);
    expect(refusal(ORDER, afterOne, request({ adjustment: { kind: "goodwill", cents: 9823 - 333 + 1, reason: "Retard" } }))).toBe(
      `Le remboursement dépasse ce qui reste à rembourser (${euros("94,90")}).`,
    );
    // With articles: what is left once they are taken.
    expect(refusal(ORDER, [], request({ lines: [units(DISPLAY.id, 1)], adjustment: { kind: "goodwill", cents: 9823 - 8333 + 1, reason: "Retard" } }))).toBe(
      `Le remboursement dépasse ce qui reste à rembourser (${euros("98,23")}).`,
    );
    expect(refunded(ORDER, [], request({ lines: [units(DISPLAY.id, 1)], adjustment: { kind: "goodwill", cents: 9823 - 8333, reason: "Retard" } })).closesOrder).toBe(true);
  });

  it("refuses articles worth more than what a goodwill gesture left", () => {
    const gesture = [asPrior(refunded(ORDER, [], request({ adjustment: { kind: "goodwill", cents: 9000, reason: "Colis abîmé" } })))];
    expect(refusal(ORDER, gesture, request({ lines: [units(DISPLAY.id, 1)] }))).toBe(`Le remboursement dépasse ce qui reste à rembourser (${euros("8,23")}).`);
  });

  it("refuses a deduction as large as the articles' price, or larger", () => {
    const deduction = (cents: number) => request({ lines: [units(BOOSTERS.id, 1)], adjustment: { kind: "depreciation", cents, reason: "Cartes pliées" } });
    expect(refusal(ORDER, [], deduction(333))).toBe(`La déduction doit rester inférieure au prix des articles retournés (${euros("3,33")}).`);
    expect(refusal(ORDER, [], deduction(400))).toBe(`La déduction doit rester inférieure au prix des articles retournés (${euros("3,33")}).`);
    expect(refunded(ORDER, [], deduction(332)).amountCents).toBe(1);
  });

  it("refuses a deduction with no article returned, even beside the delivery", () => {
    const message = "Une déduction pour dépréciation porte sur des articles retournés : choisissez-les.";
    expect(refusal(ORDER, [], request({ adjustment: { kind: "depreciation", cents: 100, reason: "Rayures" } }))).toBe(message);
    expect(refusal(ORDER, [], request({ shippingCents: 490, adjustment: { kind: "depreciation", cents: 100, reason: "Rayures" } }))).toBe(message);
  });

  it("refuses an adjustment without its reason", () => {
    expect(refusal(ORDER, [], request({ adjustment: { kind: "goodwill", cents: 100, reason: "  " } }))).toBe("Indiquez le motif du geste commercial.");
    expect(refusal(ORDER, [], request({ lines: [units(BOOSTERS.id, 1)], adjustment: { kind: "depreciation", cents: 100, reason: "" } }))).toBe(
      "Indiquez le motif de la déduction (l'état de l'article retourné).",
    );
  });

  it("refuses a negative or fractional adjustment", () => {
    expect(refusal(ORDER, [], request({ adjustment: { kind: "goodwill", cents: -100, reason: "Retard" } }))).toBe("Le montant doit être positif.");
    expect(refusal(ORDER, [], request({ adjustment: { kind: "goodwill", cents: 10.5, reason: "Retard" } }))).toBe("Le montant doit être positif.");
  });

  it("refuses anything once the order is wholly refunded", () => {
    const whole = wholeRestRefund(ORDER, [])!;
    const prior = [asPrior(whole)];
    expect(refusal(ORDER, prior, request({ lines: [units(DISPLAY.id, 1)] }))).toBe(`« ${DISPLAY.name} » a déjà été remboursé.`);
    expect(refusal(ORDER, prior, request({ shippingCents: 1 }))).toBe(`La livraison : ${euros("0,00")} au plus reste à rembourser.`);
    expect(refusal(ORDER, prior, request({ adjustment: { kind: "goodwill", cents: 1, reason: "Retard" } }))).toBe(`Le remboursement dépasse ce qui reste à rembourser (${euros("0,00")}).`);
    expect(wholeRestRefund(ORDER, prior)).toBeNull();
  });
});

describe("computeRefund: the delivery", () => {
  it("gives part of the delivery over its parts by rate, then the rest: each refund's parts sum to what it asked", () => {
    const part = refunded(ORDER, [], request({ shippingCents: 200 }));
    expect(part.amountCents).toBe(200);
    expect(part.shippingCents).toBe(200);
    // 2,00 € over 0,53 € / 4,37 €: 0,2163 / 1,7837, the larger remainder to 20 %.
    expect(part.shippingParts).toEqual([
      { bucket: 2000, totalCents: 22 },
      { bucket: 550, totalCents: 178 },
    ]);
    expect(part.vatBreakdown).toEqual(vatByRate([{ rateBp: 2000, totalCents: 22 }, { rateBp: 550, totalCents: 178 }]).rows);
    expect(refundableRest(ORDER, [asPrior(part)]).shippingCents).toBe(290);

    const rest = refunded(ORDER, [asPrior(part)], request({ shippingCents: 290 }));
    expect(rest.shippingParts).toEqual([
      { bucket: 2000, totalCents: 31 },
      { bucket: 550, totalCents: 259 },
    ]);
    expect(sum(rest.shippingParts.map((p) => p.totalCents))).toBe(290);
    expect(rest.closesOrder).toBe(false);
    // The two refunds give the delivery's parts back exactly.
    for (const [i, orderPart] of ORDER.shipping.entries()) expect(part.shippingParts[i]!.totalCents + rest.shippingParts[i]!.totalCents).toBe(orderPart.totalCents);
    expectRowsOfTheirTotals(part.vatBreakdown);
    expectRowsOfTheirTotals(rest.vatBreakdown);
  });

  it("gives any amount of the delivery, in any steps, parts that sum to each step and, together, to the delivery's parts", () => {
    // Three rates: the charges split 3 ways.
    const order = placed(
      [
        { id: "a", name: "Booster", quantity: 2, unitPriceCents: 650, rateBp: 2000 },
        { id: "b", name: "Manga", quantity: 3, unitPriceCents: 720, rateBp: 550 },
        { id: "c", name: "Billet", quantity: 1, unitPriceCents: 1500, rateBp: 1000 },
      ],
      0,
      1290,
      350,
    );
    for (const steps of [
      [1, 1, 1288],
      [645, 645],
      [100, 200, 300, 400, 290],
      [1289, 1],
      [7, 13, 1000, 270],
    ]) {
      const prior: PriorRefund[] = [];
      const given = new Map<VatBucket, number>();
      for (const cents of steps) {
        const refund = refunded(order, prior, request({ shippingCents: cents }));
        expect(sum(refund.shippingParts.map((p) => p.totalCents)), `${steps}`).toBe(cents);
        expect(refund.amountCents, `${steps}`).toBe(cents);
        for (const p of refund.shippingParts) given.set(p.bucket, (given.get(p.bucket) ?? 0) + p.totalCents);
        prior.push(asPrior(refund));
      }
      expect(Object.fromEntries(given), `${steps}`).toEqual(Object.fromEntries(order.shipping.map((p) => [p.bucket, p.totalCents])));
    }
  });

  it("gives the insurance back like the delivery, over its own parts", () => {
    const order = placed([BOOSTERS, DISPLAY], 1867, 490, 1000);
    const insurance = refunded(order, [], request({ insuranceCents: 1000 }));
    expect(insurance.insuranceParts).toEqual(order.insurance);
    expect(insurance.shippingParts).toEqual([]);
    expect(refusal(order, [asPrior(insurance)], request({ insuranceCents: 1 }))).toBe(`La remise contre signature : ${euros("0,00")} au plus reste à rembourser.`);
  });

  it("never gives a negative part of the delivery at a rate, nor more than is left of a part", () => {
    // Delivery 14,00 € over three rates in proportion 3 : 3 : 1 (6,00 € / 6,00 € / 2,00 €).
    const order = placed(
      [
        { id: "a", name: "Jeu de société", quantity: 1, unitPriceCents: 3000, rateBp: 2000 },
        { id: "b", name: "Billet d'exposition", quantity: 1, unitPriceCents: 3000, rateBp: 1000 },
        { id: "c", name: "Manga", quantity: 1, unitPriceCents: 1000, rateBp: 550 },
      ],
      0,
      1400,
    );
    expect(order.shipping.map((p) => p.totalCents)).toEqual([600, 600, 200]);
    for (const [first, second] of [
      [10, 1],
      [100, 10],
      [500, 100],
      [1000, 100],
    ] as const) {
      const one = refunded(order, [], request({ shippingCents: first }));
      const two = refunded(order, [asPrior(one)], request({ shippingCents: second }));
      for (const [k, refund] of [one, two].entries()) {
        for (const p of refund.shippingParts) expect(p.totalCents, `${first} then ${second}: refund ${k + 1}, ${p.bucket}`).toBeGreaterThanOrEqual(0);
      }
      for (const orderPart of order.shipping) {
        const given = sum([one, two].flatMap((refund) => refund.shippingParts.filter((p) => p.bucket === orderPart.bucket).map((p) => p.totalCents)));
        expect(given, `${first} then ${second}: ${orderPart.bucket}`).toBeLessThanOrEqual(orderPart.totalCents);
      }
    }
  });
});

describe("computeRefund: goodwill and depreciation", () => {
  it("spreads a goodwill amount over what is left at each rate", () => {
    const refund = refunded(ORDER, [], request({ adjustment: { kind: "goodwill", cents: 500, reason: " Retard de livraison " } }));
    expect(refund.amountCents).toBe(500);
    expect(refund.adjustment).toEqual({
      kind: "goodwill",
      cents: 500,
      reason: "Retard de livraison",
      // 5,00 € over 10,53 € / 87,70 €: 0,536 / 4,464.
      parts: [
        { bucket: 2000, totalCents: 54 },
        { bucket: 550, totalCents: 446 },
      ],
    });
    expect(refund.vatBreakdown).toEqual(vatByRate([{ rateBp: 2000, totalCents: 54 }, { rateBp: 550, totalCents: 446 }]).rows);
    expectRowsOfTheirTotals(refund.vatBreakdown);
  });

  it("spreads a goodwill amount beside articles over what they leave at each rate, never more than that", () => {
    // The display taken, 5,5 % holds only the delivery's 4,37 €.
    const refund = refunded(ORDER, [], request({ lines: [units(DISPLAY.id, 1)], adjustment: { kind: "goodwill", cents: 1000, reason: "Geste" } }));
    const parts = Object.fromEntries(refund.adjustment!.parts.map((p) => [p.bucket, p.totalCents]));
    expect(parts[550]).toBeLessThanOrEqual(437);
    expect(parts[2000]).toBeLessThanOrEqual(1053);
    expect(sum(refund.adjustment!.parts.map((p) => p.totalCents))).toBe(1000);
    expect(refund.amountCents).toBe(8333 + 1000);
    expectRowsOfTheirTotals(refund.vatBreakdown);
  });

  it("spreads goodwill after earlier refunds over what they left, never above it per rate", () => {
    const prior: PriorRefund[] = [asPrior(refunded(ORDER, [], request({ lines: [units(BOOSTERS.id, 3)], shippingCents: 100 })))];
    const left = restOfRates(ORDER, prior);
    const refund = refunded(ORDER, prior, request({ adjustment: { kind: "goodwill", cents: 2000, reason: "Geste" } }));
    for (const p of refund.adjustment!.parts) {
      const row = left.vatBreakdown.find((r) => r.rateBp === p.bucket);
      expect(p.totalCents, `${p.bucket}`).toBeLessThanOrEqual(row?.totalCents ?? 0);
      expect(p.totalCents, `${p.bucket}`).toBeGreaterThan(0);
    }
  });

  it("takes a deduction from the articles returned, in proportion to them, and lowers the amount by it", () => {
    const refund = refunded(ORDER, [], request({ lines: [units(BOOSTERS.id, 2), units(DISPLAY.id, 1)], adjustment: { kind: "depreciation", cents: 900, reason: "Display ouvert" } }));
    expect(refund.lines.map((line) => line.totalCents)).toEqual([667, 8333]);
    expect(refund.amountCents).toBe(667 + 8333 - 900);
    // 9,00 € over 6,67 € / 83,33 €: 0,667 / 8,333, the larger remainder to 20 %.
    expect(refund.adjustment).toEqual({
      kind: "depreciation",
      cents: -900,
      reason: "Display ouvert",
      parts: [
        { bucket: 2000, totalCents: -67 },
        { bucket: 550, totalCents: -833 },
      ],
    });
    // Each rate's VAT: that of its articles less its part of the deduction.
    expect(refund.vatBreakdown).toEqual([
      { rateBp: 2000, baseCents: 500, vatCents: 100, totalCents: 600 },
      { rateBp: 550, baseCents: 7109, vatCents: 391, totalCents: 7500 },
    ]);
    expectRowsOfTheirTotals(refund.vatBreakdown);
    expect(sum(refund.vatBreakdown.map((row) => row.totalCents))).toBe(refund.amountCents);
    expect(refund.closesOrder).toBe(false);
  });

  it("gives back what a deduction kept with the refund of the rest, at the rates it was kept from", () => {
    const deducted = refunded(ORDER, [], request({ lines: [units(BOOSTERS.id, 3)], adjustment: { kind: "depreciation", cents: 200, reason: "Cartes pliées" } }));
    expect(deducted.vatBreakdown).toEqual([{ rateBp: 2000, baseCents: 667, vatCents: 133, totalCents: 800 }]);
    const prior = [asPrior(deducted)];
    const whole = wholeRestRefund(ORDER, prior)!;
    expect(whole.amountCents).toBe(9823 - 800);
    expect(whole.closesOrder).toBe(true);
    expect(whole.adjustment).toMatchObject({ kind: "goodwill", cents: 200, reason: "Solde de la commande" });
    expect(whole.lines.map((line) => [line.orderItemId, line.quantity])).toEqual([[DISPLAY.id, 1]]);
    expect(whole.vatBreakdown).toEqual([
      { rateBp: 2000, baseCents: 878 - 667, vatCents: 175 - 133, totalCents: 1053 - 800 },
      { rateBp: 550, baseCents: 8313, vatCents: 457, totalCents: 8770 },
    ]);
  });

  it("keeps base + VAT = TTC on every row of refunds with a deduction on margin-scheme goods beside taxed ones", () => {
    const order = placed(
      [
        { id: "used", name: "Carte d'occasion", quantity: 2, unitPriceCents: 2500, rateBp: 2000, margin: true },
        { id: "new", name: "Booster", quantity: 4, unitPriceCents: 650, rateBp: 2000 },
      ],
      500,
      590,
    );
    const refund = refunded(order, [], request({ lines: [units("used", 1), units("new", 3)], adjustment: { kind: "depreciation", cents: 1234, reason: "Abîmés" } }));
    const margin = refund.adjustment!.parts.find((p) => p.bucket === "margin")!.totalCents;
    expect(refund.marginSchemeCents).toBe(refund.lines[0]!.totalCents + margin);
    expectRowsOfTheirTotals(refund.vatBreakdown);
    expect(sum(refund.vatBreakdown.map((row) => row.totalCents)) + refund.marginSchemeCents).toBe(refund.amountCents);
  });
});

describe("the credit notes of an order add up to its invoice, rate by rate", () => {
  it("gives back a rate's base and VAT exactly when its articles went back one by one before the refund that closes the order", () => {
    // Two boosters at 10,04 € (20 %) and a manga at 7,20 € (5,5 %): at 20 %, 20,08 € hold 16,73 € of
    // base; each booster alone, 10,04 €, holds 8,37 € (8,3667 rounded up), the two 16,74 €.
    const order = placed(
      [
        { id: "boosters", name: "Booster", quantity: 2, unitPriceCents: 1004, rateBp: 2000 },
        { id: "manga", name: "Manga", quantity: 1, unitPriceCents: 720, rateBp: 550 },
      ],
      0,
      0,
    );
    expect(order.vatBreakdown).toEqual([
      { rateBp: 2000, baseCents: 1673, vatCents: 335, totalCents: 2008 },
      { rateBp: 550, baseCents: 682, vatCents: 38, totalCents: 720 },
    ]);
    const prior: PriorRefund[] = [];
    for (let i = 0; i < 2; i += 1) prior.push(asPrior(refunded(order, prior, request({ lines: [units("boosters", 1)] }))));
    expect(prior.map((refund) => refund.vatBreakdown)).toEqual([
      [{ rateBp: 2000, baseCents: 837, vatCents: 167, totalCents: 1004 }],
      [{ rateBp: 2000, baseCents: 837, vatCents: 167, totalCents: 1004 }],
    ]);
    const last = refunded(order, prior, request({ lines: [units("manga", 1)] }));
    expect(last.closesOrder).toBe(true);
    const all = [...prior.map((refund) => refund.vatBreakdown), last.vatBreakdown].flat();
    const at20 = all.filter((row) => row.rateBp === 2000);
    // The refunds' bases at 20 % must sum to the invoice's 16,73 € (they gave 16,74 €: the closing
    // refund's row of 0,00 € TTC, −0,01 € of base and +0,01 € of VAT, was dropped).
    expect({ baseCents: sum(at20.map((row) => row.baseCents)), vatCents: sum(at20.map((row) => row.vatCents)), totalCents: sum(at20.map((row) => row.totalCents)) }).toEqual({
      baseCents: 1673,
      vatCents: 335,
      totalCents: 2008,
    });
  });

  it("never gives back more at a rate than its invoice holds, a goodwill gesture given before the articles came back", () => {
    // A game at 10,00 € (20 %) and a display at 30,00 € (5,5 %); a gesture of 20,00 € takes 5,00 €
    // of the 20 %, 15,00 € of the 5,5 %; then the game comes back: 10,00 € at 20 %, where 5,00 € are left.
    const order = placed(
      [
        { id: "game", name: "Jeu", quantity: 1, unitPriceCents: 1000, rateBp: 2000 },
        { id: "display", name: "Display", quantity: 1, unitPriceCents: 3000, rateBp: 550 },
      ],
      0,
      0,
    );
    const gesture = refunded(order, [], request({ adjustment: { kind: "goodwill", cents: 2000, reason: "Retard" } }));
    expect(gesture.vatBreakdown.map((row) => [row.rateBp, row.totalCents])).toEqual([
      [2000, 500],
      [550, 1500],
    ]);
    const prior = [asPrior(gesture)];
    // Refused as asked, with what to do instead.
    const game = computeRefund(order, prior, request({ lines: [units("game", 1)] }));
    expect(game).toEqual({
      ok: false,
      error: `Ce remboursement rendrait ${euros("10,00")} au taux de 20\u00a0%, où ${euros("5,00")} seulement restent (un geste commercial déjà accordé en a pris une part) : retenez la différence par une déduction.`,
    });
    // With the difference kept as a deduction, accepted, and the 20 % never exceeds the invoice's 10,00 €.
    const kept = computeRefund(order, prior, request({ lines: [units("game", 1)], adjustment: { kind: "depreciation", cents: 500, reason: "Geste déjà accordé" } }));
    expect(kept.ok).toBe(true);
    if (!kept.ok) return;
    const givenAt20 = (refunds: readonly { vatBreakdown: readonly VatBreakdownRow[] }[]) => sum(refunds.flatMap((refund) => refund.vatBreakdown.filter((row) => row.rateBp === 2000).map((row) => row.totalCents)));
    expect(givenAt20([gesture, kept.refund])).toBe(1000);
    const rest = wholeRestRefund(order, [...prior, asPrior(kept.refund)])!;
    for (const row of rest.vatBreakdown) expect(row.totalCents, `rate ${row.rateBp}`).toBeGreaterThanOrEqual(0);
    expect(givenAt20([gesture, kept.refund, rest])).toBe(1000);
  });
});

describe("refundableRest, wholeRestRequest, wholeRestRefund", () => {
  it("says what is left by article, charge and in all", () => {
    const prior = [asPrior(refunded(ORDER, [], request({ lines: [units(BOOSTERS.id, 2)], shippingCents: 100 })))];
    const rest = refundableRest(ORDER, prior);
    expect(Object.fromEntries(rest.units)).toEqual({ [BOOSTERS.id]: 1, [DISPLAY.id]: 1 });
    expect(rest.shippingCents).toBe(390);
    expect(rest.insuranceCents).toBe(0);
    expect(rest.totalCents).toBe(9823 - 667 - 100);
    expect(wholeRestRequest(ORDER, prior, true)).toEqual({
      lines: [units(BOOSTERS.id, 1, true), units(DISPLAY.id, 1, true)],
      shippingCents: 390,
      insuranceCents: 0,
      adjustment: null,
    });
  });

  it("refunds the whole order at once as its invoice, with nothing put back", () => {
    const whole = wholeRestRefund(ORDER, [])!;
    expect(whole.amountCents).toBe(9823);
    expect(whole.vatBreakdown).toEqual(ORDER.vatBreakdown);
    expect(whole.lines.map((line) => [line.orderItemId, line.quantity, line.totalCents, line.restock])).toEqual([
      [BOOSTERS.id, 3, 1000, false],
      [DISPLAY.id, 1, 8333, false],
    ]);
    expect(whole.shippingParts).toEqual(ORDER.shipping);
    expect(whole.adjustment).toBeNull();
    expect(whole.closesOrder).toBe(true);
  });
});

/* -------------------------------------------------------------------------------------------- */
/* Random orders, random refunds until nothing is left.                                          */
/* -------------------------------------------------------------------------------------------- */

const SEED = 20_270_051;
const RUNS = 3_000;

/**
 * A random order, built as the brief of these tests says: 1–5 lines of 1–5 units at the four
 * rates or under the margin scheme, a discount shared over them, the delivery and the insurance
 * in parts over the taxed goods' rates (20 % with none), the breakdown `vatByRate` of the taxed
 * lines and the charges' parts, the total their sum.
 */
function randomOrder(random: () => number): RefundableOrder {
  const int = (n: number) => Math.floor(random() * n);
  const lines = Array.from({ length: 1 + int(5) }, (_, i): RefundableLine => {
    const quantity = 1 + int(5);
    const unitPriceCents = random() < 0.1 ? 1 + int(30) : 50 + int(20_000);
    const margin = random() < 0.2;
    const rateBp = VAT_RATES_BP[int(VAT_RATES_BP.length)]!;
    return { orderItemId: `item-${i}`, name: `Article ${i}`, quantity, unitPriceCents, netCents: unitPriceCents * quantity, bucket: margin ? "margin" : rateBp, vatScheme: margin ? "margin" : "normal" };
  });
  const goods = sum(lines.map((line) => line.netCents));
  const discount = random() < 0.5 ? 0 : int(Math.floor(goods * 0.5));
  splitProRata(discount, lines.map((line) => line.netCents)).forEach((share, i) => (lines[i]!.netCents -= share));
  const taxedRates = [...new Set(lines.flatMap((line) => (typeof line.bucket === "number" && line.netCents > 0 ? [line.bucket] : [])))].sort((a, b) => b - a);
  const rates: VatRateBp[] = taxedRates.length ? taxedRates : [2000];
  const weights = rates.map((rate) => sum(lines.filter((line) => line.bucket === rate).map((line) => line.netCents)) || 1);
  const charge = (cents: number): ChargeBucketPart[] =>
    splitProRata(cents, weights)
      .map((totalCents, i) => ({ bucket: rates[i]! as VatBucket, totalCents }))
      .filter((part) => part.totalCents !== 0);
  const shippingCents = random() < 0.2 ? 0 : 1 + int(2_500);
  const insuranceCents = random() < 0.6 ? 0 : 50 + int(1_500);
  const shipping = charge(shippingCents);
  const insurance = charge(insuranceCents);
  const rated = [
    ...lines.flatMap((line) => (typeof line.bucket === "number" ? [{ rateBp: line.bucket, totalCents: line.netCents }] : [])),
    ...[...shipping, ...insurance].map((part) => ({ rateBp: part.bucket as VatRateBp, totalCents: part.totalCents })),
  ];
  return {
    totalCents: sum(lines.map((line) => line.netCents)) + shippingCents + insuranceCents,
    lines,
    shipping,
    insurance,
    vatBreakdown: vatByRate(rated).rows,
    marginSchemeCents: sum(lines.filter((line) => line.bucket === "margin").map((line) => line.netCents)),
  };
}

/** A random request on what is left: some units, some of the charges, now and then an adjustment. */
function randomRequest(random: () => number, order: RefundableOrder, prior: readonly PriorRefund[]): RefundRequest {
  const int = (n: number) => Math.floor(random() * n);
  const rest = refundableRest(order, prior);
  const lines = order.lines.flatMap((line) => {
    const left = rest.units.get(line.orderItemId) ?? 0;
    return left > 0 && random() < 0.5 ? [units(line.orderItemId, 1 + int(left), random() < 0.5)] : [];
  });
  const shippingCents = rest.shippingCents > 0 && random() < 0.4 ? (random() < 0.3 ? rest.shippingCents : int(rest.shippingCents + 1)) : 0;
  const insuranceCents = rest.insuranceCents > 0 && random() < 0.3 ? int(rest.insuranceCents + 1) : 0;
  const roll = random();
  const adjustment: RefundRequest["adjustment"] =
    roll < 0.15
      ? { kind: "goodwill", cents: 1 + int(Math.max(1, Math.floor(rest.totalCents / 3))), reason: "Geste commercial" }
      : roll < 0.3 && lines.length
        ? { kind: "depreciation", cents: 1 + int(Math.max(1, sum(lines.map((l) => l.quantity)) * 200)), reason: "Article abîmé" }
        : null;
  return { lines, shippingCents, insuranceCents, adjustment };
}

type Step = { refund: ComputedRefund; restTotalBefore: number; restOfRatesBefore: ReturnType<typeof restOfRates>; whole: boolean };
type History = { run: number; order: RefundableOrder; steps: Step[]; refusals: string[] };

/** The seeded runs, once for all the properties below (each states one of them). */
const histories: History[] = (() => {
  const random = seeded(SEED);
  const out: History[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const order = randomOrder(random);
    const prior: PriorRefund[] = [];
    const steps: Step[] = [];
    const refusals: string[] = [];
    const attempts = Math.floor(random() * 6);
    let closed = false;
    for (let k = 0; k < attempts && !closed; k += 1) {
      const before = { restTotalBefore: refundableRest(order, prior).totalCents, restOfRatesBefore: restOfRates(order, prior) };
      const result = computeRefund(order, prior, randomRequest(random, order, prior));
      if (!result.ok) {
        refusals.push(result.error);
        continue;
      }
      steps.push({ refund: result.refund, ...before, whole: false });
      prior.push(asPrior(result.refund));
      closed = result.refund.closesOrder;
    }
    const before = { restTotalBefore: refundableRest(order, prior).totalCents, restOfRatesBefore: restOfRates(order, prior) };
    const whole = wholeRestRefund(order, prior);
    if (whole) steps.push({ refund: whole, ...before, whole: true });
    out.push({ run, order, steps, refusals });
  }
  return out;
})();

const label = (history: History, step?: number) => `seed ${SEED}, run ${history.run}${step === undefined ? "" : `, refund ${step + 1}`}: ${JSON.stringify(history.order)}`;

describe(`random orders refunded in random steps, the last by wholeRestRefund (${RUNS} orders, seed ${SEED})`, () => {
  it("covers what it claims to: several refunds, deductions, goodwill, margin goods, partial charges", () => {
    const steps = histories.flatMap((history) => history.steps.filter((step) => !step.whole).map((step) => step.refund));
    expect(histories.filter((history) => history.steps.filter((step) => !step.whole).length >= 2).length).toBeGreaterThan(RUNS / 5);
    expect(steps.filter((refund) => refund.adjustment?.kind === "depreciation").length).toBeGreaterThan(100);
    expect(steps.filter((refund) => refund.adjustment?.kind === "goodwill").length).toBeGreaterThan(100);
    expect(steps.filter((refund) => refund.marginSchemeCents !== 0).length).toBeGreaterThan(100);
    expect(steps.filter((refund) => refund.shippingParts.length > 1).length).toBeGreaterThan(100);
    expect(histories.filter((history) => history.order.vatBreakdown.length >= 3).length).toBeGreaterThan(100);
    expect(histories.filter((history) => history.steps.at(-1)?.whole && history.steps.at(-1)!.refund.adjustment?.kind === "goodwill").length).toBeGreaterThan(50);
  });

  it("refunds the order's total exactly, the last refund closing it", () => {
    for (const history of histories) {
      expect(sum(history.steps.map((step) => step.refund.amountCents)), label(history)).toBe(history.order.totalCents);
      expect(history.steps.at(-1)?.refund.closesOrder, label(history)).toBe(true);
      expect(history.steps.slice(0, -1).every((step) => !step.refund.closesOrder), label(history)).toBe(true);
    }
  });

  it("gives back each rate's total exactly, and the margin-scheme goods", () => {
    for (const history of histories) {
      const refunds = history.steps.map((step) => step.refund);
      for (const row of history.order.vatBreakdown) {
        const rows = refunds.flatMap((refund) => refund.vatBreakdown.filter((r) => r.rateBp === row.rateBp));
        expect(sum(rows.map((r) => r.totalCents)), `${label(history)} rate ${row.rateBp}`).toBe(row.totalCents);
      }
      const rates = new Set(history.order.vatBreakdown.map((row) => row.rateBp));
      for (const refund of refunds) for (const row of refund.vatBreakdown) expect(rates.has(row.rateBp), label(history)).toBe(true);
      expect(sum(refunds.map((refund) => refund.marginSchemeCents)), label(history)).toBe(history.order.marginSchemeCents);
    }
  });

  it("gives back each rate's base and VAT exactly", () => {
    const bad: string[] = [];
    for (const history of histories) {
      const refunds = history.steps.map((step) => step.refund);
      for (const row of history.order.vatBreakdown) {
        const rows = refunds.flatMap((refund) => refund.vatBreakdown.filter((r) => r.rateBp === row.rateBp));
        const given = { rateBp: row.rateBp, baseCents: sum(rows.map((r) => r.baseCents)), vatCents: sum(rows.map((r) => r.vatCents)), totalCents: sum(rows.map((r) => r.totalCents)) };
        if (given.baseCents !== row.baseCents || given.vatCents !== row.vatCents) bad.push(`${label(history)}: gave ${JSON.stringify(given)} of ${JSON.stringify(row)}`);
      }
    }
    expect(bad.slice(0, 3), `${bad.length} rates whose base and VAT the refunds did not give back exactly`).toEqual([]);
  });

  it("keeps base + VAT = TTC on every row, its rows and margin goods adding up to its amount", () => {
    for (const history of histories) {
      history.steps.forEach(({ refund }, i) => {
        for (const row of refund.vatBreakdown) expect(row.baseCents + row.vatCents, label(history, i)).toBe(row.totalCents);
        expect(sum(refund.vatBreakdown.map((row) => row.totalCents)) + refund.marginSchemeCents, label(history, i)).toBe(refund.amountCents);
      });
    }
  });

  it("works out the VAT of a refund that does not close the order on each rate's total", () => {
    for (const history of histories) {
      history.steps.forEach(({ refund }, i) => {
        if (refund.closesOrder) return;
        expectRowsOfTheirTotals(refund.vatBreakdown);
        const buckets = bucketsOf(refund);
        const rows = Object.fromEntries(refund.vatBreakdown.map((row) => [row.rateBp, row.totalCents]));
        const expected = Object.fromEntries([...buckets].filter(([bucket, cents]) => typeof bucket === "number" && cents !== 0));
        expect(rows, label(history, i)).toEqual(expected);
        expect(refund.marginSchemeCents, label(history, i)).toBe(buckets.get("margin") ?? 0);
        expect(sum([...buckets.values()]), label(history, i)).toBe(refund.amountCents);
      });
    }
  });

  it("never refunds nothing, nor more than is left", () => {
    for (const history of histories) {
      history.steps.forEach((step, i) => {
        expect(step.refund.amountCents, label(history, i)).toBeGreaterThan(0);
        expect(step.refund.amountCents, label(history, i)).toBeLessThanOrEqual(step.restTotalBefore);
      });
    }
  });

  it("never gives back a unit, or a cent of a charge, twice; every line's refunds sum to its net when all its units went back", () => {
    for (const history of histories) {
      const refunds = history.steps.map((step) => step.refund);
      for (const line of history.order.lines) {
        const mine = refunds.flatMap((refund) => refund.lines.filter((l) => l.orderItemId === line.orderItemId));
        const back = sum(mine.map((l) => l.quantity));
        expect(back, label(history)).toBeLessThanOrEqual(line.quantity);
        if (back === line.quantity) expect(sum(mine.map((l) => l.totalCents)), label(history)).toBe(line.netCents);
      }
      for (const key of ["shipping", "insurance"] as const) {
        const parts = refunds.flatMap((refund) => (key === "shipping" ? refund.shippingParts : refund.insuranceParts));
        const asked = sum(refunds.map((refund) => (key === "shipping" ? refund.shippingCents : refund.insuranceCents)));
        expect(sum(parts.map((p) => p.totalCents)), label(history)).toBe(asked);
        expect(asked, label(history)).toBeLessThanOrEqual(sum(history.order[key].map((p) => p.totalCents)));
      }
    }
  });

  it("spreads goodwill over what is left at each rate and takes a deduction from the articles, each part never beyond them", () => {
    for (const history of histories) {
      history.steps.forEach((step, i) => {
        const { refund } = step;
        const adjustment = refund.adjustment;
        if (!adjustment || step.whole) return;
        const parts = adjustment.parts;
        expect(sum(parts.map((p) => p.totalCents)), label(history, i)).toBe(adjustment.cents);
        if (adjustment.kind === "goodwill") {
          // What this refund's articles and charges leave at each rate.
          const goods = bucketsOf({ ...refund, adjustment: null });
          for (const p of parts) {
            expect(p.totalCents, label(history, i)).toBeGreaterThan(0);
            const left =
              p.bucket === "margin"
                ? step.restOfRatesBefore.marginSchemeCents
                : (step.restOfRatesBefore.vatBreakdown.find((row) => row.rateBp === p.bucket)?.totalCents ?? 0);
            expect(p.totalCents, `${label(history, i)} bucket ${p.bucket}`).toBeLessThanOrEqual(left - (goods.get(p.bucket) ?? 0));
          }
        } else {
          const articles = bucketsOf({ ...refund, shippingParts: [], insuranceParts: [], adjustment: null });
          for (const p of parts) {
            expect(p.totalCents, label(history, i)).toBeLessThan(0);
            expect(-p.totalCents, label(history, i)).toBeLessThanOrEqual(articles.get(p.bucket) ?? 0);
          }
          expect(-adjustment.cents, label(history, i)).toBeLessThan(sum(refund.lines.map((line) => line.totalCents)));
        }
      });
    }
  });

  it("never gives back more at a rate than is left of it", () => {
    const bad: string[] = [];
    for (const history of histories) {
      history.steps.forEach((step, i) => {
        for (const row of step.refund.vatBreakdown) {
          const left = step.restOfRatesBefore.vatBreakdown.find((r) => r.rateBp === row.rateBp)?.totalCents ?? 0;
          if (row.totalCents > left || (step.refund.closesOrder && row.totalCents < 0)) bad.push(`${label(history, i)}: ${JSON.stringify(row)} where ${left} was left`);
        }
      });
    }
    expect(bad.slice(0, 3), `${bad.length} refunds above a rate's rest`).toEqual([]);
  });

  it("never gives a negative part of a charge at a rate", () => {
    const bad: string[] = [];
    for (const history of histories) {
      history.steps.forEach(({ refund }, i) => {
        for (const p of [...refund.shippingParts, ...refund.insuranceParts]) if (p.totalCents < 0) bad.push(`${label(history, i)}: ${JSON.stringify(p)}`);
      });
    }
    expect(bad.slice(0, 3), `${bad.length} negative parts`).toEqual([]);
  });
});
