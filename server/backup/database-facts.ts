/**
 * What a backup says about its database (row counts per table, migrations applied), read the
 * same way from PGlite and PostgreSQL so the two can be compared after a restore or a move.
 */
export type Query = (text: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

export type DatabaseFacts = {
  /** Rows of drizzle.__drizzle_migrations: the migrations the dump has applied. */
  migrations: number;
  /** "schema.table" → rows, every table of the shop and drizzle's own. */
  tables: Record<string, number>;
};

export const MIGRATIONS_TABLE = "drizzle.__drizzle_migrations";

/** Every ordinary table outside PostgreSQL's own schemas, "schema.table", sorted. */
export async function listTables(query: Query): Promise<string[]> {
  const rows = await query(
    `select n.nspname || '.' || c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where c.relkind in ('r', 'p') and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%'
     order by 1`,
  );
  return rows.map((row) => String(row.name));
}

/** `schema.table` quoted for SQL. */
export function quoteTable(name: string): string {
  return name
    .split(".")
    .map((part) => `"${part.replaceAll('"', '""')}"`)
    .join(".");
}

export async function readDatabaseFacts(query: Query): Promise<DatabaseFacts> {
  const tables: Record<string, number> = {};
  for (const table of await listTables(query)) {
    const [row] = await query(`select count(*)::int as n from ${quoteTable(table)}`);
    tables[table] = Number(row!.n);
  }
  return { migrations: tables[MIGRATIONS_TABLE] ?? 0, tables };
}
