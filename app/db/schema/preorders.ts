import { sql } from "drizzle-orm";
import { check, date, integer, pgTable, timestamp } from "drizzle-orm/pg-core";
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
