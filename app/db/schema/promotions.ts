import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { DISCOUNT_KINDS, WITHDRAWAL_SOURCES } from "../../domain/catalog-values";
import { users } from "./auth";
import { orderRefunds, orders } from "./orders";

/**
 * Discount codes: a percentage or a fixed amount, optional expiry, minimum subtotal and usage
 * limits. `usedCount` counts paid orders; `reservedCount` counts unpaid orders holding a use
 * (as stock is reserved): their sum never passes `maxUses`, so a drop cannot overspend a code.
 */
export const discountCodes = pgTable(
  "discount_codes",
  {
    id: uuid().primaryKey().defaultRandom(),
    /** Upper case, as typed by customers (compared case-insensitively). */
    code: text().notNull(),
    kind: text({ enum: DISCOUNT_KINDS }).notNull(),
    /** 1 to 100 when kind = percent. */
    percentOff: integer(),
    /** When kind = amount. */
    amountOffCents: integer(),
    minSubtotalCents: integer().notNull().default(0),
    expiresAt: timestamp({ withTimezone: true }),
    /** Null: no limit. */
    maxUses: integer(),
    maxUsesPerCustomer: integer(),
    usedCount: integer().notNull().default(0),
    reservedCount: integer().notNull().default(0),
    isActive: boolean().notNull().default(true),
    /** The site-wide promotion's code (site_settings "promotion"), kept in step by its form. */
    isPromotion: boolean().notNull().default(false),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("discount_codes_code_idx").on(sql`upper(${t.code})`),
    check(
      "discount_codes_value",
      sql`(${t.kind} = 'percent' and ${t.percentOff} between 1 and 100 and ${t.amountOffCents} is null) or (${t.kind} = 'amount' and ${t.amountOffCents} > 0 and ${t.percentOff} is null)`,
    ),
    check("discount_codes_counts", sql`${t.usedCount} >= 0 and ${t.reservedCount} >= 0 and ${t.minSubtotalCents} >= 0`),
    check("discount_codes_limit", sql`${t.maxUses} is null or ${t.usedCount} + ${t.reservedCount} <= ${t.maxUses}`),
    check("discount_codes_limits_positive", sql`(${t.maxUses} is null or ${t.maxUses} >= 1) and (${t.maxUsesPerCustomer} is null or ${t.maxUsesPerCustomer} >= 1)`),
  ],
);

/**
 * A customer's withdrawal from a contract (Directive (EU) 2023/2673, the "withdrawal function"):
 * one per order, kept with the moment it was made, which the acknowledgement e-mail repeats.
 */
export const withdrawalRequests = pgTable(
  "withdrawal_requests",
  {
    id: uuid().primaryKey().defaultRandom(),
    orderId: uuid()
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    email: text().notNull(),
    /** "Nom du (des) consommateur(s)" as typed in the form (EU model form); null before it was asked. */
    customerName: text(),
    userId: text().references(() => users.id, { onDelete: "set null" }),
    source: text({ enum: WITHDRAWAL_SOURCES }).notNull(),
    /** The acknowledgement queued in the outbox. */
    emailId: uuid(),
    requestedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** The articles withdrawn (order item and units); null: the whole order (requests made before the choice existed). */
    lines: jsonb().$type<{ orderItemId: string; quantity: number }[]>(),
    /** When the seller marked the return received (or refunded an unshipped order's withdrawal). */
    receivedAt: timestamp({ withTimezone: true }),
    /** The refund that settled the withdrawal. */
    refundId: uuid().references(() => orderRefunds.id, { onDelete: "set null" }),
  },
  (t) => [uniqueIndex("withdrawal_requests_order_idx").on(t.orderId), index("withdrawal_requests_requested_idx").on(t.requestedAt)],
);
