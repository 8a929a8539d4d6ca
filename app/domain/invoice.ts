import type { BusinessBuyer } from "./business-buyer";
import type { VatRateBp, VatRegime, VatScheme } from "./vat";

/**
 * What an invoice or a credit note says, frozen when it is issued (services/invoices.server.ts):
 * the PDF is made from this and nothing else, so a later change to the shop's identity, a
 * product or the order never changes a document already issued (CGI art. 242 nonies A).
 */
export type InvoiceLine = {
  name: string;
  /** Under the name: a pre-order's dates as agreed when ordering (issue 55); absent otherwise. */
  note?: string;
  quantity: number;
  /** TTC, before the discount. */
  unitPriceCents: number;
  /** TTC after the line's share of the discount. */
  totalCents: number;
  /** Null under the margin scheme or the franchise: no VAT shown on the line. */
  vatRateBp: VatRateBp | null;
  vatScheme: VatScheme;
  /**
   * Layout 2: the unit price before VAT (before the discount), and the line's part of its rate's
   * base (after its share of the discount); null where no VAT is shown (margin scheme, franchise).
   */
  unitPriceExclVatCents?: number | null;
  totalExclVatCents?: number | null;
};

/** Layout 2: a charge's part at a rate, TTC and before VAT (its part of the rate's base). */
export type InvoiceChargePart = { rateBp: VatRateBp; totalCents: number; exclVatCents: number };

export type VatBreakdownRow = { rateBp: VatRateBp; baseCents: number; vatCents: number; totalCents: number };

export type InvoiceSnapshot = {
  /**
   * 2 (INVOICE_LAYOUT): unit prices and totals before VAT per line, the charges by rate, the VAT
   * of each rate's total, the margin-scheme goods outside "Total HT", the date of the sale.
   * Absent: a document issued before (docs/decisions/032), printed as it was issued.
   */
  layout?: typeof INVOICE_LAYOUT;
  kind: "invoice" | "credit_note";
  number: string;
  /** ISO date-time. */
  issuedAt: string;
  /** A credit note cancels this invoice (or, `partial`, refunds part of it). */
  cancelsInvoice: string | null;
  /** A credit note of a partial refund: it lists what went back, not the whole invoice. */
  partial?: boolean;
  orderNumber: string;
  orderedAt: string;
  paidAt: string | null;
  paymentMethod: string;
  seller: { name: string; legalForm: string; shareCapital: string; address: string; siren: string; rcs: string; vatNumber: string; email: string; phone: string };
  /**
   * `business`: an "Achat professionnel" (issue 53), with `country` its billing address's ISO
   * code; absent on a consumer's invoice, which carries no B2B mention.
   */
  buyer: { name: string; email: string; addressLines: string[]; business?: BusinessBuyer & { country: string } };
  delivery: { methodName: string; addressLines: string[] } | null;
  lines: InvoiceLine[];
  /**
   * Delivery (and parcel insurance) TTC, each its own line; layout 2 adds its parts by rate (the
   * charges follow the goods' rates), none under the franchise or for a charge of nothing.
   */
  charges: { label: string; totalCents: number; parts?: InvoiceChargePart[] }[];
  discount: { code: string | null; cents: number } | null;
  vatBreakdown: VatBreakdownRow[];
  /**
   * Signed: negative on a credit note. Layout 2: HT the bases' sum, so HT + VAT + margin-scheme
   * goods = TTC (under the franchise, HT = TTC: no VAT, no margin apart); before it, HT was TTC − VAT.
   */
  totals: { exclVatCents: number; vatCents: number; inclVatCents: number; marginSchemeCents: number };
  vatRegime: VatRegime;
  /** A distance sale taxed in the buyer's member state: its code (docs/decisions/046); absent for French VAT. */
  vatCountry?: string;
  /** The legal mentions printed under the totals. */
  mentions: string[];
};

/** The layout of the documents issued now (InvoiceSnapshot.layout). */
export const INVOICE_LAYOUT = 2;

export const FRANCHISE_MENTION = "TVA non applicable, art. 293 B du CGI";
export const MARGIN_SCHEME_MENTION = "Régime particulier – Biens d'occasion";
/** An intra-EU supply of goods to a business of another member state (docs/decisions/054). */
export const INTRA_EU_EXEMPTION_MENTION = "Exonération de TVA, article 262 ter I du CGI";

/**
 * The mentions of an invoice to a professional buyer (issue 53, Code de commerce L441-9 and
 * L441-10, D441-5; CGI annexe II art. 242 nonies A), docs/decisions/050. The shop is paid by card
 * at the order: no term, no discount for early payment; the penalty rate is the lowest the
 * parties may set (three times the legal rate), due from the day after the payment date.
 */
export const BUSINESS_MENTIONS = {
  operation: "Catégorie de l'opération : livraison de biens.",
  terms: "Conditions de paiement : comptant, à la commande. Pas d'escompte pour paiement anticipé.",
  penalties: "Pénalités de retard : trois fois le taux d'intérêt légal, exigibles dès le jour suivant la date de règlement, sans qu'un rappel soit nécessaire (art. L441-10 du Code de commerce).",
  indemnity: "Indemnité forfaitaire pour frais de recouvrement : 40 € (art. L441-10 et D441-5 du Code de commerce).",
  /** Replaces the consumer's guarantees line: the Code de la consommation's guarantee is for consumers only. */
  guarantee: "Montants en euros. Garantie des vices cachés (art. 1641 et suivants du Code civil).",
} as const;

/** F-2026-000042, A-2026-000007: one continuous sequence per kind, the year for the reader. */
export function documentNumber(kind: "invoice" | "credit_note", year: number, sequence: number): string {
  return `${kind === "invoice" ? "F" : "A"}-${year}-${String(sequence).padStart(6, "0")}`;
}
