import { sql } from "drizzle-orm";
import { check, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import type { SessionLine } from "../../services/payments/types";
import { orders } from "./orders";

/**
 * The built-in test provider's hosted sessions (what Stripe keeps on its side): the page at
 * /paiement/{id} shows and pays them. Unused with Stripe.
 */
export const testPaymentSessions = pgTable(
  "test_payment_sessions",
  {
    id: text().primaryKey(),
    /** Asking twice with the same key gives the same session (as Stripe's Idempotency-Key). */
    idempotencyKey: text().notNull().unique(),
    orderId: uuid().references(() => orders.id, { onDelete: "set null" }),
    orderNumber: text().notNull(),
    lines: jsonb().$type<SessionLine[]>().notNull(),
    discountCents: integer().notNull().default(0),
    /** Paid from the customer's store credit: shown apart, not charged (issue 54). */
    storeCreditCents: integer().notNull().default(0),
    totalCents: integer().notNull(),
    customerEmail: text(),
    successUrl: text().notNull(),
    cancelUrl: text().notNull(),
    status: text({ enum: ["open", "complete", "expired"] }).notNull().default("open"),
    paymentReference: text(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("test_payment_sessions_total_non_negative", sql`${t.totalCents} >= 0`)],
);

/** Refunds made by the test provider (Stripe keeps its own). */
export const testRefunds = pgTable("test_refunds", {
  id: text().primaryKey(),
  idempotencyKey: text().notNull().unique(),
  paymentReference: text().notNull(),
  amountCents: integer().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
