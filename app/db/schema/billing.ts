import { sql } from "drizzle-orm";
import { boolean, check, customType, index, integer, jsonb, pgTable, text, timestamp, unique, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import type { InvoiceSnapshot } from "../../domain/invoice";
import { SHIPPING_KINDS, type ShippingBand } from "../../domain/shipping-method";
import { insertionOrder } from "./insertion-order";
import { orders } from "./orders";
import { products } from "./products";

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => "bytea" });

/** The seller's delivery methods (/admin/shipping), priced by ./domain/shipping.ts. */
export const shippingMethods = pgTable(
  "shipping_methods",
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    name: text().notNull(),
    kind: text({ enum: SHIPPING_KINDS }).notNull(),
    /** ISO 3166-1 alpha-2 codes it delivers to. */
    countries: text().array().notNull(),
    bands: jsonb().$type<ShippingBand[]>().notNull(),
    /** Goods subtotal (after discount) from which it is free; null: never free. */
    freeFromCents: integer(),
    /** "2 à 3 jours ouvrés": shown in the cart, on the order and in the e-mails. */
    deliveryTime: text().notNull().default(""),
    active: boolean().notNull().default(true),
    position: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /**
     * When the seller last saved it with /admin/shipping's form (added or edited); null for the
     * examples the shop starts with (migration 0014), until the seller has checked and saved them.
     * The launch checklist waits until every active method has one.
     */
    reviewedAt: timestamp({ withTimezone: true }),
  },
  (t) => [check("shipping_methods_free_from_non_negative", sql`${t.freeFromCents} is null or ${t.freeFromCents} >= 0`)],
);

/** Brand-level product-safety defaults (GPSR art. 19), overridable per product. */
export const safetyProfiles = pgTable("safety_profiles", {
  id: integer().primaryKey().generatedAlwaysAsIdentity(),
  /** The brand as the seller knows it: "Pokémon", "Magic", "One Piece"… */
  brand: text().notNull().unique(),
  manufacturerName: text().notNull(),
  postalAddress: text().notNull(),
  email: text().notNull(),
  warnings: text().notNull().default(""),
  /** Established outside the EU: its EU responsible person (art. 19 b) is then required. */
  manufacturerOutsideEu: boolean().notNull().default(false),
  euRepName: text().notNull().default(""),
  euRepAddress: text().notNull().default(""),
  euRepEmail: text().notNull().default(""),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * Every price a product has had, from when (written by a trigger on products, migration 0014):
 * the lowest price of the 30 days before a reduction (Code de la consommation L112-1-1).
 */
export const productPrices = pgTable(
  "product_prices",
  {
    id: insertionOrder().primaryKey(),
    productId: integer()
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    priceCents: integer().notNull(),
    effectiveFrom: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("product_prices_product_idx").on(t.productId, t.effectiveFrom)],
);

export const DOCUMENT_KINDS = ["invoice", "credit_note"] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];
/** Every gap-free numbering: the invoices' and credit notes', and the register of second-hand purchases'. */
export const SEQUENCE_KINDS = [...DOCUMENT_KINDS, "purchase_register"] as const;
export type SequenceKind = (typeof SEQUENCE_KINDS)[number];

/**
 * One counter per kind of document: the next number is `UPDATE … SET last_value = last_value + 1
 * RETURNING`, inside the transaction that issues it. The row lock orders concurrent issuers and a
 * rollback gives the number back: no gap, no duplicate (a PostgreSQL SEQUENCE would leave gaps).
 * The number and its date are taken in the same statement.
 */
export const documentSequences = pgTable("document_sequences", {
  kind: text({ enum: SEQUENCE_KINDS }).primaryKey(),
  lastValue: integer().notNull().default(0),
  /**
   * The date of the last document issued: the next one is dated no earlier (`greatest`), so a
   * later number never carries an earlier date, even when its transaction began first or another
   * instance's clock is behind.
   */
  lastIssuedAt: timestamp({ withTimezone: true }),
});

/** Invoices and credit notes: immutable once issued (the snapshot, then the PDF made from it). */
export const invoices = pgTable(
  "invoices",
  {
    id: uuid().primaryKey().defaultRandom(),
    kind: text({ enum: DOCUMENT_KINDS }).notNull(),
    sequence: integer().notNull(),
    /** F-2026-000001 or A-2026-000001. */
    number: text().notNull().unique(),
    orderId: uuid()
      .notNull()
      .references(() => orders.id, { onDelete: "restrict" }),
    issuedAt: timestamp({ withTimezone: true }).notNull(),
    /** TTC; negative on a credit note. */
    totalCents: integer().notNull(),
    snapshot: jsonb().$type<InvoiceSnapshot>().notNull(),
    /** Rendered from the snapshot once, then served as stored. */
    pdf: bytea(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique("invoices_kind_sequence").on(t.kind, t.sequence),
    // One invoice per order; its credit notes are one per refund (a partial refund has its own).
    uniqueIndex("invoices_order_invoice").on(t.orderId).where(sql`${t.kind} = 'invoice'`),
    index("invoices_order_idx").on(t.orderId, t.kind),
    index("invoices_issued_idx").on(t.issuedAt),
  ],
);
