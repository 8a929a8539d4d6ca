import { bigint } from "drizzle-orm/pg-core";

/**
 * A row's place in the order rows were written, for lists in time order (newest first, or a
 * timeline) whose rows carry a random uuid: two rows of the same instant (one transaction's
 * `now`, or PGlite's clock, which counts milliseconds) then list in the order they came, not in
 * the order of their ids or of where the table happens to store them.
 */
export const insertionOrder = () => bigint({ mode: "number" }).notNull().generatedAlwaysAsIdentity();
