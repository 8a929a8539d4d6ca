import { type InvoiceChargePart, type InvoiceLine, type InvoiceSnapshot, BUSINESS_MENTIONS, FRANCHISE_MENTION, INTRA_EU_EXEMPTION_MENTION, INVOICE_LAYOUT, MARGIN_SCHEME_MENTION, type VatBreakdownRow } from "./invoice";
import { type BillingAddress, type ShippingAddress, billingAddressLines } from "./order-view";
import { formatParisDate } from "./paris-time";
import { countryName } from "./shipping-countries";
import { type LegalIdentity, isIndividualEntrepreneur, legalFormLabel, sellerName, sellerRegistration } from "./shop-identity";
import { isStoredVatRateBp, type VatRegime, type VatScheme } from "./vat";
import { type ChargePart, type NetLine, allocateNetVat, chargesByRate, exclVatOf } from "./vat-allocation";
import { SIGNATURE_DELIVERY_LABEL } from "./signature-delivery";
import { formatEuros } from "./money";
import { preorderLineNote } from "./preorder-dates";
import { paymentParts } from "./store-credit";
import type { BusinessPurchase } from "./business-purchase";

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
    /** Paid from the customer's store credit (issue 54); absent or 0: none. A means of payment: the totals are the same. */
    storeCreditCents?: number;
    shippingAddress: ShippingAddress | null;
    /** « Facturé à » (issue 51); null or absent on orders from before: the delivery address stands in, none for a relay point. */
    billingAddress?: BillingAddress | null;
    vatRegime: VatRegime;
    vatBreakdown: VatBreakdownRow[];
    /** The country whose VAT the order carries (absent on orders from before: France). */
    vatCountry?: string;
    /** An "Achat professionnel" (issue 53); null or absent for a consumer. */
    businessBuyer?: BusinessPurchase | null;
  };
  /** As stored at checkout: the discount's share and the VAT of each line (vat-allocation.ts). */
  lines: { name: string; quantity: number; unitPriceCents: number; discountShareCents: number; vatCents: number; vatRateBp: number; vatScheme: VatScheme; preorderReleaseOn?: string | null; preorderDeliveryOn?: string | null }[];
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

/** « par carte bancaire », or the parts of a payment made partly or wholly by store credit (« Payé par avoir : X »). */
function paidHow(order: { totalCents: number; storeCreditCents?: number }): string {
  const parts = paymentParts(order);
  if (parts.length === 0) return "par carte bancaire";
  return parts.map((part) => `${part.label.toLowerCase()} : ${formatEuros(part.cents)}`).join(", ").replace(/^payé/, "— Payé");
}

/** The payment method as the invoices and the receipts book name it. */
export function paymentMethodOf(provider: string): string {
  return provider === "stripe" ? "Carte bancaire (Stripe)" : "Carte bancaire (paiement de test)";
}

/** The same, for an order its store credit paid in part (« Avoir et carte bancaire… ») or in full (« Avoir »). */
export function paymentMethodWithCredit(provider: string, order: { totalCents: number; storeCreditCents?: number }): string {
  const credit = order.storeCreditCents ?? 0;
  if (credit <= 0) return paymentMethodOf(provider);
  return credit >= order.totalCents ? "Avoir" : `Avoir et ${paymentMethodOf(provider).toLowerCase()}`;
}

export type DocumentVat = {
  /** Each line's part of its rate's base; null where no VAT is shown. */
  lineExclVat: (number | null)[];
  /** The delivery's, then the insurance's parts by rate. */
  chargeParts: ChargePart[][];
  breakdown: VatBreakdownRow[];
  marginSchemeCents: number;
};

/**
 * The VAT a document shows, from what the order stored when it was placed: its breakdown by rate
 * and each line's VAT (the lines' bases are their totals less it), the charges taking the rest of
 * each rate (its total less the goods', its base less the goods'). The document and the order
 * (its page, the receipts book, the dashboard) so say the same, to the cent, whatever rule the
 * order was placed under (docs/decisions/032). Stored figures that do not add up (none should) are
 * set aside and the rule computes them again from the lines.
 */
export function orderVatView(order: Pick<InvoiceSource["order"], "shippingCents" | "insuranceCents" | "vatRegime" | "vatBreakdown">, lines: readonly (NetLine & { vatCents: number })[]): DocumentVat {
  const charges = [order.shippingCents, order.insuranceCents];
  const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
  const computed = (): DocumentVat => {
    const franchise = order.vatRegime === "franchise";
    const vat = allocateNetVat(lines, sum(charges), franchise);
    const chargeParts = franchise ? charges.map(() => []) : chargesByRate(charges, vat.chargesVat);
    return { lineExclVat: vat.lines.map((line) => line.exclVatCents), chargeParts, breakdown: vat.breakdown, marginSchemeCents: vat.marginSchemeCents };
  };
  if (order.vatRegime === "franchise") return computed();

  const taxed = (line: NetLine) => line.vatScheme === "normal";
  const rows = order.vatBreakdown;
  const goodsAt = (rateBp: number, amount: (line: (typeof lines)[number]) => number) => sum(lines.filter((line) => taxed(line) && line.vatRateBp === rateBp).map(amount));
  const chargesVat = rows.map((row) => {
    const totalCents = row.totalCents - goodsAt(row.rateBp, (line) => line.netCents);
    const baseCents = row.baseCents - goodsAt(row.rateBp, (line) => line.netCents - line.vatCents);
    return { rateBp: row.rateBp, baseCents, vatCents: totalCents - baseCents, totalCents };
  });
  // Within 2 cents of TTC / (1 + rate): the base of a line or of the charges at a rate, by either rule.
  const near = (baseCents: number, totalCents: number, rateBp: number) => Math.abs(baseCents - (totalCents * 10_000) / (10_000 + rateBp)) < 2;
  const addsUp =
    rows.every((row) => isStoredVatRateBp(row.rateBp) && row.baseCents + row.vatCents === row.totalCents) &&
    new Set(rows.map((row) => row.rateBp)).size === rows.length &&
    lines.every((line) => !taxed(line) || line.netCents === 0 || rows.some((row) => row.rateBp === line.vatRateBp)) &&
    lines.every((line) => (taxed(line) ? near(line.netCents - line.vatCents, line.netCents, line.vatRateBp) : line.vatCents === 0)) &&
    chargesVat.every((row) => row.totalCents >= 0 && near(row.baseCents, row.totalCents, row.rateBp) && (row.totalCents !== 0 || row.baseCents === 0)) &&
    sum(chargesVat.map((row) => row.totalCents)) === sum(charges);
  if (!addsUp) return computed();
  return {
    lineExclVat: lines.map((line) => (taxed(line) ? line.netCents - line.vatCents : null)),
    chargeParts: chargesByRate(
      charges,
      chargesVat.filter((row) => row.totalCents !== 0),
    ),
    breakdown: [...rows].sort((a, b) => b.rateBp - a.rateBp),
    marginSchemeCents: sum(lines.filter((line) => !taxed(line)).map((line) => line.netCents)),
  };
}

const CONSUMER_GUARANTEES =
  "Montants en euros. Garantie légale de conformité (art. L217-3 et suivants du Code de la consommation) et garantie des vices cachés (art. 1641 et suivants du Code civil).";

/**
 * A distance sale taxed in the buyer's member state (docs/decisions/046): the rates on the lines
 * are that country's, and the document says so.
 */
export function destinationVatMention(country: string): string {
  return `TVA ${countryWithArticle(country)} appliquée aux taux de ce pays : vente à distance intracommunautaire (art. 258 A et 259 B du CGI), déclarée au guichet unique (OSS).`;
}

/**
 * An exempt intra-EU supply of goods (docs/decisions/054): the exemption and both VAT numbers,
 * which CGI annexe II art. 242 nonies A asks on its invoice (also printed in the parties' blocks).
 */
export function intraEuExemptionMention(sellerVatNumber: string, buyerVatNumber: string): string {
  return `${INTRA_EU_EXEMPTION_MENTION} : livraison intracommunautaire de biens. N° de TVA du vendeur : ${sellerVatNumber.trim()} ; n° de TVA de l'acquéreur : ${buyerVatNumber}.`;
}

/** "de Belgique", "d'Allemagne", "des Pays-Bas", "du Luxembourg". */
function countryWithArticle(country: string): string {
  const name = countryName(country);
  if (name === "Pays-Bas") return "des Pays-Bas";
  if (["Luxembourg", "Danemark", "Portugal"].includes(name)) return `du ${name}`;
  return /^[AEIOUÉ]/.test(name) ? `d'${name}` : `de ${name}`;
}

/**
 * The frozen content of an invoice (kind "invoice") or of the credit note that cancels it (every
 * amount negated), in the current layout (INVOICE_LAYOUT): per line its unit price and total
 * before VAT and its rate (a margin-scheme line its TTC price, no rate), the delivery and the
 * insurance with their parts by rate, the VAT by rate as the order stored it, the margin-scheme
 * goods apart from "Total HT". Pure: the service takes the number in the paid transaction and
 * stores this.
 */
export function buildInvoiceSnapshot(
  source: InvoiceSource,
  document: { kind: "invoice" | "credit_note"; number: string; issuedAt: Date; cancelsInvoice?: string | null },
): InvoiceSnapshot {
  const sign = document.kind === "credit_note" ? -1 : 1;
  // Negated on a credit note, never a "-0" (which JSON and the tests tell from 0).
  const signed = (cents: number) => (cents === 0 ? 0 : sign * cents);
  const { order, seller } = source;
  const franchise = order.vatRegime === "franchise";
  const destination = order.vatCountry && order.vatCountry !== "FR" ? order.vatCountry : null;
  const nets = source.lines.map((line) => ({
    netCents: line.unitPriceCents * line.quantity - line.discountShareCents,
    vatRateBp: isStoredVatRateBp(line.vatRateBp) ? line.vatRateBp : 2000,
    vatScheme: line.vatScheme,
    vatCents: line.vatCents,
  }));
  const vat = orderVatView(order, nets);
  const lines: InvoiceLine[] = source.lines.map((line, i) => {
    const excl = vat.lineExclVat[i];
    const shown = excl !== null && excl !== undefined;
    const note = preorderLineNote({ preorderReleaseOn: line.preorderReleaseOn ?? null, preorderDeliveryOn: line.preorderDeliveryOn ?? null });
    return {
      name: line.name,
      ...(note ? { note } : {}),
      quantity: line.quantity,
      unitPriceCents: signed(line.unitPriceCents),
      totalCents: signed(nets[i]!.netCents),
      vatRateBp: shown ? nets[i]!.vatRateBp : null,
      vatScheme: line.vatScheme,
      unitPriceExclVatCents: shown ? signed(exclVatOf(line.unitPriceCents, nets[i]!.vatRateBp)) : null,
      totalExclVatCents: shown ? signed(excl) : null,
    };
  });
  const partsOf = (parts: readonly ChargePart[] | undefined): InvoiceChargePart[] =>
    (parts ?? []).map((part) => ({ rateBp: part.rateBp, totalCents: signed(part.totalCents), exclVatCents: signed(part.exclVatCents) }));
  const charges = [
    ...(order.shippingMethodName || order.shippingCents > 0
      ? [{ label: order.shippingMethodName ? `Livraison – ${order.shippingMethodName}` : "Livraison", totalCents: signed(order.shippingCents), parts: partsOf(vat.chargeParts[0]) }]
      : []),
    ...(order.insuranceCents > 0 ? [{ label: SIGNATURE_DELIVERY_LABEL, totalCents: signed(order.insuranceCents), parts: partsOf(vat.chargeParts[1]) }] : []),
  ];
  const vatBreakdown = vat.breakdown.map((row) => ({ rateBp: row.rateBp, baseCents: signed(row.baseCents), vatCents: signed(row.vatCents), totalCents: signed(row.totalCents) }));
  const vatCents = vatBreakdown.reduce((sum, row) => sum + row.vatCents, 0);
  const marginSchemeCents = signed(vat.marginSchemeCents);
  const inclVatCents = signed(order.totalCents);
  const exclVatCents = franchise ? inclVatCents : vatBreakdown.reduce((sum, row) => sum + row.baseCents, 0);
  const business = order.businessBuyer ?? null;
  const mentions = [
    ...(business ? [BUSINESS_MENTIONS.operation] : []),
    ...(franchise ? [FRANCHISE_MENTION] : []),
    ...(marginSchemeCents !== 0 ? [`${MARGIN_SCHEME_MENTION} (articles marqués « Occasion »)`] : []),
    ...(destination ? [destinationVatMention(destination)] : []),
    ...(order.vatRegime === "intra_eu_exempt" ? [intraEuExemptionMention(seller.vatNumber, business?.vatNumber ?? "")] : []),
    document.kind === "invoice"
      ? order.paidAt
        ? `Facture acquittée le ${formatParisDate(order.paidAt)} ${paidHow(order)}.`
        : "Facture à régler par carte bancaire."
      : `Avoir remboursé le ${formatParisDate(document.issuedAt)} sur le moyen de paiement d'origine.`,
    ...(business ? [BUSINESS_MENTIONS.terms, BUSINESS_MENTIONS.penalties, BUSINESS_MENTIONS.indemnity, BUSINESS_MENTIONS.guarantee] : [CONSUMER_GUARANTEES]),
  ];
  const buyer: InvoiceSnapshot["buyer"] = order.billingAddress
    ? { name: order.billingAddress.fullName, email: order.customerEmail ?? "", addressLines: billingAddressLines(order.billingAddress) }
    : {
        name: order.customerName ?? order.shippingAddress?.fullName ?? "",
        email: order.customerEmail ?? "",
        addressLines: order.shippingAddress?.method === "relay" ? [] : addressLines(order.shippingAddress),
      };
  // The company's country is its billing address's (the payment page asks it there); the cart's before it was given.
  if (business) buyer.business = { companyName: business.companyName, siren: business.siren, vatNumber: business.vatNumber, country: order.billingAddress?.country ?? business.country };
  return {
    layout: INVOICE_LAYOUT,
    kind: document.kind,
    number: document.number,
    issuedAt: document.issuedAt.toISOString(),
    cancelsInvoice: document.cancelsInvoice ?? null,
    orderNumber: order.number,
    orderedAt: order.createdAt.toISOString(),
    paidAt: order.paidAt?.toISOString() ?? null,
    paymentMethod: paymentMethodWithCredit(order.paymentProvider, order),
    seller: {
      // "Jeanne Martin EI": the name already carries an entrepreneur individuel's form.
      name: sellerName(seller),
      legalForm: seller.legalForm && !isIndividualEntrepreneur(seller) ? legalFormLabel(seller.legalForm) : "",
      shareCapital: seller.shareCapital,
      address: seller.address,
      siren: seller.siren,
      rcs: sellerRegistration(seller),
      vatNumber: seller.vatNumber,
      email: seller.email,
      phone: seller.phone,
    },
    buyer,
    delivery: order.shippingMethodName ? { methodName: order.shippingMethodName, addressLines: addressLines(order.shippingAddress) } : null,
    lines,
    charges,
    discount: order.discountCents > 0 ? { code: order.discountCode, cents: signed(order.discountCents) } : null,
    vatBreakdown,
    totals: { exclVatCents, vatCents, inclVatCents, marginSchemeCents },
    vatRegime: order.vatRegime,
    ...(destination ? { vatCountry: destination } : {}),
    mentions,
  };
}
