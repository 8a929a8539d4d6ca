/**
 * The rows of a raw SQL query's result (`db.execute`), typed by the caller: PGlite and
 * node-postgres both answer `{ rows }`, which Drizzle's shared type does not say.
 */
export function rowsOf<Row>(result: unknown): Row[] {
  return (result as { rows: Row[] }).rows;
}
