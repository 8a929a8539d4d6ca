import type { VatRateBp, VatScheme } from "./vat";

/**
 * What an invoice or a credit note says, frozen when it is issued (services/invoices.server.ts):
 * the PDF is made from this and nothing else, so a later change to the shop's identity, a
 * product or the order never changes a document already issued (CGI art. 242 nonies A).
 */
export type InvoiceLine = {
  name: string;
  quantity: number;
  /** TTC, before the discount. */
  unitPriceCents: number;
  /** TTC after the line's share of the discount. */
  totalCents: number;
  /** Null under the margin scheme or the franchise: no VAT shown on the line. */
  vatRateBp: VatRateBp | null;
  vatScheme: VatScheme;
};

export type VatBreakdownRow = { rateBp: VatRateBp; baseCents: number; vatCents: number; totalCents: number };

export type InvoiceSnapshot = {
  kind: "invoice" | "credit_note";
  number: string;
  /** ISO date-time. */
  issuedAt: string;
  /** A credit note cancels this invoice. */
  cancelsInvoice: string | null;
  orderNumber: string;
  orderedAt: string;
  paidAt: string | null;
  paymentMethod: string;
  seller: { name: string; legalForm: string; shareCapital: string; address: string; siren: string; rcs: string; vatNumber: string; email: string; phone: string };
  buyer: { name: string; email: string; addressLines: string[] };
  delivery: { methodName: string; addressLines: string[] } | null;
  lines: InvoiceLine[];
  /** Delivery (and parcel insurance) TTC, each its own line. */
  charges: { label: string; totalCents: number }[];
  discount: { code: string | null; cents: number } | null;
  vatBreakdown: VatBreakdownRow[];
  /** Signed: negative on a credit note. */
  totals: { exclVatCents: number; vatCents: number; inclVatCents: number; marginSchemeCents: number };
  vatRegime: "normal" | "franchise";
  /** The legal mentions printed under the totals. */
  mentions: string[];
};

export const FRANCHISE_MENTION = "TVA non applicable, art. 293 B du CGI";
export const MARGIN_SCHEME_MENTION = "Régime particulier – Biens d'occasion";

/** F-2026-000042, A-2026-000007: one continuous sequence per kind, the year for the reader. */
export function documentNumber(kind: "invoice" | "credit_note", year: number, sequence: number): string {
  return `${kind === "invoice" ? "F" : "A"}-${year}-${String(sequence).padStart(6, "0")}`;
}
