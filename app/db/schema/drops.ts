import { sql } from "drizzle-orm";
import { boolean, check, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { DROP_START_MODES } from "../../domain/drop-form";
import { products } from "./products";

/**
 * A drop's rules for buyers, set by the seller in /admin/drops (domain/drop-rules.ts). The
 * product keeps its opening time (drop_time) and its units (stock); a product with a row here is
 * a drop: its per-customer limit holds across orders, for as long as the row exists.
 */
export const productDrops = pgTable(
  "product_drops",
  {
    productId: integer()
      .primaryKey()
      .references(() => products.id, { onDelete: "cascade" }),
    perCustomerLimit: integer().notNull().default(1),
    accountRequired: boolean().notNull().default(false),
    holdMinutes: integer().notNull().default(10),
    startMode: text({ enum: DROP_START_MODES }).notNull().default("first_come"),
    fairWindowMinutes: integer().notNull().default(10),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("product_drops_limit_range", sql`${t.perCustomerLimit} between 1 and 99`),
    check("product_drops_hold_range", sql`${t.holdMinutes} between 2 and 30`),
    check("product_drops_window_range", sql`${t.fairWindowMinutes} between 1 and 60`),
  ],
);
