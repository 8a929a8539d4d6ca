import { sql } from "drizzle-orm";
import { check, date, index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import type { OfferLine, PaymentMeans } from "../../domain/buyback-offer";
import { inboxMessages } from "./messaging";

/**
 * A buy-back request's offer by lines (issue 54, point 1), one per request: what the customer
 * accepted and how they want to be paid, the identity document the seller read at reception,
 * and a pending adjustment the customer has not answered yet. `version` grows with each offer
 * the customer is sent: a link to an older one is refused.
 */
export const buybackOffers = pgTable(
  "buyback_offers",
  {
    messageId: uuid()
      .primaryKey()
      .references(() => inboxMessages.id, { onDelete: "cascade" }),
    version: integer().notNull().default(1),
    /** The lines the customer is asked about (the accepted ones once accepted). */
    lines: jsonb().$type<OfferLine[]>().notNull(),
    /** The credit bonus in per cent, as the seller set it when the offer was sent. */
    bonusPercent: integer().notNull(),
    linkExpiresAt: timestamp({ withTimezone: true }).notNull(),
    /** Lines changed at reception, waiting for the customer's new answer. */
    pendingLines: jsonb().$type<OfferLine[]>(),
    paymentMeans: text({ enum: ["credit", "transfer"] }).$type<PaymentMeans>(),
    /** What the customer accepted: the lines' total (a credit adds the bonus at completion). */
    acceptedTotalCents: integer(),
    acceptedAt: timestamp({ withTimezone: true }),
    sellerAddress: text(),
    accountHolder: text(),
    iban: text(),
    idType: text(),
    idNumber: text(),
    idAuthority: text(),
    idIssuedOn: date(),
    receivedAt: timestamp({ withTimezone: true }),
    completedAt: timestamp({ withTimezone: true }),
    /** What the seller gave: the lines' total, plus the bonus on a credit. */
    paidCents: integer(),
    transferPaidAt: timestamp({ withTimezone: true }),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("buyback_offer_version_positive", sql`${t.version} > 0`), index("buyback_offers_completed_idx").on(t.completedAt)],
);

/**
 * The register of second-hand goods bought from individuals (art. 321-7 and R321-3 ff. Code
 * pénal): one entry per line, numbered in one gap-free sequence (document_sequences
 * "purchase_register"), append-only (a trigger refuses UPDATE and DELETE); a correction is a new
 * entry naming the one it corrects.
 */
export const purchaseRegisterEntries = pgTable(
  "purchase_register_entries",
  {
    number: integer().primaryKey(),
    recordedAt: timestamp({ withTimezone: true }).notNull(),
    /**
     * The request it comes from. No foreign key (nor on the author): the entry holds its own copy
     * of everything and must outlive the request and the account, which a SET NULL would update.
     */
    messageId: uuid(),
    sellerName: text().notNull(),
    sellerAddress: text().notNull(),
    idType: text().notNull(),
    idNumber: text().notNull(),
    idAuthority: text().notNull(),
    idIssuedOn: date().notNull(),
    description: text().notNull(),
    quantity: integer().notNull(),
    unitPriceCents: integer().notNull(),
    totalCents: integer().notNull(),
    paymentMeans: text({ enum: ["credit", "transfer"] }).$type<PaymentMeans>().notNull(),
    /** The entry this one corrects, and why. */
    correctsNumber: integer(),
    correctionReason: text(),
    authorId: text(),
  },
  (t) => [
    check("purchase_register_quantity_positive", sql`${t.quantity} > 0`),
    check("purchase_register_price_non_negative", sql`${t.unitPriceCents} >= 0`),
    index("purchase_register_recorded_idx").on(t.recordedAt),
  ],
);
