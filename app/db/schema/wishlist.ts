import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./auth";
import { products } from "./products";

/**
 * A signed-in customer's wish list (issue 56, point 3): one row per product they hunt, with the
 * alerts they chose for it (back in stock, drop opening, price at or below their figure). The
 * seller's « en attente » counts are these rows, by product.
 */
export const wishlistItems = pgTable(
  "wishlist_items",
  {
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    productId: integer()
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    alertRestock: boolean().notNull().default(true),
    alertDrop: boolean().notNull().default(true),
    /** Alert when the price falls to this many cents or less; null: no price alert. */
    priceBelowCents: integer(),
    /*
     * Each alert sent once per event (services/wishlist-alerts.server.ts, decision 067). The
     * restock alert is armed when the product runs out (a trigger, migration 0050, the moment the
     * stock reaches 0, or the item is added to a sold-out product) and disarmed when handled.
     */
    restockArmed: boolean().notNull().default(false),
    /** The opening (the product's drop_time) whose alert was handled. */
    dropAlertedFor: timestamp({ withTimezone: true, precision: 3 }),
    /** The figure whose crossing was handled, and the price then; cleared when the price goes back above the figure. */
    priceAlertedFigureCents: integer(),
    priceAlertedCents: integer(),
    /** The last alert e-mail queued for this item. */
    alertedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.productId] }),
    index("wishlist_items_product_idx").on(t.productId),
    check("wishlist_items_price_below_positive", sql`${t.priceBelowCents} is null or ${t.priceBelowCents} > 0`),
  ],
);
