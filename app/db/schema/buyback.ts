import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { orderItems, orderRefunds, orders } from "./orders";
import { products } from "./products";

/**
 * Store credit (issue 54, point 4): a debt of the shop to a customer, kept per mailbox (the
 * lower-cased e-mail: an account's verified e-mail or the one a buy-back offer was accepted from).
 * The balance row is the single place a spend is decided: `balance >= amount` in the same UPDATE,
 * and a CHECK that it never goes below 0, so concurrent checkouts cannot overspend it.
 */
export const storeCreditAccounts = pgTable(
  "store_credit_accounts",
  {
    email: text().primaryKey(),
    balanceCents: integer().notNull().default(0),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("store_credit_balance_non_negative", sql`${t.balanceCents} >= 0`)],
);

export const STORE_CREDIT_KINDS = ["buyback", "refund", "goodwill", "order", "order_cancelled", "expiry", "correction"] as const;
export type StoreCreditKind = (typeof STORE_CREDIT_KINDS)[number];

/**
 * The ledger: append-only (a trigger refuses UPDATE and DELETE, migration 0039). Credits are
 * positive, debits negative; each says why and who, and the balance it left.
 */
export const storeCreditMovements = pgTable(
  "store_credit_movements",
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    email: text()
      .notNull()
      .references(() => storeCreditAccounts.email),
    amountCents: integer().notNull(),
    balanceAfterCents: integer().notNull(),
    kind: text({ enum: STORE_CREDIT_KINDS }).notNull(),
    reason: text().notNull(),
    /** "seller:<user id>", "customer" or "system". */
    author: text().notNull(),
    orderId: uuid().references(() => orders.id),
    /** What else it comes from (a buy-back offer's id…), free-form. */
    sourceRef: text(),
    /** A credit's end of validity when the seller set one (CGV); null: none. */
    expiresAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("store_credit_movement_not_zero", sql`${t.amountCents} <> 0`),
    check("store_credit_movement_balance_non_negative", sql`${t.balanceAfterCents} >= 0`),
    index("store_credit_movements_email_idx").on(t.email, t.id),
  ],
);

export const PURCHASE_LOT_SOURCES = ["buyback", "manual"] as const;

/**
 * Units bought for resale with their unit purchase price (issue 54, point 3): the margin scheme
 * taxes sale price minus purchase price (CGI art. 297 A), sold first in, first out per product.
 */
export const purchaseLots = pgTable(
  "purchase_lots",
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    productId: integer()
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    quantity: integer().notNull(),
    /** Units of this lot not yet sold (FIFO consumes the oldest lot first). */
    remaining: integer().notNull(),
    unitCostCents: integer().notNull(),
    source: text({ enum: PURCHASE_LOT_SOURCES }).notNull(),
    /** The buy-back line or register entry it comes from, free-form. */
    sourceRef: text(),
    receivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("purchase_lot_quantity_positive", sql`${t.quantity} > 0`),
    check("purchase_lot_remaining_in_range", sql`${t.remaining} >= 0 and ${t.remaining} <= ${t.quantity}`),
    check("purchase_lot_cost_non_negative", sql`${t.unitCostCents} >= 0`),
    index("purchase_lots_product_idx").on(t.productId, t.receivedAt, t.id),
  ],
);

/**
 * What each margin-scheme order line's units cost (issue 54, point 3; docs/decisions/057): written
 * when the order is paid, FIFO from the product's lots. A unit with no lot left has no lot and no
 * cost (« prix d'achat inconnu »). A unit refunded and put back in stock returns to its lot: a
 * negative row (its refund), so the ledger keeps what was taken and what came back.
 */
export const orderItemCosts = pgTable(
  "order_item_costs",
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    orderItemId: uuid()
      .notNull()
      .references(() => orderItems.id, { onDelete: "cascade" }),
    lotId: integer().references(() => purchaseLots.id, { onDelete: "set null" }),
    /** Units taken (> 0) or given back to the lot (< 0). */
    quantity: integer().notNull(),
    /** Null: no lot was left, the purchase price is unknown (the lot id is kept apart: a deleted product's lots go). */
    unitCostCents: integer(),
    refundId: uuid().references(() => orderRefunds.id, { onDelete: "cascade" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("order_item_cost_quantity_not_zero", sql`${t.quantity} <> 0`),
    index("order_item_costs_item_idx").on(t.orderItemId, t.id),
  ],
);
