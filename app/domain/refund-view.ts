import { formatEuros } from "./money";
import { REFUND_ADJUSTMENT_LABELS, type RefundAdjustmentKind, type RefundLine, type RefundStatus } from "./partial-refund";
import { SIGNATURE_DELIVERY_LABEL } from "./signature-delivery";

/** One refund of an order, whole or partial, as the order pages show it (the seller's and the customer's). */
export type RefundView = {
  id: string;
  /** ISO date-times. */
  createdAt: string;
  refundedAt: string | null;
  status: RefundStatus;
  amountCents: number;
  /** The part given back as store credit (an order paid partly by it); the rest went to the card. */
  storeCreditCents: number;
  creditNoteNumber: string | null;
  /** "2 × Booster…", "Livraison : 3,99 €", "Geste commercial : 5,00 € (motif)". */
  parts: string[];
};

type RefundRow = {
  id: string;
  createdAt: Date;
  refundedAt: Date | null;
  status: RefundStatus;
  amountCents: number;
  storeCreditCents: number;
  creditNoteNumber: string | null;
  lines: readonly Pick<RefundLine, "name" | "quantity" | "restock">[];
  shippingCents: number;
  insuranceCents: number;
  adjustmentKind: RefundAdjustmentKind | null;
  adjustmentCents: number;
  reason: string | null;
};

/** A refund row as shown; `restockNotes` adds "(remis en stock)" to its articles (the seller's page). */
export function refundView(refund: RefundRow, options: { restockNotes: boolean }): RefundView {
  return {
    id: refund.id,
    createdAt: refund.createdAt.toISOString(),
    refundedAt: refund.refundedAt?.toISOString() ?? null,
    status: refund.status,
    amountCents: refund.amountCents,
    storeCreditCents: refund.storeCreditCents,
    creditNoteNumber: refund.creditNoteNumber,
    parts: [
      ...refund.lines.map((line) => `${line.quantity} × ${line.name}${options.restockNotes && line.restock ? " (remis en stock)" : ""}`),
      ...(refund.shippingCents ? [`Livraison : ${formatEuros(refund.shippingCents)}`] : []),
      ...(refund.insuranceCents ? [`${SIGNATURE_DELIVERY_LABEL} : ${formatEuros(refund.insuranceCents)}`] : []),
      ...(refund.adjustmentKind ? [`${REFUND_ADJUSTMENT_LABELS[refund.adjustmentKind]} : ${formatEuros(refund.adjustmentCents)} (${refund.reason ?? ""})`] : []),
    ],
  };
}
