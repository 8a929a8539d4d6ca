import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import type { ProductChanges } from "../../domain/product-changes";
import { users } from "./auth";
import { insertionOrder } from "./insertion-order";

/** Admin action log: who added, changed or deleted which product, with a snapshot. */
export const productAdmin = pgTable(
  "product_admin",
  {
    id: uuid().primaryKey().defaultRandom(),
    seq: insertionOrder(),
    adminAction: text({ enum: ["ajout", "modification", "suppression"] }).notNull(),
    productId: integer().notNull(),
    title: text().notNull(),
    snapshot: jsonb().$type<Record<string, unknown>>().notNull(),
    /** The fields the action changed, { field: { before, after } } (domain/product-changes). */
    changes: jsonb().$type<ProductChanges>().notNull().default(sql`'{}'::jsonb`),
    adminUserId: text().references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("product_admin_product_idx").on(t.productId, t.createdAt)],
);
