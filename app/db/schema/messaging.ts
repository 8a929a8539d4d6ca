import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { SITE_MESSAGE_LOCATIONS } from "../../domain/catalog-values";
import { OPTIONAL_EMAIL_KINDS } from "../../domain/email-choices";
import { INBOX_EVENT_TYPES, INBOX_KINDS, INBOX_STATUSES } from "../../domain/inbox-values";
import { users } from "./auth";
import { cgvSnapshots } from "./terms";
import { insertionOrder } from "./insertion-order";

/** Every e-mail goes through here first, written in the same transaction as its cause. */
export const outboxEmails = pgTable(
  "outbox_emails",
  {
    id: uuid().primaryKey().defaultRandom(),
    seq: insertionOrder(),
    to: text().notNull(),
    /** Where a reply goes, when not to the shop (a request's notification: the customer). */
    replyTo: text(),
    subject: text().notNull(),
    html: text().notNull(),
    text: text().notNull(),
    kind: text().notNull(),
    /** The CGV version sent with it as a PDF, made at send time from the snapshot (the order confirmation). */
    cgvSnapshotId: uuid().references(() => cgvSnapshots.id, { onDelete: "restrict" }),
    /** Extra headers sent with it: List-Unsubscribe and List-Unsubscribe-Post on an optional e-mail (RFC 8058). */
    headers: jsonb().$type<Record<string, string>>(),
    status: text({ enum: ["pending", "sent", "failed"] }).notNull().default("pending"),
    attempts: integer().notNull().default(0),
    lastError: text(),
    nextAttemptAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("outbox_emails_due_idx").on(t.status, t.nextAttemptAt)],
);

/**
 * The optional e-mails an address refused (issue 56): one row per address and kind, none means
 * sent. Keyed by the normalised address, not the account: alerts are asked for signed out.
 */
export const emailOptOuts = pgTable(
  "email_opt_outs",
  {
    email: text().notNull(),
    kind: text({ enum: OPTIONAL_EMAIL_KINDS }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.email, t.kind] })],
);

/** Contact messages and buy-back requests, kept before anything is e-mailed. */
export const inboxMessages = pgTable(
  "inbox_messages",
  {
    id: uuid().primaryKey().defaultRandom(),
    seq: insertionOrder(),
    kind: text({ enum: INBOX_KINDS }).notNull(),
    lastName: text().notNull(),
    firstName: text().notNull(),
    email: text().notNull(),
    phone: text(),
    message: text().notNull(),
    /** Buy-back photos: private storage keys (never public URLs), at most 5. */
    photos: jsonb().$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    status: text({ enum: INBOX_STATUSES }).notNull().default("nouveau"),
    /** The seller's last buy-back offer. */
    offerCents: integer(),
    offerNote: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("inbox_messages_status_idx").on(t.status, t.createdAt),
    index("inbox_messages_kind_idx").on(t.kind, t.createdAt),
    check("inbox_messages_offer_non_negative", sql`${t.offerCents} is null or ${t.offerCents} >= 0`),
  ],
);

/** What happened to a request: status changes, replies and offers, with who did it. */
export const inboxEvents = pgTable(
  "inbox_events",
  {
    id: uuid().primaryKey().defaultRandom(),
    seq: insertionOrder(),
    messageId: uuid()
      .notNull()
      .references(() => inboxMessages.id, { onDelete: "cascade" }),
    type: text({ enum: INBOX_EVENT_TYPES }).notNull(),
    fromStatus: text({ enum: INBOX_STATUSES }),
    toStatus: text({ enum: INBOX_STATUSES }),
    /** A reply's or an offer's text. */
    body: text(),
    amountCents: integer(),
    /** The outbox e-mail it sent, if any. */
    emailId: uuid(),
    actorId: text().references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("inbox_events_message_idx").on(t.messageId, t.createdAt)],
);

export const siteMessages = pgTable("site_messages", {
  id: uuid().primaryKey().defaultRandom(),
  seq: insertionOrder(),
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
