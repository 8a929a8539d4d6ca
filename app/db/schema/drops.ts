import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
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

export const QUEUE_STATUSES = ["waiting", "admitted", "used", "expired"] as const;
export type QueueStatus = (typeof QUEUE_STATUSES)[number];

/**
 * A drop's waiting room (services/waiting-room.server.ts): one ticket per browser that joined,
 * placed by `rank` (arrival order, or a random draw for the fair start's early arrivals). Tickets
 * are admitted in rank order as units are free; an admission is used once, by a checkout.
 */
export const dropQueue = pgTable(
  "drop_queue",
  {
    id: uuid().primaryKey().defaultRandom(),
    productId: integer()
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    /** The opening this ticket is for: a later drop of the same product (a restock) starts a new line. */
    // Milliseconds, as JavaScript carries them: the line is matched to its drop by equality (issue 50).
    dropTime: timestamp({ withTimezone: true, precision: 3 }).notNull(),
    rank: bigint({ mode: "number" }).notNull(),
    status: text({ enum: QUEUE_STATUSES }).notNull().default("waiting"),
    /** The client's network when it joined (domain/network-key.ts): a bound on tickets per network. */
    network: text().notNull(),
    /**
     * The collector who holds it in a fair start (domain/drop-identity.ts): their mailbox's key,
     * from a confirmed account or a code e-mailed at join. One ticket per collector per opening.
     */
    identity: text(),
    joinedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    admittedAt: timestamp({ withTimezone: true }),
    admissionExpiresAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index("drop_queue_rank_idx").on(t.productId, t.dropTime, t.status, t.rank),
    index("drop_queue_network_idx").on(t.productId, t.dropTime, t.network),
    uniqueIndex("drop_queue_identity_idx").on(t.productId, t.dropTime, t.identity).where(sql`${t.identity} is not null`),
  ],
);

/**
 * A one-time code e-mailed to a collector who joins a fair start without an account
 * (services/drop-identity.server.ts): its hash, for one mailbox, valid a few minutes, a few tries.
 */
export const dropIdentityCodes = pgTable(
  "drop_identity_codes",
  {
    id: uuid().primaryKey().defaultRandom(),
    /** The mailbox's key (domain/drop-rules.ts emailKey). */
    identity: text().notNull(),
    codeHash: text().notNull(),
    attempts: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index("drop_identity_codes_identity_idx").on(t.identity, t.expiresAt)],
);

export const ALERT_STATUSES = ["pending", "active", "sent", "unsubscribed"] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

/**
 * "Prévenez-moi" (services/stock-alerts.server.ts): an address waiting for a product to open or
 * come back. Double opt-in: pending until the e-mailed link is followed (the consent then
 * recorded with its wording), one e-mail when the product is on sale, an unsubscribe link
 * without signing in. Its links carry an HMAC of its id (nothing secret is stored).
 */
export const stockAlerts = pgTable(
  "stock_alerts",
  {
    id: uuid().primaryKey().defaultRandom(),
    productId: integer()
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    email: text().notNull(),
    status: text({ enum: ALERT_STATUSES }).notNull().default("pending"),
    /** The wording the person agreed to, as shown then. */
    consentText: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    confirmedAt: timestamp({ withTimezone: true }),
    notifiedAt: timestamp({ withTimezone: true }),
    /** When the person withdrew their consent (the unsubscribe link): the retention job counts from it. */
    unsubscribedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index("stock_alerts_product_idx").on(t.productId, t.status),
    index("stock_alerts_email_idx").on(t.email),
  ],
);

/**
 * How many checkouts of a drop were refused, by reason (a drop's limits, its single unpaid order,
 * its account, its network bound, its waiting room): counters for the seller's fairness summary,
 * written beside the refusal, which itself writes nothing.
 */
export const dropRefusals = pgTable(
  "drop_refusals",
  {
    productId: integer()
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    reason: text().notNull(),
    count: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.productId, t.reason] })],
);
