import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type * as schema from "./schema";

/** The database handle services take: the same on PGlite and on node-postgres. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handle, usable wherever a Db is. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
