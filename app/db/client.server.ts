import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { readMigrationFiles } from "drizzle-orm/migrator";
import pg from "pg";
import { acquireDataDirLock } from "./data-dir-lock.server";
import type { Db } from "./types";
import * as schema from "./schema";

export type DatabaseKind = "pglite" | "postgres";

export type Database = {
  db: Db;
  kind: DatabaseKind;
  /** Throws when the database does not answer (used by /healthz). */
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * Subscribes to a NOTIFY channel. On PostgreSQL a dedicated connection listens and
   * reconnects by itself (onReconnect tells the caller that notifications may have been missed).
   */
  listen(channel: string, onPayload: (payload: string) => void, onReconnect?: () => void): Promise<() => Promise<void>>;
  /** The raw pg pool when on PostgreSQL (LISTEN/NOTIFY, advisory locks). */
  pool?: pg.Pool;
  /** PGlite only: a copy of its data directory (a tar), for the backups of a running shop. */
  dumpDataDir?: () => Promise<Blob>;
};

const MIGRATIONS_FOLDER = path.resolve(process.cwd(), "drizzle");
// Arbitrary constant: every instance serialises its migrations on this advisory lock.
const MIGRATION_LOCK_ID = 727_001;

export type OpenOptions =
  | { kind: "postgres"; url: string; poolSize?: number }
  | {
      kind: "pglite";
      dataDir: string | null /* null: in memory (tests) */;
      /** Tests: starts from a dump (PGlite dumpDataDir) of a migrated database instead of initdb. */
      loadDataDir?: Blob;
    };

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.kind === "postgres") return openPostgres(options.url, options.poolSize ?? 10);
  return openPglite(options.dataDir, options.loadDataDir);
}

/**
 * PGlite runs PostgreSQL inside this process, so its buffers count in the server's memory:
 * 32 MB of shared buffers instead of initdb's 128 MB (about 100 MB less resident memory). A
 * small shop's catalogue fits, and the page cache (server/page-cache.ts) answers the repeated
 * reads anyway (docs/performance.md).
 */
export const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, "-c", "shared_buffers=32MB"];

/**
 * Whether the database has every migration this build ships (drizzle records each one's folder
 * time in drizzle.__drizzle_migrations): false while another instance is still migrating, or
 * when this build is newer than the schema (/readyz).
 */
export async function migrationsApplied(db: Db): Promise<boolean> {
  const shipped = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).at(-1)?.folderMillis ?? 0;
  const result = (await db.execute(sql`select coalesce(max(created_at), 0)::bigint as last from drizzle.__drizzle_migrations`)) as unknown as { rows: { last: string | number }[] };
  return Number(result.rows[0]?.last ?? 0) >= shipped;
}

async function openPglite(dataDir: string | null, loadDataDir?: Blob): Promise<Database> {
  const dir = dataDir ? path.resolve(dataDir, "pglite") : null;
  const lock = dir ? acquireDataDirLock(path.dirname(dir)) : null;
  try {
    // pg_trgm: the search's trigram indexes and similarity (migration 0009).
    const client = await PGlite.create({ ...(dir ? { dataDir: dir } : {}), ...(loadDataDir ? { loadDataDir } : {}), startParams: PGLITE_START_PARAMS, extensions: { pg_trgm } });
    const db = drizzlePglite({ client, schema, casing: "snake_case" });
    await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER });
    // PGlite runs no autovacuum: without this the planner has no statistics and the trigram
    // indexes' pending entries pile up, and the search scans the table instead of its indexes
    // (about 0.2 s a start for 10,000 products; PostgreSQL's autovacuum does it by itself).
    await client.exec("vacuum analyze products, search_words");
    return {
      db: db as unknown as Db,
      kind: "pglite",
      ping: async () => {
        await client.query("select 1");
      },
      close: async () => {
        await client.close();
        lock?.release();
      },
      listen: async (channel, onPayload) => {
        const unlisten = await client.listen(channel, onPayload);
        return () => unlisten();
      },
      // The checkpoint writes every committed change into the table files, so the copy needs no
      // replay of the log; the copy itself runs between two queries (PGlite's query lock).
      dumpDataDir: async () => {
        await client.exec("checkpoint");
        return client.dumpDataDir("none");
      },
    };
  } catch (error) {
    lock?.release();
    throw error;
  }
}

async function openPostgres(url: string, poolSize: number): Promise<Database> {
  // The pool keeps every connection it opens (min = max) and opens them all at start (below): a
  // connection is a PostgreSQL backend, and starting ten of them (fork, authentication, caches)
  // in the middle of a drop's opening burst cost more CPU than the burst's own queries (issue 50,
  // point 5). Idle, they cost the server a few MB each, at most `poolSize` per instance as before.
  const pool = new pg.Pool({ connectionString: url, max: poolSize, min: poolSize });
  // An idle connection ended by the server (restart, failover, a dropped database) is an
  // 'error' event: the pool discards that client and opens another when needed. Without a
  // listener, Node would treat it as an uncaught error and stop the process.
  pool.on("error", () => {});
  try {
    const client = await pool.connect();
    try {
      // Several instances may start together: one migrates, the others wait.
      await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
      try {
        await migratePg(drizzlePg({ client, casing: "snake_case" }), { migrationsFolder: MIGRATIONS_FOLDER });
      } finally {
        await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]);
      }
    } finally {
      client.release();
    }
    const opened = await Promise.all(Array.from({ length: poolSize }, () => pool.connect()));
    for (const connection of opened) connection.release();
    const db = drizzlePg({ client: pool, schema, casing: "snake_case" });
    return {
      db: db as unknown as Db,
      kind: "postgres",
      pool,
      ping: async () => {
        await db.execute(sql`select 1`);
      },
      close: () => pool.end(),
      listen: (channel, onPayload, onReconnect) => listenPostgres(url, channel, onPayload, onReconnect),
    };
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
}

const RECONNECT_DELAY_MS = 1_000;

/** LISTEN on its own connection (a pooled one would be handed to queries), reconnecting on loss. */
async function listenPostgres(
  url: string,
  channel: string,
  onPayload: (payload: string) => void,
  onReconnect?: () => void,
): Promise<() => Promise<void>> {
  let client: pg.Client | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  async function connect(isReconnect: boolean): Promise<void> {
    const next = new pg.Client({ connectionString: url });
    next.on("notification", (message) => {
      if (message.channel === channel && message.payload !== undefined) onPayload(message.payload);
    });
    next.on("error", () => scheduleReconnect());
    next.on("end", () => scheduleReconnect());
    await next.connect();
    await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    client = next;
    if (isReconnect) onReconnect?.();
  }

  function scheduleReconnect() {
    if (stopped || timer) return;
    client = null;
    timer = setTimeout(() => {
      timer = undefined;
      connect(true).catch(() => scheduleReconnect());
    }, RECONNECT_DELAY_MS);
    timer.unref();
  }

  await connect(false);
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await (client as pg.Client | null)?.end().catch(() => {});
  };
}
