import type { OrderStatus } from "./catalog-values";

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

/** An order as its owner sees it (/merci, /account/orders/{number}, e-mails). */
export type OrderView = {
  number: string;
  status: OrderStatus;
  /** ISO date-times. */
  createdAt: string;
  paidAt: string | null;
  /** Null until a guest gives it on the payment page. */
  customerEmail: string | null;
  customerName: string | null;
  lines: { productId: number | null; name: string; unitPriceCents: number; quantity: number; lineTotalCents: number }[];
  subtotalCents: number;
  insuranceCents: number;
  discountCents: number;
  discountCode: string | null;
  totalCents: number;
  shippingAddress: ShippingAddress | null;
};
