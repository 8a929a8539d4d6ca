import { describe, expect, it } from "vitest";
import { expectedVat, splitByLargestRemainder } from "../../tests/support/expected-vat";
import type { InvoiceSnapshot } from "./invoice";
import { type InvoiceSource, buildInvoiceSnapshot } from "./invoice-snapshot";
import { EMPTY_IDENTITY } from "./shop-identity";
import { VAT_RATES_BP, type VatScheme } from "./vat";
import { allocateVat } from "./vat-allocation";
import { seeded } from "../../tests/support/seeded-random";

/**
 * Issue 51's property: for random orders (lines at 20 / 10 / 5,5 / 2,1 %, second-hand goods
 * under the margin scheme, delivery, insurance, a discount, the franchise or not), placed as the
 * checkout places them (allocateVat, its figures stored on the order and its lines) and invoiced
 * (buildInvoiceSnapshot), the invoice's VAT by rate is what the test works out on its own
 * (tests/support/expected-vat.ts: base = round(rate's TTC / (1 + rate)), VAT = TTC − base),
 * HT + VAT + margin-scheme goods = TTC exactly, and the lines' and charges' bases sum to each
 * rate's. The credit note of the whole order says the same, negated. A seeded generator (no
 * fast-check in the project): the same orders on every run, the seed and the order in the
 * message of a failure.
 */

const SEED = 20_261_127;
const RUNS = 1_500;

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

type Order = {
  lines: { name: string; unitPriceCents: number; quantity: number; rateBp: (typeof VAT_RATES_BP)[number]; scheme: VatScheme }[];
  discountCents: number;
  shippingCents: number | null;
  insuranceCents: number;
  franchise: boolean;
};

function randomOrder(random: () => number): Order {
  const pick = <T,>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
  const lines = Array.from({ length: 1 + Math.floor(random() * 7) }, (_, i) => ({
    name: `Article ${String.fromCharCode(65 + Math.floor(random() * 26))}${i}`,
    // From 0,01 € (a tiny line, whose VAT may round to nothing) to 400 €.
    unitPriceCents: random() < 0.1 ? 1 + Math.floor(random() * 20) : 50 + Math.floor(random() * 40_000),
    quantity: 1 + Math.floor(random() * (random() < 0.7 ? 2 : 6)),
    rateBp: pick(VAT_RATES_BP),
    scheme: (random() < 0.2 ? "margin" : "normal") as VatScheme,
  }));
  const goods = sum(lines.map((line) => line.unitPriceCents * line.quantity));
  const roll = random();
  // None, a part of the goods, or all of them (a code worth the whole cart).
  const discountCents = roll < 0.35 ? 0 : roll < 0.95 ? Math.floor(random() * goods * 0.6) : goods;
  return {
    lines,
    discountCents,
    // No delivery at all (an order from before delivery methods), a free one, or a priced one.
    shippingCents: random() < 0.15 ? null : random() < 0.15 ? 0 : 1 + Math.floor(random() * 2_500),
    insuranceCents: random() < 0.6 ? 0 : 50 + Math.floor(random() * 1_500),
    franchise: random() < 0.15,
  };
}

/** The order as the checkout stores it (services/checkout.server.ts), its lines in another order (the invoice's, by name). */
function placed(order: Order): { source: InvoiceSource; checkoutOrder: number[] } {
  const shipping = order.shippingCents ?? 0;
  const vat = allocateVat(
    order.lines.map((line) => ({ totalCents: line.unitPriceCents * line.quantity, vatRateBp: line.rateBp, vatScheme: line.scheme })),
    order.discountCents,
    shipping + order.insuranceCents,
    order.franchise,
  );
  const stored = order.lines.map((line, i) => ({
    name: line.name,
    quantity: line.quantity,
    unitPriceCents: line.unitPriceCents,
    discountShareCents: vat.lines[i]!.discountShareCents,
    vatCents: vat.lines[i]!.vatCents,
    vatRateBp: line.rateBp,
    vatScheme: line.scheme,
  }));
  const byName = stored.map((_, i) => i).sort((a, b) => (stored[a]!.name < stored[b]!.name ? -1 : stored[a]!.name > stored[b]!.name ? 1 : a - b));
  const goods = sum(order.lines.map((line) => line.unitPriceCents * line.quantity));
  return {
    checkoutOrder: byName,
    source: {
      order: {
        number: "CMD-2026-0001",
        createdAt: new Date("2026-11-26T23:10:00Z"),
        paidAt: new Date("2026-11-26T23:30:00Z"),
        customerName: "Élodie Lefèvre",
        customerEmail: "elodie@example.fr",
        paymentProvider: "stripe",
        shippingMethodName: order.shippingCents === null ? null : "Mondial Relay",
        shippingCents: shipping,
        insuranceCents: order.insuranceCents,
        discountCents: order.discountCents,
        discountCode: order.discountCents > 0 ? "CODE" : null,
        totalCents: goods - order.discountCents + shipping + order.insuranceCents,
        shippingAddress: null,
        vatRegime: order.franchise ? "franchise" : "normal",
        vatBreakdown: vat.breakdown,
      },
      lines: byName.map((i) => stored[i]!),
      seller: { ...EMPTY_IDENTITY, companyName: "Comptoir" },
    },
  };
}

/** What the test expects, worked out from the order's prices alone. */
function expected(order: Order) {
  const totals = order.lines.map((line) => line.unitPriceCents * line.quantity);
  const shares = splitByLargestRemainder(order.discountCents, totals);
  const nets = totals.map((total, i) => total - shares[i]!);
  const charges = (order.shippingCents ?? 0) + order.insuranceCents;
  const vat = expectedVat(
    order.lines.map((line, i) => ({ totalCents: nets[i]!, rateBp: line.rateBp, margin: line.scheme === "margin" })),
    charges,
  );
  const ttc = sum(nets) + charges;
  const margin = order.franchise ? 0 : sum(nets.filter((_, i) => order.lines[i]!.scheme === "margin"));
  return { nets, vat, ttc, margin };
}

function checkInvoice(snapshot: InvoiceSnapshot, order: Order, checkoutOrder: number[], context: string) {
  const { nets, vat, ttc, margin } = expected(order);
  const { totals } = snapshot;
  expect(totals.inclVatCents, context).toBe(ttc);
  // HT + VAT + margin-scheme goods = TTC, to the cent.
  expect(totals.exclVatCents + totals.vatCents + totals.marginSchemeCents, context).toBe(totals.inclVatCents);
  expect(totals.marginSchemeCents, context).toBe(margin);

  const lines = snapshot.lines.map((line, k) => ({ line, i: checkoutOrder[k]! }));
  for (const { line, i } of lines) expect(line.totalCents, context).toBe(nets[i]);

  if (order.franchise) {
    expect(snapshot.vatBreakdown, context).toEqual([]);
    expect(totals.vatCents, context).toBe(0);
    expect(totals.exclVatCents, context).toBe(ttc);
    for (const { line } of lines) expect([line.vatRateBp, line.unitPriceExclVatCents, line.totalExclVatCents], context).toEqual([null, null, null]);
    for (const charge of snapshot.charges) expect(charge.parts, context).toEqual([]);
    return;
  }

  // Per rate: base = round(TTC / (1 + rate)), VAT = TTC − base, as the test works them out.
  expect(snapshot.vatBreakdown, context).toEqual(vat.rows);
  expect(totals.vatCents, context).toBe(sum(vat.rows.map((row) => row.vatCents)));
  expect(totals.exclVatCents, context).toBe(sum(vat.rows.map((row) => row.baseCents)));

  for (const { line, i } of lines) {
    const source = order.lines[i]!;
    if (source.scheme === "margin") {
      expect([line.vatRateBp, line.unitPriceExclVatCents, line.totalExclVatCents], context).toEqual([null, null, null]);
      continue;
    }
    expect(line.vatRateBp, context).toBe(source.rateBp);
    // The line's VAT: its part of its rate's, as the test spreads the rate's base.
    expect(line.totalCents - line.totalExclVatCents!, context).toBe(vat.lineVatCents[i]);
    // Its unit price before VAT: within half a cent of the TTC price / (1 + rate).
    expect(Math.abs(line.unitPriceExclVatCents! - (source.unitPriceCents * 10_000) / (10_000 + source.rateBp)), context).toBeLessThanOrEqual(0.5);
  }

  // Each charge's parts sum to it; each rate's lines and charges sum to its row, TTC and before VAT.
  for (const charge of snapshot.charges) {
    expect(sum(charge.parts!.map((part) => part.totalCents)), context).toBe(charge.totalCents);
    for (const part of charge.parts!) expect(part.totalCents, context).toBeGreaterThan(0);
  }
  const parts = snapshot.charges.flatMap((charge) => charge.parts!);
  const rates = new Set([...lines.filter(({ line }) => line.vatRateBp !== null).map(({ line }) => line.vatRateBp!), ...parts.map((part) => part.rateBp)]);
  for (const rate of rates) {
    const row = snapshot.vatBreakdown.find((r) => r.rateBp === rate) ?? { baseCents: 0, totalCents: 0 };
    const atRate = lines.filter(({ line }) => line.vatRateBp === rate).map(({ line }) => line);
    const partsAt = parts.filter((part) => part.rateBp === rate);
    expect(sum(atRate.map((line) => line.totalExclVatCents!)) + sum(partsAt.map((part) => part.exclVatCents)), `${context} rate ${rate}`).toBe(row.baseCents);
    expect(sum(atRate.map((line) => line.totalCents)) + sum(partsAt.map((part) => part.totalCents)), `${context} rate ${rate}`).toBe(row.totalCents);
  }
}

/** A credit note's amounts are the invoice's, negated (0 stays 0). */
function negated(snapshot: InvoiceSnapshot) {
  const neg = (cents: number) => (cents === 0 ? 0 : -cents);
  const negOrNull = (cents: number | null | undefined) => (cents === null || cents === undefined ? cents : neg(cents));
  return {
    lines: snapshot.lines.map((line) => ({ ...line, unitPriceCents: neg(line.unitPriceCents), totalCents: neg(line.totalCents), unitPriceExclVatCents: negOrNull(line.unitPriceExclVatCents), totalExclVatCents: negOrNull(line.totalExclVatCents) })),
    charges: snapshot.charges.map((charge) => ({ ...charge, totalCents: neg(charge.totalCents), parts: charge.parts!.map((part) => ({ ...part, totalCents: neg(part.totalCents), exclVatCents: neg(part.exclVatCents) })) })),
    vatBreakdown: snapshot.vatBreakdown.map((row) => ({ rateBp: row.rateBp, baseCents: neg(row.baseCents), vatCents: neg(row.vatCents), totalCents: neg(row.totalCents) })),
    totals: { exclVatCents: neg(snapshot.totals.exclVatCents), vatCents: neg(snapshot.totals.vatCents), inclVatCents: neg(snapshot.totals.inclVatCents), marginSchemeCents: neg(snapshot.totals.marginSchemeCents) },
  };
}

describe("an invoice's VAT, over random orders", () => {
  it(`is worked out per rate on the rate's total, HT + VAT + margin-scheme goods = TTC (${RUNS} orders, seed ${SEED})`, () => {
    const random = seeded(SEED);
    const seen = { franchise: 0, margin: 0, discount: 0, insurance: 0, severalRates: 0, perRateDiffers: 0 };
    for (let run = 0; run < RUNS; run++) {
      const order = randomOrder(random);
      const context = `run ${run}: ${JSON.stringify(order)}`;
      const { source, checkoutOrder } = placed(order);
      const invoice = buildInvoiceSnapshot(source, { kind: "invoice", number: "F-2026-000001", issuedAt: new Date("2026-11-27T08:00:00Z") });
      checkInvoice(invoice, order, checkoutOrder, context);

      const creditNote = buildInvoiceSnapshot(source, { kind: "credit_note", number: "A-2026-000001", issuedAt: new Date("2026-12-02T08:00:00Z"), cancelsInvoice: invoice.number });
      expect({ lines: creditNote.lines, charges: creditNote.charges, vatBreakdown: creditNote.vatBreakdown, totals: creditNote.totals }, context).toEqual(negated(invoice));

      seen.franchise += Number(order.franchise);
      seen.margin += Number(order.lines.some((line) => line.scheme === "margin"));
      seen.discount += Number(order.discountCents > 0);
      seen.insurance += Number(order.insuranceCents > 0);
      seen.severalRates += Number(invoice.vatBreakdown.length > 1);
      // Orders whose VAT, rounded line by line (and charges' part by part) and summed, would have differed.
      const lineByLine = (ttc: number, rate: number) => Math.round((ttc * rate) / (10_000 + rate));
      const { nets } = expected(order);
      const differs = invoice.vatBreakdown.some((row) => {
        const goods = order.lines.flatMap((line, i) => (line.scheme === "normal" && line.rateBp === row.rateBp ? [nets[i]!] : []));
        return row.vatCents !== sum(goods.map((net) => lineByLine(net, row.rateBp))) + lineByLine(row.totalCents - sum(goods), row.rateBp);
      });
      seen.perRateDiffers += Number(!order.franchise && differs);
    }
    // The generator reaches every case the property is about.
    for (const [what, count] of Object.entries(seen)) expect(count, what).toBeGreaterThan(RUNS / 20);
  });
});
