import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import pg from "pg";
import { PGLITE_START_PARAMS } from "~/db/client.server";
import { DataDirLockedError, acquireDataDirLock } from "~/db/data-dir-lock.server";
import type { S3StorageOptions } from "~/services/storage-s3.server";
import { type BackupRecord, LAST_BACKUP_SETTING, RECORD_BACKUP_SQL } from "~/services/backup-record.server";
import { requestDump, sendRecord } from "./control-channel";
import { type DatabaseFacts, readDatabaseFacts } from "./database-facts";
import { DATABASE_ENTRY, DATA_FOLDERS, DATA_PREFIX, FORMAT, FORMAT_VERSION, MANIFEST_PATH, type Manifest, type S3Listing, archiveName } from "./manifest";
import { pgDump } from "./pg-tools";
import { type TarEntryInfo, TarWriter } from "./tar";

export type BackupOptions = {
  dataDir: string;
  databaseUrl?: string;
  s3?: S3StorageOptions | null;
  outDir: string;
  now?: Date;
};

/**
 * Writes one archive: the database's dump first (PGlite's own copy, or pg_dump of one snapshot),
 * then DATA_DIR's files, then the manifest; the shop keeps serving meanwhile. Files are read
 * after the dump, so an image saved with a dumped row is there (files are written before their
 * rows); only the 6-hourly sweep of images no product uses any more could remove one in the
 * seconds between. Written aside and renamed: a half-written archive never has the name.
 */
export async function createBackup(options: BackupOptions): Promise<{ file: string; manifest: Manifest; recordError: string | null }> {
  const createdAt = options.now ?? new Date();
  // The archive holds customers' data and the shop's secrets: for the owner only.
  fs.mkdirSync(options.outDir, { recursive: true, mode: 0o700 });
  const file = path.join(options.outDir, archiveName(createdAt));
  const partial = `${file}.partial`;
  const workDir = fs.mkdtempSync(path.join(options.outDir, ".comptoir-backup-"));
  try {
    const kind = options.databaseUrl ? "postgres" : "pglite";
    const dumpFile = path.join(workDir, "database");
    const facts = options.databaseUrl ? await dumpPostgres(options.databaseUrl, dumpFile) : await dumpPglite(options.dataDir, dumpFile);

    const gzip = zlib.createGzip();
    const written = pipeline(gzip, fs.createWriteStream(partial, { mode: 0o600 }));
    const tar = new TarWriter(gzip);
    const entries: TarEntryInfo[] = [await tar.addFile(DATABASE_ENTRY[kind], dumpFile)];
    // With S3 the images and private files are in the bucket; the secrets stay on disk.
    const folders = options.s3 ? DATA_FOLDERS.filter((folder) => folder === "secrets") : DATA_FOLDERS;
    for (const folder of folders) {
      for (const relative of listFiles(path.join(options.dataDir, folder))) {
        const body = await fs.promises.readFile(path.join(options.dataDir, folder, relative));
        entries.push(await tar.addBuffer(`${DATA_PREFIX}${folder}/${relative}`, body));
      }
    }
    const manifest: Manifest = {
      format: FORMAT,
      version: FORMAT_VERSION,
      createdAt: createdAt.toISOString(),
      database: { kind, entry: DATABASE_ENTRY[kind], ...facts },
      entries,
      s3: options.s3 ? await listBucket(options.s3) : null,
    };
    await tar.addBuffer(MANIFEST_PATH, Buffer.from(JSON.stringify(manifest, null, 2)));
    await tar.finish();
    gzip.end();
    await written;
    fs.renameSync(partial, file);
    const record: BackupRecord = { at: createdAt.toISOString(), file, bytes: fs.statSync(file).size, database: kind };
    const recordError = await noteBackup(options, record).then(
      () => null,
      (error: Error) => error.message,
    );
    return { file, manifest, recordError };
  } finally {
    fs.rmSync(partial, { force: true });
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

/**
 * Notes the complete archive in the shop's database (the dashboard's checklist reads it): through
 * PostgreSQL, the running server (PGlite held by it), or PGlite opened here under its lock.
 */
async function noteBackup(options: BackupOptions, record: BackupRecord): Promise<void> {
  const params = [LAST_BACKUP_SETTING, JSON.stringify(record)];
  if (options.databaseUrl) {
    const client = new pg.Client({ connectionString: options.databaseUrl });
    await client.connect();
    try {
      await client.query(RECORD_BACKUP_SQL, params);
    } finally {
      await client.end();
    }
    return;
  }
  let lock;
  try {
    lock = acquireDataDirLock(options.dataDir);
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    return sendRecord(options.dataDir, record);
  }
  try {
    const client = await PGlite.create({ dataDir: path.join(options.dataDir, "pglite"), startParams: PGLITE_START_PARAMS, extensions: { pg_trgm } });
    try {
      await client.query(RECORD_BACKUP_SQL, params);
    } finally {
      await client.close();
    }
  } finally {
    lock.release();
  }
}

/** Files below dir, slash-separated, sorted; a file being written (*.tmp) is not one yet. */
export function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !entry.name.endsWith(".tmp"))
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
    .sort();
}

/**
 * The PGlite copy: taken by the running server when it holds the data directory (the control
 * channel), else by this process under the same lock. Loaded again in memory to count its rows:
 * the manifest describes the dump itself, and a dump that does not load fails here, not on the
 * day of a restore.
 */
async function dumpPglite(dataDir: string, file: string): Promise<DatabaseFacts> {
  if (!fs.existsSync(path.join(dataDir, "pglite", "PG_VERSION"))) {
    throw new Error(`Aucune base PGlite dans ${path.join(dataDir, "pglite")} : vérifiez DATA_DIR (ou DATABASE_URL pour PostgreSQL).`);
  }
  let lock;
  try {
    lock = acquireDataDirLock(dataDir);
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
  }
  if (lock) {
    try {
      const client = await PGlite.create({ dataDir: path.join(dataDir, "pglite"), startParams: PGLITE_START_PARAMS, extensions: { pg_trgm } });
      try {
        await client.exec("checkpoint");
        fs.writeFileSync(file, Buffer.from(await (await client.dumpDataDir("none")).arrayBuffer()), { mode: 0o600 });
      } finally {
        await client.close();
      }
    } finally {
      lock.release();
    }
  } else {
    await requestDump(dataDir, file);
  }
  const copy = await PGlite.create({ loadDataDir: new Blob([fs.readFileSync(file)]), startParams: PGLITE_START_PARAMS, extensions: { pg_trgm } });
  try {
    return await readDatabaseFacts(async (text, params) => (await copy.query<Record<string, unknown>>(text, params)).rows);
  } finally {
    await copy.close();
  }
}

/**
 * pg_dump of one snapshot, exported by a transaction that counts the rows in the same
 * snapshot: the manifest's counts are the dump's, whatever the shop writes meanwhile.
 */
async function dumpPostgres(url: string, file: string): Promise<DatabaseFacts> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("begin isolation level repeatable read read only");
    const [{ snapshot }] = (await client.query<{ snapshot: string }>("select pg_export_snapshot() as snapshot")).rows as [{ snapshot: string }];
    const facts = await readDatabaseFacts(async (text, params) => (await client.query(text, params)).rows);
    await pgDump(url, file, snapshot);
    await client.query("commit");
    return facts;
  } finally {
    await client.end();
  }
}

const S3_NOTE =
  "Objects are listed with their checksums, not copied: keep the bucket's own versioning or replication. / " +
  "Les objets sont listés avec leur somme de contrôle, pas copiés : activez le versionnage ou la réplication du bucket.";

/** Every object of the bucket (product images and private/ files), with size and sha256. */
async function listBucket(options: S3StorageOptions): Promise<S3Listing> {
  const { s3Storage } = await import("~/services/storage-s3.server");
  const bucket = s3Storage(options);
  const keys = await bucket.list("");
  const objects: S3Listing["objects"] = [];
  // A few reads at a time: the bucket is read whole, which is what a checksum per object costs.
  for (let i = 0; i < keys.length; i += 8) {
    const batch = await Promise.all(
      keys.slice(i, i + 8).map(async (key) => {
        const body = await bucket.get(key);
        return body ? { key, size: body.length, sha256: createHash("sha256").update(body).digest("hex") } : null;
      }),
    );
    for (const object of batch) if (object) objects.push(object);
  }
  return { endpoint: options.endpoint, bucket: options.bucket, note: S3_NOTE, objects };
}
