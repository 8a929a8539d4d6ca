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
    /*
     * Off until the customer switches them on in /account/liste, the consent wording beside them:
     * a heart is a click to keep a product, not a consent to e-mails (a pre-ticked choice is no
     * consent: CJEU C-673/17 Planet49; art. L34-5 CPCE; decision 066).
     */
    alertRestock: boolean().notNull().default(false),
    alertDrop: boolean().notNull().default(false),
    /** Alert when the price falls to this many cents or less; null: no price alert. */
    priceBelowCents: integer(),
    /*
     * Each alert sent once per event (services/wishlist-alerts.server.ts, decision 067). The
     * restock alert is armed when the product runs out or leaves the shop (a trigger, migration
     * 0050, at that moment; or the item is added then) and disarmed when handled.
     */
    restockArmed: boolean().notNull().default(false),
    /** The opening (the product's drop_time) whose alert was handled. */
    dropAlertedFor: timestamp({ withTimezone: true, precision: 3 }),
    /** The figure whose crossing was handled, and the price then; cleared when the price goes back above the figure. */
    priceAlertedFigureCents: integer(),
    priceAlertedCents: integer(),
    /**
     * The wording the customer agreed to when they last switched an alert on, and when (with the
     * account's verified address, the record of their consent, decision 067); null: never.
     */
    consentText: text(),
    consentedAt: timestamp({ withTimezone: true }),
    /** The last alert e-mail queued for this item. */
    alertedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.productId] }),
    index("wishlist_items_product_idx").on(t.productId),
    check("wishlist_items_price_below_positive", sql`${t.priceBelowCents} is null or ${t.priceBelowCents} > 0`),
  ],
);
