import { describe, expect, it } from "vitest";
import { type CreditedRefund, buildRefundCreditNote } from "./credit-note-snapshot";
import { FRANCHISE_MENTION, type InvoiceSnapshot, MARGIN_SCHEME_MENTION } from "./invoice";
import { type InvoiceSource, buildInvoiceSnapshot, orderVatView } from "./invoice-snapshot";
import {
  type ComputedRefund,
  type PriorRefund,
  type RefundRequest,
  type RefundableOrder,
  computeRefund,
  refundableRest,
  wholeRestRefund,
} from "./partial-refund";
import { EMPTY_IDENTITY } from "./shop-identity";
import { VAT_RATES_BP, type VatRateBp, type VatScheme } from "./vat";
import { allocateVat } from "./vat-allocation";
import { seeded } from "../../tests/support/seeded-random";

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

type Article = { id: string; name: string; quantity: number; unitPriceCents: number; rateBp: VatRateBp; margin?: boolean };

const PAYMENT_AND_GUARANTEES =
  "Montants en euros. Garantie légale de conformité (art. L217-3 et suivants du Code de la consommation) et garantie des vices cachés (art. 1641 et suivants du Code civil).";

/**
 * An order as the checkout stores it (allocateVat) and its invoice's source, and the order as
 * services/partial-refunds.server.ts gives it to computeRefund (refundableOrder: orderVatView of
 * the stored lines, the charges' parts by rate, each line's bucket).
 */
function placed(articles: Article[], options: { discountCents?: number; shippingCents?: number; insuranceCents?: number; franchise?: boolean } = {}) {
  const { discountCents = 0, shippingCents = 0, insuranceCents = 0, franchise = false } = options;
  const vat = allocateVat(
    articles.map((article) => ({ totalCents: article.unitPriceCents * article.quantity, vatRateBp: article.rateBp, vatScheme: (article.margin ? "margin" : "normal") as VatScheme })),
    discountCents,
    shippingCents + insuranceCents,
    franchise,
  );
  const totalCents = sum(vat.lines.map((line) => line.netCents)) + shippingCents + insuranceCents;
  const source: InvoiceSource = {
    order: {
      number: "CMD-2026-1187",
      createdAt: new Date("2026-11-26T23:10:00Z"),
      paidAt: new Date("2026-11-26T23:30:00Z"),
      customerName: "Élodie Lefèvre",
      customerEmail: "elodie@example.fr",
      paymentProvider: "stripe",
      shippingMethodName: shippingCents > 0 ? "Mondial Relay" : null,
      shippingCents,
      insuranceCents,
      discountCents,
      discountCode: discountCents > 0 ? "BIENVENUE" : null,
      totalCents,
      shippingAddress: null,
      vatRegime: franchise ? "franchise" : "normal",
      vatBreakdown: vat.breakdown,
    },
    lines: articles.map((article, i): InvoiceSource["lines"][number] => ({
      name: article.name,
      quantity: article.quantity,
      unitPriceCents: article.unitPriceCents,
      discountShareCents: vat.lines[i]!.discountShareCents,
      vatCents: vat.lines[i]!.vatCents,
      vatRateBp: article.rateBp,
      vatScheme: (article.margin ? "margin" : "normal") as VatScheme,
    })),
    seller: { ...EMPTY_IDENTITY, companyName: "Comptoir des Cartes", email: "contact@comptoir.fr" },
  };
  // As refundableOrder (services/partial-refunds.server.ts) makes it from the stored order.
  const nets = source.lines.map((line) => ({ netCents: line.unitPriceCents * line.quantity - line.discountShareCents, vatRateBp: line.vatRateBp as VatRateBp, vatScheme: line.vatScheme, vatCents: line.vatCents }));
  const view = orderVatView(source.order, nets);
  const chargeOf = (index: 0 | 1, cents: number) =>
    franchise || (view.chargeParts[index] ?? []).length === 0 ? (cents ? [{ bucket: "none" as const, totalCents: cents }] : []) : view.chargeParts[index]!.map((part) => ({ bucket: part.rateBp, totalCents: part.totalCents }));
  const order: RefundableOrder = {
    totalCents,
    lines: articles.map((article, i): RefundableOrder["lines"][number] => ({
      orderItemId: article.id,
      name: article.name,
      quantity: article.quantity,
      unitPriceCents: article.unitPriceCents,
      netCents: nets[i]!.netCents,
      bucket: franchise ? "none" : article.margin ? "margin" : article.rateBp,
      vatScheme: (article.margin ? "margin" : "normal") as VatScheme,
    })),
    shipping: chargeOf(0, shippingCents),
    insurance: chargeOf(1, insuranceCents),
    vatBreakdown: view.breakdown,
    marginSchemeCents: view.marginSchemeCents,
  };
  return { source, order };
}

const asPrior = (refund: ComputedRefund): PriorRefund => ({
  amountCents: refund.amountCents,
  lines: refund.lines.map((line) => ({ orderItemId: line.orderItemId, quantity: line.quantity })),
  shippingCents: refund.shippingCents,
  insuranceCents: refund.insuranceCents,
  vatBreakdown: refund.vatBreakdown,
  marginSchemeCents: refund.marginSchemeCents,
  parts: { shipping: refund.shippingParts, insurance: refund.insuranceParts, adjustment: refund.adjustment?.parts ?? [] },
});

/** The refund as services/invoices.server.ts hands it to buildRefundCreditNote (from the stored row). */
const credited = (refund: ComputedRefund): CreditedRefund => ({
  amountCents: refund.amountCents,
  lines: refund.lines,
  shippingParts: refund.shippingParts,
  insuranceParts: refund.insuranceParts,
  adjustment: refund.adjustment,
  vatBreakdown: refund.vatBreakdown,
  marginSchemeCents: refund.marginSchemeCents,
});

const request = (overrides: Partial<RefundRequest> = {}): RefundRequest => ({ lines: [], shippingCents: 0, insuranceCents: 0, adjustment: null, ...overrides });
const units = (orderItemId: string, quantity: number, restock = true) => ({ orderItemId, quantity, restock });

function refunded(order: RefundableOrder, prior: readonly PriorRefund[], wanted: RefundRequest): ComputedRefund {
  const result = computeRefund(order, prior, wanted);
  if (!result.ok) throw new Error(`refused: ${result.error}`);
  return result.refund;
}

const DOCUMENT = { number: "A-2026-000007", issuedAt: new Date("2026-12-03T09:15:00Z"), invoiceNumber: "F-2026-000042" };
const noteOf = (source: InvoiceSource, refund: ComputedRefund, document = DOCUMENT) => buildRefundCreditNote(source, credited(refund), document);

/** Per rate, the HT column (lines' and charge parts' bases) and the TTC column, as the note prints them. */
function columnsByRate(note: InvoiceSnapshot) {
  const columns = new Map<number, { baseCents: number; totalCents: number }>();
  const add = (rateBp: number, baseCents: number, totalCents: number) => {
    const column = columns.get(rateBp) ?? { baseCents: 0, totalCents: 0 };
    columns.set(rateBp, { baseCents: column.baseCents + baseCents, totalCents: column.totalCents + totalCents });
  };
  for (const line of note.lines) if (line.vatRateBp !== null) add(line.vatRateBp, line.totalExclVatCents!, line.totalCents);
  for (const charge of note.charges) for (const part of charge.parts ?? []) add(part.rateBp, part.exclVatCents, part.totalCents);
  return columns;
}

/** The HT column adds up to each row's base (negated on the note), and the totals to the refund. */
function expectColumnsAddUp(note: InvoiceSnapshot, refund: ComputedRefund, context = "") {
  const columns = columnsByRate(note);
  for (const row of note.vatBreakdown) expect(columns.get(row.rateBp)?.baseCents ?? 0, `${context} HT at ${row.rateBp}`).toBe(row.baseCents);
  for (const [rateBp, column] of columns) if (!note.vatBreakdown.some((row) => row.rateBp === rateBp)) expect(column.baseCents, `${context} HT at ${rateBp}, no row`).toBe(0);
  expect(note.totals.inclVatCents, context).toBe(refund.amountCents === 0 ? 0 : -refund.amountCents);
  expect(note.totals.exclVatCents + note.totals.vatCents + note.totals.marginSchemeCents, context).toBe(note.totals.inclVatCents);
}

/**
 * Three boosters at 20 % (3 × 4,00 €) and a display at 5,5 % (100,00 €), 18,67 € off (boosters'
 * net 10,00 €, display's 83,33 €), delivery 4,90 € (0,53 € at 20 %, 4,37 € at 5,5 %): 98,23 €.
 */
const BOOSTERS = { id: "item-boosters", name: "Booster Écarlate et Violet", quantity: 3, unitPriceCents: 400, rateBp: 2000 } as const;
const DISPLAY = { id: "item-display", name: "Display Flammes Obsidiennes", quantity: 1, unitPriceCents: 10_000, rateBp: 550 } as const;
const { source: SOURCE, order: ORDER } = placed([BOOSTERS, DISPLAY], { discountCents: 1867, shippingCents: 490 });

describe("the order of these examples", () => {
  it("is what the checkout stores, as the refunds see it", () => {
    expect(ORDER.lines.map((line) => [line.netCents, line.bucket])).toEqual([
      [1000, 2000],
      [8333, 550],
    ]);
    expect(ORDER.shipping).toEqual([
      { bucket: 2000, totalCents: 53 },
      { bucket: 550, totalCents: 437 },
    ]);
    expect(ORDER.vatBreakdown).toEqual([
      { rateBp: 2000, baseCents: 878, vatCents: 175, totalCents: 1053 },
      { rateBp: 550, baseCents: 8313, vatCents: 457, totalCents: 8770 },
    ]);
    expect(ORDER.totalCents).toBe(9823);
  });
});

describe("buildRefundCreditNote", () => {
  it("lists the booster refunded, every amount negated, with the invoice's heading", () => {
    const refund = refunded(ORDER, [], request({ lines: [units(BOOSTERS.id, 1)] }));
    const note = noteOf(SOURCE, refund);
    expect(note).toMatchObject({
      layout: 2,
      kind: "credit_note",
      number: "A-2026-000007",
      issuedAt: "2026-12-03T09:15:00.000Z",
      cancelsInvoice: "F-2026-000042",
      partial: true,
      orderNumber: "CMD-2026-1187",
      paymentMethod: "Carte bancaire (Stripe)",
      vatRegime: "normal",
      discount: null,
    });
    expect(note.buyer.name).toBe("Élodie Lefèvre");
    expect(note.seller.name).toBe("Comptoir des Cartes");
    expect(note.lines).toEqual([
      // 4,00 € / 1,2 = 3,333 €; the line's 3,33 € hold 2,78 € of base.
      { name: BOOSTERS.name, quantity: 1, unitPriceCents: -400, totalCents: -333, vatRateBp: 2000, vatScheme: "normal", unitPriceExclVatCents: -333, totalExclVatCents: -278 },
    ]);
    expect(note.charges).toEqual([]);
    expect(note.vatBreakdown).toEqual([{ rateBp: 2000, baseCents: -278, vatCents: -55, totalCents: -333 }]);
    expect(note.totals).toEqual({ exclVatCents: -278, vatCents: -55, inclVatCents: -333, marginSchemeCents: 0 });
  });

  it("says it is a partial credit note on the invoice, refunded on the day of the note", () => {
    const note = noteOf(SOURCE, refunded(ORDER, [], request({ lines: [units(BOOSTERS.id, 1)] })));
    expect(note.mentions).toEqual(["Avoir partiel sur la facture F-2026-000042, remboursé le 3 décembre 2026 sur le moyen de paiement d'origine.", PAYMENT_AND_GUARANTEES]);
    // The date is Paris's: 23:30 UTC on 31 December is already 1 January.
    const late = noteOf(SOURCE, refunded(ORDER, [], request({ lines: [units(BOOSTERS.id, 1)] })), { ...DOCUMENT, issuedAt: new Date("2026-12-31T23:30:00Z") });
    expect(late.mentions[0]).toBe("Avoir partiel sur la facture F-2026-000042, remboursé le 1 janvier 2027 sur le moyen de paiement d'origine.");
    expect(note.mentions.some((mention) => mention.startsWith("Avoir remboursé"))).toBe(false);
  });

  it("never prints a negative zero", () => {
    const note = noteOf(SOURCE, refunded(ORDER, [], request({ lines: [units(BOOSTERS.id, 1)] })));
    const zeros = JSON.stringify(note, (_key, value) => (Object.is(value, -0) ? "NEGATIVE ZERO" : value));
    expect(zeros).not.toContain("NEGATIVE ZERO");
  });

  it("prints the delivery refunded with its parts by rate, TTC and before VAT, the HT column adding up to each row", () => {
    const refund = refunded(ORDER, [], request({ lines: [units(BOOSTERS.id, 2)], shippingCents: 200 }));
    const note = noteOf(SOURCE, refund);
    expect(note.charges).toHaveLength(1);
    const [delivery] = note.charges;
    expect(delivery!.label).toBe("Livraison – Mondial Relay");
    expect(delivery!.totalCents).toBe(-200);
    expect(delivery!.parts!.map((part) => [part.rateBp, part.totalCents])).toEqual([
      [2000, -22],
      [550, -178],
    ]);
    expect(sum(delivery!.parts!.map((part) => part.totalCents))).toBe(-200);
    // 5,5 % holds only the delivery's part: its base is the row's.
    expect(delivery!.parts![1]!.exclVatCents).toBe(note.vatBreakdown.find((row) => row.rateBp === 550)!.baseCents);
    expect(note.vatBreakdown).toEqual(refund.vatBreakdown.map((row) => ({ rateBp: row.rateBp, baseCents: -row.baseCents, vatCents: -row.vatCents, totalCents: -row.totalCents })));
    expectColumnsAddUp(note, refund);
    for (const [rateBp, column] of columnsByRate(note)) expect(column.totalCents, `TTC at ${rateBp}`).toBe(note.vatBreakdown.find((row) => row.rateBp === rateBp)!.totalCents);
  });

  it("prints the insurance refunded as its own charge", () => {
    const { source, order } = placed([BOOSTERS, DISPLAY], { discountCents: 1867, shippingCents: 490, insuranceCents: 1000 });
    const refund = refunded(order, [], request({ insuranceCents: 1000 }));
    const note = noteOf(source, refund);
    expect(note.charges.map((charge) => [charge.label, charge.totalCents])).toEqual([["Remise contre signature", -1000]]);
    expectColumnsAddUp(note, refund);
  });

  it("prints a deduction as a charge of its own sign, its parts' bases in the HT column", () => {
    const refund = refunded(ORDER, [], request({ lines: [units(BOOSTERS.id, 2), units(DISPLAY.id, 1)], adjustment: { kind: "depreciation", cents: 900, reason: "Display ouvert" } }));
    const note = noteOf(SOURCE, refund);
    expect(note.lines.map((line) => line.totalCents)).toEqual([-667, -8333]);
    expect(note.charges).toHaveLength(1);
    const [deduction] = note.charges;
    expect(deduction!.label).toBe("Déduction pour dépréciation : Display ouvert");
    // Kept from the refund: positive on the credit note.
    expect(deduction!.totalCents).toBe(900);
    expect(deduction!.parts!.map((part) => [part.rateBp, part.totalCents])).toEqual([
      [2000, 67],
      [550, 833],
    ]);
    for (const part of deduction!.parts!) expect(part.exclVatCents).toBeGreaterThan(0);
    expect(note.totals.inclVatCents).toBe(-(667 + 8333 - 900));
    expect(note.vatBreakdown).toEqual([
      { rateBp: 2000, baseCents: -500, vatCents: -100, totalCents: -600 },
      { rateBp: 550, baseCents: -7109, vatCents: -391, totalCents: -7500 },
    ]);
    expectColumnsAddUp(note, refund);
  });

  it("prints a goodwill gesture with its reason, its parts by rate, the HT column adding up", () => {
    const refund = refunded(ORDER, [], request({ lines: [units(BOOSTERS.id, 1)], adjustment: { kind: "goodwill", cents: 500, reason: "Retard de livraison" } }));
    const note = noteOf(SOURCE, refund);
    const gesture = note.charges.find((charge) => charge.label.startsWith("Geste commercial"))!;
    expect(gesture.label).toBe("Geste commercial : Retard de livraison");
    expect(gesture.totalCents).toBe(-500);
    expect(sum(gesture.parts!.map((part) => part.totalCents))).toBe(-500);
    expectColumnsAddUp(note, refund);
    expect(note.discount).toBeNull();
  });

  it("prints a margin-scheme article without rate, apart from Total HT, with the scheme's mention", () => {
    const { source, order } = placed(
      [
        { id: "used", name: "Carte Dracaufeu (occasion)", quantity: 1, unitPriceCents: 12_000, rateBp: 2000, margin: true },
        { id: "new", name: "Booster", quantity: 2, unitPriceCents: 650, rateBp: 2000 },
      ],
      { shippingCents: 590 },
    );
    const used = refunded(order, [], request({ lines: [units("used", 1)] }));
    const note = noteOf(source, used);
    expect(note.lines).toEqual([{ name: "Carte Dracaufeu (occasion)", quantity: 1, unitPriceCents: -12_000, totalCents: -12_000, vatRateBp: null, vatScheme: "margin", unitPriceExclVatCents: null, totalExclVatCents: null }]);
    expect(note.vatBreakdown).toEqual([]);
    expect(note.totals).toEqual({ exclVatCents: 0, vatCents: 0, inclVatCents: -12_000, marginSchemeCents: -12_000 });
    expect(note.mentions[0]).toBe(`${MARGIN_SCHEME_MENTION} (articles marqués « Occasion »)`);

    // A note with no margin-scheme goods does not say it.
    const booster = noteOf(source, refunded(order, [], request({ lines: [units("new", 1)] })));
    expect(booster.mentions.filter((mention) => mention.startsWith(MARGIN_SCHEME_MENTION))).toEqual([]);
  });

  it("prints no VAT under the franchise: HT is TTC", () => {
    const { source, order } = placed([BOOSTERS, DISPLAY], { discountCents: 1867, shippingCents: 490, franchise: true });
    const refund = refunded(order, [], request({ lines: [units(BOOSTERS.id, 1)], shippingCents: 100 }));
    const note = noteOf(source, refund);
    expect(note.lines.map((line) => [line.vatRateBp, line.unitPriceExclVatCents, line.totalExclVatCents])).toEqual([[null, null, null]]);
    expect(note.charges.map((charge) => [charge.totalCents, charge.parts])).toEqual([[-100, []]]);
    expect(note.vatBreakdown).toEqual([]);
    expect(note.totals).toEqual({ exclVatCents: -433, vatCents: 0, inclVatCents: -433, marginSchemeCents: 0 });
    expect(note.mentions[0]).toBe(FRANCHISE_MENTION);
  });

  it("prints the refund that closes the order after others (as invoices.server.ts does), its HT column adding up", () => {
    const first = refunded(ORDER, [], request({ lines: [units(BOOSTERS.id, 1)] }));
    const rest = refunded(ORDER, [asPrior(first)], request({ lines: [units(BOOSTERS.id, 2), units(DISPLAY.id, 1)], shippingCents: 490 }));
    expect(rest.closesOrder).toBe(true);
    const note = noteOf(SOURCE, rest);
    expectColumnsAddUp(note, rest);
    // The two notes' rows make the invoice's, negated.
    const invoice = buildInvoiceSnapshot(SOURCE, { kind: "invoice", number: "F-2026-000042", issuedAt: new Date("2026-11-27T08:00:00Z") });
    const notes = [noteOf(SOURCE, first), note];
    for (const row of invoice.vatBreakdown) {
      const rows = notes.flatMap((n) => n.vatBreakdown.filter((r) => r.rateBp === row.rateBp));
      expect({ baseCents: sum(rows.map((r) => r.baseCents)), vatCents: sum(rows.map((r) => r.vatCents)), totalCents: sum(rows.map((r) => r.totalCents)) }).toEqual({
        baseCents: -row.baseCents,
        vatCents: -row.vatCents,
        totalCents: -row.totalCents,
      });
    }
  });

  it("prints the base of every rate of the refund that gives back what a deduction kept, in the HT and TTC columns", () => {
    // The boosters and the whole delivery back with a deduction of 2,00 €; then the rest of the
    // order (wholeRestRefund): the display and the 2,00 € kept, at 20 %, where nothing else of
    // this refund is.
    const deducted = refunded(ORDER, [], request({ lines: [units(BOOSTERS.id, 3)], shippingCents: 490, adjustment: { kind: "depreciation", cents: 200, reason: "Cartes pliées" } }));
    const whole = wholeRestRefund(ORDER, [asPrior(deducted)])!;
    expect(whole.amountCents).toBe(8333 + 200);
    expect(whole.vatBreakdown.map((row) => [row.rateBp, row.totalCents])).toEqual([
      [2000, 200],
      [550, 8333],
    ]);
    const note = noteOf(SOURCE, whole);
    expectColumnsAddUp(note, whole);
    for (const row of note.vatBreakdown) expect(columnsByRate(note).get(row.rateBp)?.totalCents ?? 0, `TTC at ${row.rateBp}`).toBe(row.totalCents);
  });
});

/* -------------------------------------------------------------------------------------------- */
/* The credit notes of random refunds.                                                           */
/* -------------------------------------------------------------------------------------------- */

const SEED = 20_270_052;
const RUNS = 1_500;

function randomPlaced(random: () => number) {
  const int = (n: number) => Math.floor(random() * n);
  const articles: Article[] = Array.from({ length: 1 + int(5) }, (_, i) => ({
    id: `item-${i}`,
    name: `Article ${i}`,
    quantity: 1 + int(5),
    unitPriceCents: random() < 0.1 ? 1 + int(30) : 50 + int(20_000),
    rateBp: VAT_RATES_BP[int(VAT_RATES_BP.length)]!,
    margin: random() < 0.2,
  }));
  const goods = sum(articles.map((article) => article.unitPriceCents * article.quantity));
  return placed(articles, {
    discountCents: random() < 0.5 ? 0 : int(Math.floor(goods * 0.5)),
    shippingCents: random() < 0.2 ? 0 : 1 + int(2_500),
    insuranceCents: random() < 0.6 ? 0 : 50 + int(1_500),
  });
}

function randomRequest(random: () => number, order: RefundableOrder, prior: readonly PriorRefund[]): RefundRequest {
  const int = (n: number) => Math.floor(random() * n);
  const rest = refundableRest(order, prior);
  const lines = order.lines.flatMap((line) => {
    const left = rest.units.get(line.orderItemId) ?? 0;
    return left > 0 && random() < 0.5 ? [units(line.orderItemId, 1 + int(left))] : [];
  });
  const roll = random();
  return {
    lines,
    shippingCents: rest.shippingCents > 0 && random() < 0.4 ? int(rest.shippingCents + 1) : 0,
    insuranceCents: rest.insuranceCents > 0 && random() < 0.3 ? int(rest.insuranceCents + 1) : 0,
    adjustment:
      roll < 0.15
        ? { kind: "goodwill", cents: 1 + int(Math.max(1, Math.floor(rest.totalCents / 3))), reason: "Geste" }
        : roll < 0.3 && lines.length
          ? { kind: "depreciation", cents: 1 + int(Math.max(1, sum(lines.map((l) => l.quantity)) * 200)), reason: "Abîmé" }
          : null,
  };
}

type Noted = { run: number; source: InvoiceSource; refund: ComputedRefund; note: InvoiceSnapshot; whole: boolean };

/** Every refund of the seeded runs (the last of each order by wholeRestRefund) and its credit note. */
const noted: Noted[] = (() => {
  const random = seeded(SEED);
  const out: Noted[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const { source, order } = randomPlaced(random);
    const prior: PriorRefund[] = [];
    let closed = false;
    for (let k = 0, attempts = Math.floor(random() * 5); k < attempts && !closed; k += 1) {
      const result = computeRefund(order, prior, randomRequest(random, order, prior));
      if (!result.ok) continue;
      out.push({ run, source, refund: result.refund, note: noteOf(source, result.refund), whole: false });
      prior.push(asPrior(result.refund));
      closed = result.refund.closesOrder;
    }
    const whole = wholeRestRefund(order, prior);
    if (whole) out.push({ run, source, refund: whole, note: noteOf(source, whole), whole: true });
  }
  return out;
})();

const labelOf = (item: Noted) => `seed ${SEED}, run ${item.run}${item.whole ? " (wholeRestRefund)" : ""}: ${JSON.stringify(credited(item.refund))}`;

describe(`the credit notes of random refunds (${RUNS} orders, seed ${SEED})`, () => {
  it("covers deductions, gestures, delivery parts and margin goods", () => {
    expect(noted.filter((item) => item.refund.adjustment?.kind === "depreciation").length).toBeGreaterThan(50);
    expect(noted.filter((item) => item.refund.adjustment?.kind === "goodwill" && !item.whole).length).toBeGreaterThan(50);
    expect(noted.filter((item) => item.refund.shippingParts.length > 1).length).toBeGreaterThan(50);
    expect(noted.filter((item) => item.refund.marginSchemeCents !== 0).length).toBeGreaterThan(50);
  });

  it("negates the refund: its lines, its rows, its totals; partial, with no discount", () => {
    for (const item of noted) {
      const { note, refund } = item;
      const context = labelOf(item);
      expect(note.partial, context).toBe(true);
      expect(note.discount, context).toBeNull();
      expect(note.kind, context).toBe("credit_note");
      expect(note.totals.inclVatCents, context).toBe(-refund.amountCents);
      expect(note.totals.marginSchemeCents, context).toBe(refund.marginSchemeCents === 0 ? 0 : -refund.marginSchemeCents);
      expect(note.vatBreakdown, context).toEqual(
        refund.vatBreakdown.map((row) => ({ rateBp: row.rateBp, baseCents: row.baseCents === 0 ? 0 : -row.baseCents, vatCents: row.vatCents === 0 ? 0 : -row.vatCents, totalCents: row.totalCents === 0 ? 0 : -row.totalCents })),
      );
      expect(note.totals.exclVatCents, context).toBe(sum(note.vatBreakdown.map((row) => row.baseCents)));
      expect(note.totals.vatCents, context).toBe(sum(note.vatBreakdown.map((row) => row.vatCents)));
      expect(note.totals.exclVatCents + note.totals.vatCents + note.totals.marginSchemeCents, context).toBe(note.totals.inclVatCents);
      expect(note.lines.map((line) => [line.quantity, line.totalCents]), context).toEqual(refund.lines.map((line) => [line.quantity, line.totalCents === 0 ? 0 : -line.totalCents]));
      for (const line of note.lines) expect(line.totalCents, context).toBeLessThanOrEqual(0);
      expect(note.mentions[note.mentions.length - 2], context).toMatch(/^Avoir partiel sur la facture F-2026-000042, remboursé le 3 décembre 2026/);
    }
  });

  it("has an HT column that adds up to each rate's base", () => {
    const bad: string[] = [];
    for (const item of noted) {
      const columns = columnsByRate(item.note);
      for (const row of item.note.vatBreakdown) {
        const base = columns.get(row.rateBp)?.baseCents ?? 0;
        if (base !== row.baseCents) bad.push(`${labelOf(item)}: HT ${base} at ${row.rateBp}, row ${row.baseCents}`);
      }
    }
    expect(bad.slice(0, 3), `${bad.length} rates whose HT column does not add up`).toEqual([]);
  });

  it("has a TTC column that adds up to each rate's total", () => {
    const bad: string[] = [];
    for (const item of noted) {
      const columns = columnsByRate(item.note);
      for (const row of item.note.vatBreakdown) {
        const total = columns.get(row.rateBp)?.totalCents ?? 0;
        if (total !== row.totalCents) bad.push(`${labelOf(item)}: TTC ${total} at ${row.rateBp}, row ${row.totalCents}`);
      }
    }
    expect(bad.slice(0, 3), `${bad.length} rates whose TTC column does not add up`).toEqual([]);
  });

  it("gives each line and charge part a base of its own sign, within a few cents of its TTC / (1 + rate)", () => {
    const bad: string[] = [];
    for (const item of noted) {
      const amounts = [
        ...item.note.lines.flatMap((line) => (line.vatRateBp === null ? [] : [{ rateBp: line.vatRateBp, totalCents: line.totalCents, baseCents: line.totalExclVatCents! }])),
        ...item.note.charges.flatMap((charge) => (charge.parts ?? []).map((part) => ({ rateBp: part.rateBp, totalCents: part.totalCents, baseCents: part.exclVatCents }))),
      ];
      for (const amount of amounts) {
        const exact = (amount.totalCents * 10_000) / (10_000 + amount.rateBp);
        if (Math.abs(amount.baseCents - exact) > 3 || Math.sign(amount.baseCents) * Math.sign(amount.totalCents) < 0) bad.push(`${labelOf(item)}: ${JSON.stringify(amount)}`);
      }
    }
    expect(bad.slice(0, 3), `${bad.length} bases far from their amounts`).toEqual([]);
  });
});
