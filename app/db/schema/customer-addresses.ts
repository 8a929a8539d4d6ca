import { sql } from "drizzle-orm";
import { boolean, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { ADDRESS_BOOK_KINDS } from "../../domain/address-proposals";
import type { AddressBookAddress } from "../../domain/customer-addresses";
import { users } from "./auth";

/**
 * A signed-in customer's address book (issue 56, point 1): delivery addresses, billing addresses
 * and relay points (kept by the carrier's identifier), each checked by the checkout's own zod
 * schema (domain/customer-addresses.ts). One default per kind, one row per place (`key`); erased
 * with the account.
 */
export const customerAddresses = pgTable(
  "customer_addresses",
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text({ enum: ADDRESS_BOOK_KINDS }).notNull(),
    address: jsonb().$type<AddressBookAddress>().notNull(),
    /** The place, however spelled (domain/customer-addresses.ts addressBookKey): a duplicate is refused. */
    key: text().notNull(),
    isDefault: boolean().notNull().default(false),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Also the index of a customer's list (its first columns).
    uniqueIndex("customer_addresses_place_unique").on(t.userId, t.kind, t.key),
    // The database itself keeps one default per kind, whatever two requests do at once.
    uniqueIndex("customer_addresses_one_default").on(t.userId, t.kind).where(sql`${t.isDefault}`),
  ],
);
