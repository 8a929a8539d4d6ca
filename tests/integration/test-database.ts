import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, inject } from "vitest";
import { type Database, openDatabase } from "~/db/client.server";

/**
 * A fresh, migrated database for one test file: PGlite in memory by default, or a new
 * database on the PostgreSQL server of TEST_DATABASE_URL (dropped afterwards).
 */
export async function openTestDatabase(): Promise<Database & { label: string }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) return { ...(await openPgliteFromTemplate()), label: "PGlite" };
  const name = `comptoir_test_${randomBytes(6).toString("hex")}`;
  const url = await createPostgresDatabase(serverUrl, name);
  const database = await openDatabase({ kind: "postgres", url, poolSize: 5 });
  return {
    ...database,
    label: "PostgreSQL",
    close: async () => {
      await database.close();
      await dropPostgresDatabase(serverUrl, name);
    },
  };
}

/**
 * The database of a suite's test server, as environment for startServer: on the PGlite pass,
 * DATABASE_URL empty (the server opens the PGlite of its DATA_DIR); on the PostgreSQL pass, a new
 * database on TEST_DATABASE_URL's server, made when the suite starts (the server migrates and
 * seeds it, as on its first start) and dropped when the suite ends. Call it in the suite before
 * its own hooks: its DATABASE_URL is set by the time they run.
 */
export function suiteServerDatabase(prefix: string): { DATABASE_URL: string } {
  const env = { DATABASE_URL: "" };
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) return env;
  const name = `${prefix}_${randomBytes(5).toString("hex")}`;
  beforeAll(async () => {
    env.DATABASE_URL = await createPostgresDatabase(serverUrl, name);
  });
  afterAll(async () => {
    try {
      if (!env.DATABASE_URL) return; // not made
      // The suite's server did run on it (not on its DATA_DIR's PGlite): it migrated it.
      const client = new pg.Client({ connectionString: env.DATABASE_URL });
      await client.connect();
      try {
        const [table] = (await client.query<{ name: string | null }>("select to_regclass('drizzle.__drizzle_migrations')::text as name")).rows;
        const migrated = table?.name ? (await client.query("select from drizzle.__drizzle_migrations limit 1")).rowCount : 0;
        if (!migrated) throw new Error(`the suite's server did not run on its PostgreSQL database ${name}: nothing was migrated there`);
      } finally {
        await client.end();
      }
    } finally {
      await dropPostgresDatabase(serverUrl, name);
    }
  });
  return env;
}

/** Makes database `name` on the PostgreSQL server of `serverUrl`; returns its URL. */
async function createPostgresDatabase(serverUrl: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function dropPostgresDatabase(serverUrl: string, name: string): Promise<void> {
  const dropper = new pg.Client({ connectionString: serverUrl });
  await dropper.connect();
  try {
    await dropper.query(`drop database if exists ${name} with (force)`);
  } finally {
    await dropper.end();
  }
}

export const databaseLabel = process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite";

/**
 * For suites whose subject lives above the database (HTTP parsing and limits, uploads' memory,
 * the markup of the pages, the shared page cache, the live streams' caps, the configured outside
 * services, the e-mail test page over HTTP): they run once, on the PGlite pass; the services they
 * call have their own suites on both databases. `npm test` is held under
 * 10 minutes on 2 cores, and the PostgreSQL pass runs beside the end-to-end tests.
 */
export const onPostgresPass = Boolean(process.env.TEST_DATABASE_URL);

/**
 * PGlite's initdb costs about 2 s of CPU a file. The first file of the run to get here dumps its
 * freshly migrated database into the run's directory (tests/setup/vitest-global-setup.ts); the
 * others load that dump, and still run the migrations (finding nothing to do).
 */
async function openPgliteFromTemplate(): Promise<Database> {
  const runDir = inject("testRunDir");
  const template = runDir ? path.join(runDir, "pglite-migrated.tar") : null;
  if (template && fs.existsSync(template)) {
    return openDatabase({ kind: "pglite", dataDir: null, loadDataDir: new Blob([fs.readFileSync(template)]) });
  }
  const database = await openDatabase({ kind: "pglite", dataDir: null });
  if (template) {
    const dump = await (database.db as unknown as { $client: PGlite }).$client.dumpDataDir("none");
    // Written aside, then renamed: a file loading it never sees half of it.
    const building = `${template}.${process.pid}`;
    fs.writeFileSync(building, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(building, template);
  }
  return database;
}

/**
 * A new data directory for a test server: a copy of the run's template, migrated and seeded,
 * its sample images drawn (tests/setup/data-dir-template.ts). The caller removes it.
 */
export async function serverDataDir(prefix: string): Promise<string> {
  const { dataDirFromTemplate } = await import("../setup/data-dir-template");
  return dataDirFromTemplate(serverDataTemplate(), prefix);
}

/** `npm test`'s template, shared by all its test runs (scripts/test-all.mjs), else this run's. */
function serverDataTemplate(): string {
  return process.env.TEST_DATA_TEMPLATE || path.join(inject("testRunDir"), "data-dir");
}

/**
 * A data directory for one suite: named now, copied from the run's template when the suite
 * starts (a server's first start on an empty directory, its initdb and images, costs about
 * 15 s of CPU; a copy about 4), removed when it ends. On the PostgreSQL pass the server still
 * takes its images from it (suiteServerDatabase gives it its database).
 */
export function suiteServerDataDir(prefix: string): string {
  const dir = path.join(os.tmpdir(), `${prefix}${randomBytes(4).toString("hex")}`);
  beforeAll(async () => {
    const { ensureDataDirTemplate } = await import("../setup/data-dir-template");
    fs.cpSync(await ensureDataDirTemplate(serverDataTemplate()), dir, { recursive: true });
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}
