import { bigint } from "drizzle-orm/pg-core";

/**
 * A row's place in the order rows were written, for "newest first" lists whose rows carry a
 * random uuid: two rows of the same instant (PGlite's clock counts milliseconds) then still list
 * in the order they came, not in the order of their ids.
 */
export const insertionOrder = () => bigint({ mode: "number" }).notNull().generatedAlwaysAsIdentity();
