import type { InvoiceChargePart, InvoiceLine, InvoiceSnapshot } from "./invoice";
import { formatParisDate } from "./paris-time";
import { type ChargeBucketPart, REFUND_ADJUSTMENT_LABELS, type RefundAdjustmentKind, type RefundLine } from "./partial-refund";
import { type InvoiceSource, buildInvoiceSnapshot } from "./invoice-snapshot";
import { type VatRateBp } from "./vat";
import { exclVatOf, splitProRata } from "./vat-allocation";
import { SIGNATURE_DELIVERY_LABEL } from "./signature-delivery";

/** A refund as its credit note prints it (services/partial-refunds.server.ts keeps it so). */
export type CreditedRefund = {
  amountCents: number;
  lines: RefundLine[];
  shippingParts: ChargeBucketPart[];
  insuranceParts: ChargeBucketPart[];
  adjustment: { kind: RefundAdjustmentKind; cents: number; reason: string; parts: ChargeBucketPart[] } | null;
  vatBreakdown: InvoiceSnapshot["vatBreakdown"];
  marginSchemeCents: number;
};

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/**
 * The credit note of a partial refund: the invoice's heading (seller, buyer, order), then only
 * what went back, every amount negated: the articles with their quantities, the delivery's and an
 * adjustment's parts by rate, the refund's VAT by rate (computed on each rate's total, as the
 * invoice's), the margin-scheme goods apart. Each rate's base is spread over its amounts in
 * proportion (a deduction, of the other sign, takes its own base first), so the HT column adds up.
 */
export function buildRefundCreditNote(
  source: InvoiceSource,
  refund: CreditedRefund,
  document: { number: string; issuedAt: Date; invoiceNumber: string },
): InvoiceSnapshot {
  const head = buildInvoiceSnapshot(source, { kind: "credit_note", number: document.number, issuedAt: document.issuedAt, cancelsInvoice: document.invoiceNumber });
  const neg = (cents: number) => (cents === 0 ? 0 : -cents);
  const franchise = source.order.vatRegime === "franchise";
  const adjustmentParts = refund.adjustment?.parts ?? [];
  // Each rate's base: a deduction's own (its parts, negative, each on its own), the rest over the positive amounts.
  const positive: { key: string; rateBp: VatRateBp; cents: number }[] = [
    ...refund.lines.flatMap((line, i) => (line.rateBp !== null ? [{ key: `l${i}`, rateBp: line.rateBp, cents: line.totalCents }] : [])),
    ...refund.shippingParts.flatMap((part, i) => (typeof part.bucket === "number" ? [{ key: `s${i}`, rateBp: part.bucket, cents: part.totalCents }] : [])),
    ...refund.insuranceParts.flatMap((part, i) => (typeof part.bucket === "number" ? [{ key: `i${i}`, rateBp: part.bucket, cents: part.totalCents }] : [])),
    ...adjustmentParts.flatMap((part, i) => (typeof part.bucket === "number" && part.totalCents > 0 ? [{ key: `a${i}`, rateBp: part.bucket, cents: part.totalCents }] : [])),
  ];
  const bases = new Map<string, number>();
  adjustmentParts.forEach((part, i) => {
    if (typeof part.bucket === "number" && part.totalCents < 0) bases.set(`a${i}`, exclVatOf(part.totalCents, part.bucket));
  });
  // A rate whose TTC is all given back may still owe a cent of base against one of VAT (each
  // refund's VAT is its rate's total's): printed as a rounding line of 0 TTC, so the HT column adds up.
  const rounding: InvoiceChargePart[] = [];
  for (const row of refund.vatBreakdown) {
    const at = positive.filter((amount) => amount.rateBp === row.rateBp);
    const deductedHere = adjustmentParts.some((part) => part.bucket === row.rateBp && part.totalCents < 0);
    if (at.length === 0 && !deductedHere && row.baseCents !== 0) rounding.push({ rateBp: row.rateBp, totalCents: 0, exclVatCents: neg(row.baseCents) });
    const deducted = sum(adjustmentParts.flatMap((part, i) => (part.bucket === row.rateBp && part.totalCents < 0 ? [bases.get(`a${i}`)!] : [])));
    splitProRata(row.baseCents - deducted, at.map((amount) => amount.cents)).forEach((base, k) => bases.set(at[k]!.key, base));
  }
  const lines: InvoiceLine[] = refund.lines.map((line, i) => {
    const shown = line.rateBp !== null && !franchise;
    return {
      name: line.name,
      quantity: line.quantity,
      unitPriceCents: neg(line.unitPriceCents),
      totalCents: neg(line.totalCents),
      vatRateBp: shown ? line.rateBp : null,
      vatScheme: line.vatScheme,
      unitPriceExclVatCents: shown ? neg(exclVatOf(line.unitPriceCents, line.rateBp!)) : null,
      totalExclVatCents: shown ? neg(bases.get(`l${i}`) ?? 0) : null,
    };
  });
  const partsOf = (parts: readonly ChargeBucketPart[], prefix: string): InvoiceChargePart[] =>
    parts.flatMap((part, i) => (typeof part.bucket === "number" ? [{ rateBp: part.bucket, totalCents: neg(part.totalCents), exclVatCents: neg(bases.get(`${prefix}${i}`) ?? 0) }] : []));
  const delivery = head.charges.find((charge) => charge.label.startsWith("Livraison"));
  const charges: InvoiceSnapshot["charges"] = [
    ...(refund.shippingParts.length ? [{ label: delivery?.label ?? "Livraison", totalCents: neg(sum(refund.shippingParts.map((p) => p.totalCents))), parts: partsOf(refund.shippingParts, "s") }] : []),
    ...(refund.insuranceParts.length ? [{ label: SIGNATURE_DELIVERY_LABEL, totalCents: neg(sum(refund.insuranceParts.map((p) => p.totalCents))), parts: partsOf(refund.insuranceParts, "i") }] : []),
    ...(refund.adjustment
      ? [{ label: `${REFUND_ADJUSTMENT_LABELS[refund.adjustment.kind]} : ${refund.adjustment.reason}`, totalCents: neg(refund.adjustment.cents), parts: partsOf(adjustmentParts, "a") }]
      : []),
    ...(rounding.length ? [{ label: "Régularisation d'arrondi de TVA", totalCents: 0, parts: rounding }] : []),
  ];
  const vatBreakdown = refund.vatBreakdown.map((row) => ({ rateBp: row.rateBp, baseCents: neg(row.baseCents), vatCents: neg(row.vatCents), totalCents: neg(row.totalCents) }));
  const inclVatCents = neg(refund.amountCents);
  const marginSchemeCents = neg(refund.marginSchemeCents);
  return {
    ...head,
    partial: true,
    lines,
    charges,
    discount: null,
    vatBreakdown,
    totals: {
      exclVatCents: franchise ? inclVatCents : sum(vatBreakdown.map((row) => row.baseCents)),
      vatCents: sum(vatBreakdown.map((row) => row.vatCents)),
      inclVatCents,
      marginSchemeCents,
    },
    mentions: head.mentions.map((mention) =>
      mention.startsWith("Avoir remboursé")
        ? `Avoir partiel sur la facture ${document.invoiceNumber}, remboursé le ${formatParisDate(document.issuedAt)} sur le moyen de paiement d'origine.`
        : mention,
    ).filter((mention) => marginSchemeCents !== 0 || !mention.startsWith("Régime particulier")),
  };
}
