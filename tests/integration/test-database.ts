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
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: "postgres", url: url.toString(), poolSize: 5 });
  return {
    ...database,
    label: "PostgreSQL",
    close: async () => {
      await database.close();
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

export const databaseLabel = process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite";

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
 * 15 s of CPU; a copy about 4), removed when it ends. A suite skipped on PostgreSQL runs neither hook.
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
