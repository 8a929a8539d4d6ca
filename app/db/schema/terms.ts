import { jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import type { CgvBlock } from "../../domain/cgv-snapshot";

/**
 * Every version of the CGV an order was placed under (domain/cgv-snapshot.ts): the text as the
 * /legal page rendered it, once per content. Kept as long as the orders that point to it.
 */
export const cgvSnapshots = pgTable("cgv_snapshots", {
  id: uuid().primaryKey().defaultRandom(),
  /** sha256 of the blocks (hex): the version. Unique, so two instances recording it at once keep one row. */
  hash: text().notNull().unique(),
  blocks: jsonb().$type<CgvBlock[]>().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
