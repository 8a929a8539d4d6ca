import { sql } from "drizzle-orm";
import { type AnyPgColumn, boolean, check, date, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { ORDER_EVENT_TYPES, ORDER_STATUSES, REFUND_REASONS } from "../../domain/catalog-values";
import type { BusinessPurchase } from "../../domain/business-purchase";
import { PREORDER_SHIPPING_MODES } from "../../domain/preorder-shipping";
import type { BillingAddress, ShippingAddress } from "../../domain/order-view";
import type { RefundLine, RefundParts } from "../../domain/partial-refund";
import { REFUND_ADJUSTMENT_KINDS, REFUND_STATUSES } from "../../domain/partial-refund";
import { users } from "./auth";
import { insertionOrder } from "./insertion-order";
import { products } from "./products";
import { discountCodes } from "./promotions";
import { shippingMethods } from "./billing";
import { cgvSnapshots } from "./terms";
import type { VatBreakdownRow } from "../../domain/invoice";
import { SHIPPING_KINDS } from "../../domain/shipping-method";
import { VAT_REGIMES, VAT_SCHEMES } from "../../domain/vat";

export type { ShippingAddress };

export const orders = pgTable(
  "orders",
  {
    id: uuid().primaryKey().defaultRandom(),
    seq: insertionOrder(),
    /** Public reference: PREFIX-6 digits-4 digits. */
    number: text().notNull().unique(),
    status: text({ enum: ORDER_STATUSES }).notNull().default("pending_payment"),
    /** Null until a guest gives it on the payment page. */
    customerEmail: text(),
    /** From the payment page (the name on the shipping address). */
    customerName: text(),
    userId: text().references(() => users.id, { onDelete: "set null" }),
    subtotalCents: integer().notNull(),
    discountCents: integer().notNull().default(0),
    discountCode: text(),
    /** The code whose use this order holds (reserved while unpaid, counted once paid). */
    discountCodeId: uuid().references((): AnyPgColumn => discountCodes.id, { onDelete: "set null" }),
    insuranceCents: integer().notNull().default(0),
    /** The delivery chosen in the cart, priced by the server (domain/shipping.ts) and kept as it was. */
    shippingMethodId: integer().references(() => shippingMethods.id, { onDelete: "set null" }),
    shippingMethodName: text(),
    shippingKind: text({ enum: SHIPPING_KINDS }),
    shippingDeliveryTime: text(),
    shippingCountry: text(),
    shippingCents: integer().notNull().default(0),
    weightGrams: integer(),
    /** The VAT rule the order was placed under (domain/vat.ts VAT_REGIMES): "franchise" under the franchise en base, "intra_eu_exempt" an exempt intra-EU supply (docs/decisions/054). */
    vatRegime: text({ enum: VAT_REGIMES }).notNull().default("normal"),
    /** VAT by rate over goods, delivery and insurance (domain/vat-allocation.ts). */
    vatBreakdown: jsonb().$type<VatBreakdownRow[]>().notNull().default(sql`'[]'::jsonb`),
    /**
     * The country whose VAT the order carries: FR, or the buyer's member state when the sale is a
     * distance sale taxed there (OSS, domain/oss.ts; its rates are the lines' and the breakdown's).
     */
    vatCountry: text().notNull().default("FR"),
    totalCents: integer().notNull(),
    /**
     * Paid from the customer's store credit (issue 54): a means of payment, not a discount; the
     * provider is charged totalCents minus this. Debited from the ledger in the checkout's transaction.
     */
    storeCreditCents: integer().notNull().default(0),
    paymentProvider: text().notNull(),
    /** The CGV in force when the order was placed (services/cgv.server.ts); null on orders from before. */
    cgvSnapshotId: uuid().references(() => cgvSnapshots.id, { onDelete: "restrict" }),
    providerSessionId: text().unique(),
    /** The provider's payment page for this order: the buyer may come back to it while it holds. */
    paymentUrl: text(),
    /** What a refund needs (Stripe: the PaymentIntent id; test provider: its payment id). */
    paymentReference: text(),
    refundReference: text(),
    /** The browser's key for this checkout attempt: the same post sent again (a proxy's retry) answers this order. */
    idempotencyKey: text(),
    reservedUntil: timestamp({ withTimezone: true }),
    /** Who the buyer is for a drop's per-customer limit (domain/drop-rules.ts): the e-mail normalised, the client's network at checkout (domain/network-key.ts), the delivery address once paid (domain/address-key.ts). */
    buyerEmailKey: text(),
    clientNetwork: text(),
    buyerAddressKey: text(),
    shippingAddress: jsonb().$type<ShippingAddress>(),
    /** The invoice's « Facturé à »; null on orders placed before it was asked (their delivery address, when at home, served). */
    billingAddress: jsonb().$type<BillingAddress>(),
    /** An "Achat professionnel" (issue 53): the company invoiced and its billing country; null for a consumer. */
    businessBuyer: jsonb().$type<BusinessPurchase>(),
    /**
     * An order mixing pre-orders and items in stock: how it ships, the seller's setting when it
     * was placed (domain/preorder-shipping.ts, decision 062); null for any other order.
     */
    preorderShipping: text({ enum: PREORDER_SHIPPING_MODES }),
    trackingNumber: text(),
    carrier: text(),
    trackingUrl: text(),
    shippedAt: timestamp({ withTimezone: true }),
    /** Why the money went back: paid too late, or cancelled by the seller. */
    refundReason: text({ enum: REFUND_REASONS }),
    paidAt: timestamp({ withTimezone: true }),
    refundedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("orders_amounts_non_negative", sql`${t.subtotalCents} >= 0 and ${t.totalCents} >= 0 and ${t.insuranceCents} >= 0 and ${t.discountCents} >= 0 and ${t.shippingCents} >= 0`),
    check("orders_store_credit_in_range", sql`${t.storeCreditCents} >= 0 and ${t.storeCreditCents} <= ${t.totalCents}`),
    index("orders_user_idx").on(t.userId, t.createdAt),
    index("orders_status_idx").on(t.status, t.createdAt),
    index("orders_reservation_idx").on(t.reservedUntil).where(sql`${t.status} = 'pending_payment'`),
    index("orders_discount_code_idx").on(t.discountCodeId).where(sql`${t.discountCodeId} is not null`),
    index("orders_refund_pending_idx").on(t.updatedAt).where(sql`${t.status} = 'refund_pending'`),
    index("orders_buyer_email_key_idx").on(t.buyerEmailKey).where(sql`${t.buyerEmailKey} is not null`),
    index("orders_client_network_idx").on(t.clientNetwork).where(sql`${t.status} = 'pending_payment'`),
    index("orders_buyer_address_key_idx").on(t.buyerAddressKey).where(sql`${t.buyerAddressKey} is not null`),
    uniqueIndex("orders_idempotency_key_idx").on(t.idempotencyKey).where(sql`${t.idempotencyKey} is not null`),
    // The dashboard's sales and refunds by day, and the receipts book, read by these dates.
    index("orders_paid_at_idx").on(t.paidAt).where(sql`${t.paidAt} is not null`),
    index("orders_refunded_at_idx").on(t.refundedAt).where(sql`${t.refundedAt} is not null`),
    // The OSS counter: the year's sales sent to another member state (services/oss.server.ts).
    index("orders_distance_sales_idx").on(t.shippingCountry, t.paidAt).where(sql`${t.shippingCountry} <> 'FR'`),
  ],
);

export const orderItems = pgTable(
  "order_items",
  {
    id: uuid().primaryKey().defaultRandom(),
    orderId: uuid()
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    productId: integer().references(() => products.id, { onDelete: "set null" }),
    name: text().notNull(),
    unitPriceCents: integer().notNull(),
    quantity: integer().notNull(),
    vatRateBp: integer().notNull().default(2000),
    vatScheme: text({ enum: VAT_SCHEMES }).notNull().default("normal"),
    /**
     * The line's share of the order's discount, and its part of its rate's VAT: what is left less
     * its part of the rate's base (docs/decisions/032; 0 under the margin scheme or the franchise).
     * Orders placed before issue 51: the VAT taken out of what is left, rounded on its own.
     */
    discountShareCents: integer().notNull().default(0),
    vatCents: integer().notNull().default(0),
    /** Taken from the product's pre-order quantity (product_preorders), not its stock: given back there too. */
    preorder: boolean().notNull().default(false),
    /**
     * A pre-order line's release day and « date de livraison estimée » as the buyer saw them when
     * ordering (Paris calendar days): the contractual delivery date (L216-1), kept when the seller
     * later moves the product's dates. Null on other lines.
     */
    preorderReleaseOn: date({ mode: "string" }),
    preorderDeliveryOn: date({ mode: "string" }),
  },
  (t) => [
    check("order_items_quantity_positive", sql`${t.quantity} > 0`),
    index("order_items_order_idx").on(t.orderId),
    // A product's sales: the dashboard's products unsold for 90 days, its drops.
    index("order_items_product_idx").on(t.productId),
  ],
);

/** Provider events already handled: webhooks arrive twice and out of order. */
export const paymentEvents = pgTable("payment_events", {
  id: text().primaryKey(),
  provider: text().notNull(),
  type: text().notNull(),
  orderId: uuid().references(() => orders.id, { onDelete: "set null" }),
  receivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** The order's timeline: what happened and who did it (the admin order page). */
export const orderEvents = pgTable(
  "order_events",
  {
    id: uuid().primaryKey().defaultRandom(),
    seq: insertionOrder(),
    orderId: uuid()
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    type: text({ enum: ORDER_EVENT_TYPES }).notNull(),
    /** Free details: carrier and tracking number, refund id, error, e-mail id… */
    details: jsonb().$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    actorId: text().references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("order_events_order_idx").on(t.orderId, t.createdAt)],
);

/**
 * Each refund of an order, whole or partial (services/partial-refunds.server.ts): what it gives
 * back, computed by the server from the order's stored lines, and its credit note. Written
 * "pending" before the provider is called (its id is the provider's idempotency key), turned
 * "refunded" with the provider's reference in the transaction that issues the credit note.
 */
export const orderRefunds = pgTable(
  "order_refunds",
  {
    id: uuid().primaryKey().defaultRandom(),
    seq: insertionOrder(),
    orderId: uuid()
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    /** The form's key: the same post sent twice is one refund. */
    requestKey: text().notNull(),
    status: text({ enum: REFUND_STATUSES }).notNull().default("pending"),
    amountCents: integer().notNull(),
    lines: jsonb().$type<RefundLine[]>().notNull().default(sql`'[]'::jsonb`),
    shippingCents: integer().notNull().default(0),
    insuranceCents: integer().notNull().default(0),
    /** A goodwill amount (positive) or a deduction for depreciation (negative), with its reason. */
    adjustmentKind: text({ enum: REFUND_ADJUSTMENT_KINDS }),
    adjustmentCents: integer().notNull().default(0),
    reason: text(),
    /** The delivery's, the insurance's and the adjustment's parts by rate, as its credit note prints them. */
    parts: jsonb().$type<RefundParts>().notNull().default(sql`'{"shipping":[],"insurance":[],"adjustment":[]}'::jsonb`),
    /** Its VAT by rate (negative amounts are never stored: a refund's own figures, positive). */
    vatBreakdown: jsonb().$type<VatBreakdownRow[]>().notNull().default(sql`'[]'::jsonb`),
    marginSchemeCents: integer().notNull().default(0),
    /** The order's last refund: it is then refunded in full. */
    closesOrder: boolean().notNull().default(false),
    providerRefundId: text(),
    /** The part given back as store credit, for an order paid partly by it (domain/store-credit.ts refundSplit); the rest went to the card. */
    storeCreditCents: integer().notNull().default(0),
    creditNoteNumber: text(),
    lastError: text(),
    actorId: text().references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    refundedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    check("order_refunds_amount_positive", sql`${t.amountCents} > 0`),
    check("order_refunds_store_credit_in_range", sql`${t.storeCreditCents} >= 0 and ${t.storeCreditCents} <= ${t.amountCents}`),
    uniqueIndex("order_refunds_request_idx").on(t.orderId, t.requestKey),
    index("order_refunds_order_idx").on(t.orderId, t.createdAt),
    index("order_refunds_refunded_at_idx").on(t.refundedAt).where(sql`${t.refundedAt} is not null`),
    index("order_refunds_pending_idx").on(t.createdAt).where(sql`${t.status} = 'pending'`),
  ],
);
