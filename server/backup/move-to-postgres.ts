import type { PGlite } from "@electric-sql/pglite";
import type pg from "pg";
import { openDatabase } from "~/db/client.server";
import { MIGRATIONS_TABLE, type Query, listTables, quoteTable } from "./database-facts";

/**
 * A PGlite shop moves to PostgreSQL: its dump is opened in memory and brought to this version's
 * migrations, the empty PostgreSQL gets the same migrations (the schema is the project's, not a
 * copy of PGlite's catalogue), then every row is copied as text (PostgreSQL's own output and
 * input: timestamps keep their microseconds, numbers their digits) in one transaction, and the
 * sequences are set after. Triggers of the shop (change notices, price history, search words)
 * are off during the copy: the rows they would write are copied with the others.
 */
export async function copyPgliteIntoPostgres(dump: Blob, url: string): Promise<void> {
  const source = await openDatabase({ kind: "pglite", dataDir: null, loadDataDir: dump });
  try {
    const pglite = (source.db as unknown as { $client: PGlite }).$client;
    const read: Query = async (text, params) => (await pglite.query<Record<string, unknown>>(text, params)).rows;
    const target = await openDatabase({ kind: "postgres", url, poolSize: 1 });
    try {
      const client = await target.pool!.connect();
      try {
        await copyRows(read, client);
      } finally {
        client.release();
      }
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}

async function copyRows(read: Query, client: pg.PoolClient): Promise<void> {
  const write: Query = async (text, params) => (await client.query(text, params)).rows;
  const migrationsOf = (query: Query) => query(`select hash, created_at::text as at from ${MIGRATIONS_TABLE} order by id`).then((rows) => JSON.stringify(rows));
  if ((await migrationsOf(read)) !== (await migrationsOf(write))) {
    throw new Error("Les migrations de la sauvegarde et de PostgreSQL diffèrent : restaurez avec la même version de Comptoir que la sauvegarde.");
  }
  const tables = (await listTables(read)).filter((table) => table !== MIGRATIONS_TABLE);
  const targetTables = new Set(await listTables(write));
  const missing = tables.filter((table) => !targetTables.has(table));
  if (missing.length > 0) throw new Error(`Tables absentes de PostgreSQL après les migrations : ${missing.join(", ")}`);

  await client.query("begin");
  try {
    for (const table of tables) await client.query(`alter table ${quoteTable(table)} disable trigger user`);
    // The migrations wrote a few rows of their own (numbering counters…): the backup has its own.
    await client.query(`truncate ${tables.map(quoteTable).join(", ")}`);
    for (const table of await parentsFirst(write, tables)) await copyTable(read, client, table);
    await copySequences(read, write);
    for (const table of tables) await client.query(`alter table ${quoteTable(table)} enable trigger user`);
    await client.query("commit");
  } catch (error) {
    await client.query("rollback");
    throw error;
  }
}

/** Tables in an order where a row's foreign keys always find their rows already copied. */
async function parentsFirst(query: Query, tables: string[]): Promise<string[]> {
  const links = await query(
    `select cn.nspname || '.' || c.relname as child, pn.nspname || '.' || p.relname as parent
     from pg_constraint k
     join pg_class c on c.oid = k.conrelid join pg_namespace cn on cn.oid = c.relnamespace
     join pg_class p on p.oid = k.confrelid join pg_namespace pn on pn.oid = p.relnamespace
     where k.contype = 'f' and k.conrelid <> k.confrelid`,
  );
  const ordered: string[] = [];
  const pending = new Set(tables);
  while (pending.size > 0) {
    const ready = [...pending].filter((table) => !links.some((link) => link.child === table && pending.has(String(link.parent))));
    if (ready.length === 0) throw new Error(`Clés étrangères circulaires entre ${[...pending].join(", ")}`);
    for (const table of ready) {
      ordered.push(table);
      pending.delete(table);
    }
  }
  return ordered;
}

// node-postgres allows 65,535 parameters a statement.
const PARAMETERS_PER_INSERT = 30_000;

async function copyTable(read: Query, client: pg.PoolClient, table: string): Promise<void> {
  // Generated columns are computed again by PostgreSQL; they cannot be written.
  const columns = (
    await read(`select attname from pg_attribute where attrelid = $1::regclass and attnum > 0 and not attisdropped and attgenerated = '' order by attnum`, [quoteTable(table)])
  ).map((row) => `"${String(row.attname).replaceAll('"', '""')}"`);
  const rows = (await read(`select array[${columns.map((c) => `${c}::text`).join(", ")}] as v from ${quoteTable(table)}`)).map((row) => row.v as (string | null)[]);
  const perInsert = Math.max(1, Math.floor(PARAMETERS_PER_INSERT / columns.length));
  for (let start = 0; start < rows.length; start += perInsert) {
    const batch = rows.slice(start, start + perInsert);
    // Untyped parameters: PostgreSQL reads each text as its column's type.
    const values = batch.map((_, r) => `(${columns.map((_, c) => `$${r * columns.length + c + 1}`).join(", ")})`).join(", ");
    await client.query(`insert into ${quoteTable(table)} (${columns.join(", ")}) overriding system value values ${values}`, batch.flat());
  }
}

async function copySequences(read: Query, write: Query): Promise<void> {
  const sequences = await read(`select schemaname || '.' || sequencename as name, last_value::text as last, start_value::text as start from pg_sequences`);
  for (const sequence of sequences) {
    const name = quoteTable(String(sequence.name));
    // A sequence never used starts where it would have.
    if (sequence.last === null) await write(`select setval($1::regclass, $2::bigint, false)`, [name, sequence.start]);
    else await write(`select setval($1::regclass, $2::bigint, true)`, [name, sequence.last]);
  }
}
