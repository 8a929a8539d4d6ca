import { sql } from "drizzle-orm";
import { check, date, index, integer, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./auth";
import { orders } from "./orders";
import { products } from "./products";

/**
 * A product sold as a pre-order (issue 55, decision 059), set by the seller on the product's
 * edit page (domain/preorder-form.ts): orderable before its release date, up to `quantity`
 * units in all, `perCustomerLimit` per customer (the drops' rule: account, e-mail, address).
 * `orderedUnits` is the units taken by orders still holding them: the checkout raises it with a
 * conditional UPDATE, so that two instances can never take the cap together.
 */
export const productPreorders = pgTable(
  "product_preorders",
  {
    productId: integer()
      .primaryKey()
      .references(() => products.id, { onDelete: "cascade" }),
    /** Paris calendar dates ("2026-12-12"): the release, and the « date de livraison estimée ». */
    releaseOn: date({ mode: "string" }).notNull(),
    estimatedDeliveryOn: date({ mode: "string" }).notNull(),
    quantity: integer().notNull(),
    perCustomerLimit: integer().notNull().default(1),
    orderedUnits: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      "product_preorders_quantity_range",
      sql`${t.quantity} between 1 and 1000000`,
    ),
    check(
      "product_preorders_limit_range",
      sql`${t.perCustomerLimit} between 1 and 99`,
    ),
    // The cap's last line of defence, as products_stock_non_negative is the stock's.
    check(
      "product_preorders_ordered_within_quantity",
      sql`${t.orderedUnits} between 0 and ${t.quantity}`,
    ),
    check(
      "product_preorders_delivery_after_release",
      sql`${t.estimatedDeliveryOn} >= ${t.releaseOn}`,
    ),
  ],
);

export type ProductPreorderRow = typeof productPreorders.$inferSelect;

/**
 * An allocation applied to a pre-order product's paid orders when its units arrived (issue 55,
 * decision 061): one per product (the unique key makes a second apply, or two at once, find the
 * first), with what it needs to be shown and replayed: the units received, the rule, the draw's
 * seed, who applied it and when.
 */
export const preorderAllocations = pgTable(
  "preorder_allocations",
  {
    id: uuid().primaryKey().defaultRandom(),
    productId: integer()
      .notNull()
      .unique()
      .references(() => products.id, { onDelete: "cascade" }),
    unitsReceived: integer().notNull(),
    /** "order" (first placed, first served) or "draw" (domain/preorder-allocation.ts). */
    rule: text({ enum: ["order", "draw"] }).notNull(),
    /** The draw's seed (hex), null for the order rule: the seed alone replays the draw. */
    seed: text(),
    unitsAllocated: integer().notNull(),
    /** Received beyond what the pre-orders took: put in the product's stock. */
    unitsToStock: integer().notNull(),
    actorId: text().references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("preorder_allocations_units", sql`${t.unitsReceived} >= 0 and ${t.unitsAllocated} between 0 and ${t.unitsReceived} and ${t.unitsToStock} = ${t.unitsReceived} - ${t.unitsAllocated}`),
  ],
);

/** Each paid pre-order's share of an allocation: units ordered, served, refunded. */
export const preorderAllocationOrders = pgTable(
  "preorder_allocation_orders",
  {
    allocationId: uuid()
      .notNull()
      .references(() => preorderAllocations.id, { onDelete: "cascade" }),
    orderId: uuid()
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    ordered: integer().notNull(),
    allocated: integer().notNull(),
    refunded: integer().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.allocationId, t.orderId] }),
    index("preorder_allocation_orders_order_idx").on(t.orderId),
    check("preorder_allocation_orders_units", sql`${t.allocated} >= 0 and ${t.refunded} >= 0 and ${t.allocated} + ${t.refunded} = ${t.ordered}`),
  ],
);

export type PreorderAllocationRow = typeof preorderAllocations.$inferSelect;
