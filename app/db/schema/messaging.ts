import { boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { SITE_MESSAGE_LOCATIONS } from "../../domain/catalog-values";

/** Every e-mail goes through here first, written in the same transaction as its cause. */
export const outboxEmails = pgTable(
  "outbox_emails",
  {
    id: uuid().primaryKey().defaultRandom(),
    to: text().notNull(),
    subject: text().notNull(),
    html: text().notNull(),
    text: text().notNull(),
    kind: text().notNull(),
    status: text({ enum: ["pending", "sent", "failed"] }).notNull().default("pending"),
    attempts: integer().notNull().default(0),
    lastError: text(),
    nextAttemptAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("outbox_emails_due_idx").on(t.status, t.nextAttemptAt)],
);

/** Contact messages and buy-back requests, kept before anything is e-mailed. */
export const inboxMessages = pgTable(
  "inbox_messages",
  {
    id: uuid().primaryKey().defaultRandom(),
    kind: text({ enum: ["contact", "rachat"] }).notNull(),
    lastName: text().notNull(),
    firstName: text().notNull(),
    email: text().notNull(),
    phone: text(),
    message: text().notNull(),
    status: text({ enum: ["nouveau", "lu", "traite"] }).notNull().default("nouveau"),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("inbox_messages_status_idx").on(t.status, t.createdAt)],
);

export const siteMessages = pgTable("site_messages", {
  id: uuid().primaryKey().defaultRandom(),
  title: text().notNull(),
  content: text().notNull(),
  location: text({ enum: SITE_MESSAGE_LOCATIONS }).notNull().default("global"),
  isActive: boolean().notNull().default(true),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** Key/value settings edited from the admin: promotion, countdown, hero banner, seed marker. */
export const siteSettings = pgTable("site_settings", {
  key: text().primaryKey(),
  value: jsonb().$type<unknown>().notNull(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
