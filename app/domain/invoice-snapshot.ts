import { type InvoiceLine, type InvoiceSnapshot, FRANCHISE_MENTION, MARGIN_SCHEME_MENTION, type VatBreakdownRow } from "./invoice";
import type { ShippingAddress } from "./order-view";
import { formatParisDate } from "./paris-time";
import { countryName } from "./shipping-countries";
import { type LegalIdentity, legalFormLabel } from "./shop-identity";
import type { VatRateBp, VatScheme } from "./vat";

/** What an invoice is made from: the order as it was paid, its lines and the seller's identity then. */
export type InvoiceSource = {
  order: {
    number: string;
    createdAt: Date;
    paidAt: Date | null;
    customerName: string | null;
    customerEmail: string | null;
    paymentProvider: string;
    shippingMethodName: string | null;
    shippingCents: number;
    insuranceCents: number;
    discountCents: number;
    discountCode: string | null;
    totalCents: number;
    shippingAddress: ShippingAddress | null;
    vatRegime: "normal" | "franchise";
    vatBreakdown: VatBreakdownRow[];
  };
  lines: { name: string; quantity: number; unitPriceCents: number; discountShareCents: number; vatRateBp: number; vatScheme: VatScheme }[];
  seller: LegalIdentity;
};

export function addressLines(address: ShippingAddress | null): string[] {
  if (!address) return [];
  const place = [`${address.postalCode} ${address.city}`.trim(), countryName(address.country)];
  if (address.method === "relay") {
    const point = address.relayPointId ? `${address.relayPointName} (n° ${address.relayPointId})` : (address.relayPointName ?? "");
    return [`Point relais : ${point}`, address.line1, ...(address.line2 ? [address.line2] : []), ...place];
  }
  return [address.fullName, address.line1, ...(address.line2 ? [address.line2] : []), ...place].filter(Boolean);
}

/** The payment method as the invoices and the receipts book name it. */
export function paymentMethodOf(provider: string): string {
  return provider === "stripe" ? "Carte bancaire (Stripe)" : "Carte bancaire (paiement de test)";
}

/**
 * The frozen content of an invoice (kind "invoice") or of the credit note that cancels it (every
 * amount negated). Pure: the service takes the number in the paid transaction and stores this.
 */
export function buildInvoiceSnapshot(
  source: InvoiceSource,
  document: { kind: "invoice" | "credit_note"; number: string; issuedAt: Date; cancelsInvoice?: string | null },
): InvoiceSnapshot {
  const sign = document.kind === "credit_note" ? -1 : 1;
  const { order, seller } = source;
  const franchise = order.vatRegime === "franchise";
  const lines: InvoiceLine[] = source.lines.map((line) => ({
    name: line.name,
    quantity: line.quantity,
    unitPriceCents: sign * line.unitPriceCents,
    totalCents: sign * (line.unitPriceCents * line.quantity - line.discountShareCents),
    vatRateBp: franchise || line.vatScheme === "margin" ? null : (line.vatRateBp as VatRateBp),
    vatScheme: line.vatScheme,
  }));
  const charges = [
    ...(order.shippingMethodName ? [{ label: `Livraison – ${order.shippingMethodName}`, totalCents: sign * order.shippingCents }] : []),
    ...(order.insuranceCents > 0 ? [{ label: "Assurance colis", totalCents: sign * order.insuranceCents }] : []),
  ];
  const vatBreakdown = franchise ? [] : order.vatBreakdown.map((row) => ({ rateBp: row.rateBp, baseCents: sign * row.baseCents, vatCents: sign * row.vatCents, totalCents: sign * row.totalCents }));
  const vatCents = vatBreakdown.reduce((sum, row) => sum + row.vatCents, 0);
  const marginSchemeCents = lines.filter((line) => line.vatScheme === "margin").reduce((sum, line) => sum + line.totalCents, 0);
  const inclVatCents = sign * order.totalCents;
  const mentions = [
    ...(franchise ? [FRANCHISE_MENTION] : []),
    ...(!franchise && marginSchemeCents !== 0 ? [`${MARGIN_SCHEME_MENTION} (articles marqués « Occasion »)`] : []),
    document.kind === "invoice"
      ? order.paidAt
        ? `Facture acquittée le ${formatParisDate(order.paidAt)} par carte bancaire.`
        : "Facture à régler par carte bancaire."
      : `Avoir remboursé le ${formatParisDate(document.issuedAt)} sur le moyen de paiement d'origine.`,
    "Prix en euros, toutes taxes comprises. Garantie légale de conformité (art. L217-3 et suivants du Code de la consommation) et garantie des vices cachés (art. 1641 et suivants du Code civil).",
  ];
  const rcs = [seller.rcsCity ? `RCS ${seller.rcsCity}` : "", seller.rcsNumber].filter(Boolean).join(" ");
  return {
    kind: document.kind,
    number: document.number,
    issuedAt: document.issuedAt.toISOString(),
    cancelsInvoice: document.cancelsInvoice ?? null,
    orderNumber: order.number,
    orderedAt: order.createdAt.toISOString(),
    paidAt: order.paidAt?.toISOString() ?? null,
    paymentMethod: paymentMethodOf(order.paymentProvider),
    seller: {
      name: seller.companyName,
      legalForm: seller.legalForm ? legalFormLabel(seller.legalForm) : "",
      shareCapital: seller.shareCapital,
      address: seller.address,
      siren: seller.siren,
      rcs,
      vatNumber: seller.vatNumber,
      email: seller.email,
      phone: seller.phone,
    },
    buyer: {
      name: order.customerName ?? order.shippingAddress?.fullName ?? "",
      email: order.customerEmail ?? "",
      addressLines: order.shippingAddress?.method === "relay" ? [] : addressLines(order.shippingAddress),
    },
    delivery: order.shippingMethodName ? { methodName: order.shippingMethodName, addressLines: addressLines(order.shippingAddress) } : null,
    lines,
    charges,
    discount: order.discountCents > 0 ? { code: order.discountCode, cents: sign * order.discountCents } : null,
    vatBreakdown,
    totals: { exclVatCents: inclVatCents - vatCents, vatCents, inclVatCents, marginSchemeCents },
    vatRegime: order.vatRegime,
    mentions,
  };
}
