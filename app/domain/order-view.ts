import type { BusinessPurchase } from "./business-purchase";
import type { OrderStatus, RefundReason } from "./catalog-values";
import { countryName } from "./shipping-countries";
import type { VatRegime } from "./vat";

/** Where the parcel goes: the customer's address, or a relay point with its full address. */
export type ShippingAddress = {
  method: "home" | "relay";
  fullName: string;
  /** The relay point's name and the carrier's identifier for it (method relay). */
  relayPointName?: string;
  relayPointId?: string;
  line1: string;
  line2?: string;
  postalCode: string;
  city: string;
  /** ISO 3166-1 alpha-2 (FR, BE…). */
  country: string;
  phone?: string;
};

/** Who the invoice is made out to (« Facturé à »): the buyer's postal address, never a relay point. */
export type BillingAddress = {
  fullName: string;
  line1: string;
  line2?: string;
  postalCode: string;
  city: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
};

/** The billing address as printed (invoice « Facturé à », order pages): name, lines, postcode and city, country. */
export function billingAddressLines(address: BillingAddress): string[] {
  return [address.fullName, address.line1, ...(address.line2 ? [address.line2] : []), `${address.postalCode} ${address.city}`.trim(), countryName(address.country)].filter(Boolean);
}

export type OrderDocumentView = { kind: "invoice" | "credit_note"; number: string; issuedAt: string };

/** An order as its owner sees it (/merci, /account/orders/{number}, e-mails). */
export type OrderView = {
  /** The order's random id: with it, its invoice can be downloaded (documentPath). */
  id: string;
  number: string;
  status: OrderStatus;
  /** Why its money went back (refund_pending, refunded); null otherwise. */
  refundReason: RefundReason | null;
  /** ISO date-times. */
  createdAt: string;
  paidAt: string | null;
  /** Null until a guest gives it on the payment page. */
  customerEmail: string | null;
  customerName: string | null;
  /** `preorderNote`: a pre-order line's dates as agreed when ordering (domain/preorder-dates.ts); absent or null otherwise. */
  lines: { productId: number | null; name: string; unitPriceCents: number; quantity: number; lineTotalCents: number; preorderNote?: string | null }[];
  subtotalCents: number;
  insuranceCents: number;
  discountCents: number;
  discountCode: string | null;
  totalCents: number;
  /** Paid from the customer's store credit (issue 54): the rest was paid by card. 0 or absent: none. */
  storeCreditCents?: number;
  shippingAddress: ShippingAddress | null;
  /** « Adresse de facturation », given at payment (issue 51); null or absent for orders from before. */
  billingAddress?: BillingAddress | null;
  /** An "Achat professionnel" (issue 53): the company invoiced; null or absent for a consumer. */
  businessBuyer?: BusinessPurchase | null;
  /** The delivery chosen in the cart, as priced then (null for orders from before delivery methods). */
  shipping: { methodName: string; kind: "home" | "relay" | "letter"; deliveryTime: string; cents: number } | null;
  vatRegime: VatRegime;
  vatBreakdown: { rateBp: number; baseCents: number; vatCents: number; totalCents: number }[];
  /** Its invoice, then the credit notes of its refunds, once issued. */
  documents: OrderDocumentView[];
  /** What its refunds (whole or partial) gave back so far. */
  refundedCents?: number;
  /** The CGV version it was placed under (cgvPath gives its PDF); null or absent for orders from before. */
  cgv?: { hash: string; createdAt: string } | null;
};

/** Where an order's invoice or credit note is downloaded; the order's random id is the key. */
export function documentPath(orderId: string, number: string): string {
  return `/commande/${orderId}/documents/${encodeURIComponent(number)}.pdf`;
}
