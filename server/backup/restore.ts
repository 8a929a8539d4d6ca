import { createHash } from "node:crypto";
import { once } from "node:events";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import pg from "pg";
import { PGLITE_START_PARAMS } from "~/db/client.server";
import { acquireDataDirLock } from "~/db/data-dir-lock.server";
import { PRIVATE_FOLDER_MODE, makePrivate } from "~/lib/private-files.server";
import { type DatabaseFacts, type Query, listTables, readDatabaseFacts } from "./database-facts";
import { DATABASE_ENTRY, DATA_FOLDERS, DATA_PREFIX, FORMAT, FORMAT_VERSION, MANIFEST_PATH, type Manifest } from "./manifest";
import { copyPgliteIntoPostgres } from "./move-to-postgres";
import { pgRestore } from "./pg-tools";
import { readTar } from "./tar";

export type RestoreOptions = {
  archive: string;
  dataDir: string;
  /** Restore into this PostgreSQL (from a PostgreSQL or a PGlite archive) instead of DATA_DIR's PGlite. */
  databaseUrl?: string;
  /** Empties a PostgreSQL database that has tables first: the operator said so, in words. */
  replaceDatabase?: boolean;
};

export type RestoreSummary = {
  manifest: Manifest;
  target: "pglite" | "postgres";
  moved: boolean;
  files: number;
  /** Entries of DATA_DIR this user could not make private (another user's). */
  notPrivate: string[];
};

/** DATA_DIR may hold nothing but the backups folder (an archive kept there). */
const IGNORED_IN_DATA_DIR = new Set(["backups"]);

/**
 * Rebuilds a shop from an archive into an empty DATA_DIR (and an empty PostgreSQL database when
 * databaseUrl is given). The archive is unpacked aside and every checksum checked before
 * anything is written; a target that holds data is refused.
 */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreSummary> {
  const dataDir = path.resolve(options.dataDir);
  const leftovers = fs.existsSync(dataDir) ? fs.readdirSync(dataDir).filter((name) => !IGNORED_IN_DATA_DIR.has(name)) : [];
  if (leftovers.length > 0) {
    throw new Error(`Le dossier de données ${dataDir} n'est pas vide (${leftovers.slice(0, 5).join(", ")}) : restaurez dans un DATA_DIR vide, jamais par-dessus une boutique.`);
  }
  const tables = options.databaseUrl ? await postgresTables(options.databaseUrl, options.replaceDatabase ?? false) : [];

  fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  const staging = fs.mkdtempSync(path.join(path.dirname(dataDir), ".comptoir-restore-"));
  try {
    const manifest = await unpackAndVerify(options.archive, staging);
    if (options.databaseUrl && tables.length > 0) await emptyPostgres(options.databaseUrl);
    const kind = manifest.database.kind;
    const dumpFile = path.join(staging, manifest.database.entry);
    let facts: DatabaseFacts;
    let moved = false;
    if (!options.databaseUrl) {
      if (kind !== "pglite") {
        throw new Error("Cette sauvegarde vient de PostgreSQL : donnez DATABASE_URL (une base vide) pour la restaurer.");
      }
      facts = await loadPglite(dataDir, dumpFile);
    } else if (kind === "postgres") {
      await pgRestore(options.databaseUrl, dumpFile, staging);
      facts = await postgresFacts(options.databaseUrl);
    } else {
      await copyPgliteIntoPostgres(new Blob([fs.readFileSync(dumpFile)]), options.databaseUrl);
      facts = await postgresFacts(options.databaseUrl);
      moved = true;
    }
    // A move from an older version's archive went through the newer migrations: its counts may differ.
    if (facts.migrations === manifest.database.migrations) checkFacts(manifest.database, facts);
    else if (!moved) throw new Error(`La base restaurée a ${facts.migrations} migration(s), la sauvegarde ${manifest.database.migrations}.`);

    fs.mkdirSync(dataDir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
    const data = path.join(staging, DATA_PREFIX);
    for (const folder of fs.existsSync(data) ? fs.readdirSync(data) : []) {
      fs.renameSync(path.join(data, folder), path.join(dataDir, folder));
    }
    // As the server leaves it at start: PGlite loads a dump's files 0666, whatever the umask.
    const { failed } = makePrivate(dataDir);
    const files = manifest.entries.filter((entry) => entry.path.startsWith(DATA_PREFIX)).length;
    return { manifest, target: options.databaseUrl ? "postgres" : "pglite", moved, files, notPrivate: failed };
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** An archive entry's place in the staging folder: only a dump or a file of the kept folders. */
function stagedPath(staging: string, name: string): string {
  const target = path.resolve(staging, name);
  const expected = Object.values(DATABASE_ENTRY).includes(name as never) || DATA_FOLDERS.some((folder) => name.startsWith(`${DATA_PREFIX}${folder}/`));
  if (!expected || name.includes("\0") || !target.startsWith(staging + path.sep)) throw new Error(`Nom refusé dans l'archive : ${JSON.stringify(name)}`);
  return target;
}

/** The manifest is read into memory: one of 100,000 files takes about 20 MB. */
export const MAX_MANIFEST_BYTES = 64 << 20;

const unpacked = (archive: string) => fs.createReadStream(archive).pipe(zlib.createGunzip());

/** Reads an entry through without keeping it. */
async function skip(body: AsyncIterable<Buffer>): Promise<void> {
  for await (const chunk of body) void chunk;
}

/**
 * The manifest, which comes last: a first pass reads the archive through, writing nothing, so
 * that the unpacking knows what the archive claims to hold before it writes a byte.
 */
async function readManifest(archive: string): Promise<{ manifest: Manifest; bytes: number }> {
  let text: string | null = null;
  await readTar(unpacked(archive), async (name, size, body) => {
    if (name !== MANIFEST_PATH) return skip(body);
    if (size > MAX_MANIFEST_BYTES) throw new Error(`Manifeste de ${size} octets (au plus ${MAX_MANIFEST_BYTES}) : archive refusée.`);
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(chunk);
    text = Buffer.concat(chunks).toString("utf8");
  });
  if (text === null) throw new Error(`${archive} n'est pas une sauvegarde de Comptoir (pas de ${MANIFEST_PATH}).`);
  let manifest: Manifest;
  try {
    manifest = JSON.parse(text) as Manifest;
  } catch {
    throw new Error("Manifeste illisible : ce n'est pas du JSON. L'archive est endommagée.");
  }
  if (manifest.format !== FORMAT || manifest.version !== FORMAT_VERSION) {
    throw new Error(`Format de sauvegarde inconnu (${manifest.format} ${manifest.version}) : attendu ${FORMAT} ${FORMAT_VERSION}.`);
  }
  // The sizes bound the unpacking: each must be a count.
  if (!Array.isArray(manifest.entries) || !manifest.entries.every((entry) => typeof entry?.path === "string" && Number.isSafeInteger(entry.size) && entry.size >= 0)) {
    throw new Error("Manifeste illisible : chaque entrée doit avoir un chemin et une taille en octets.");
  }
  return { manifest, bytes: Buffer.byteLength(text) };
}

async function unpackAndVerify(archive: string, staging: string): Promise<Manifest> {
  const { manifest, bytes } = await readManifest(archive);
  const seen = new Map<string, { size: number; sha256: string }>();
  const stage = async (name: string, size: number, body: AsyncIterable<Buffer>) => {
    if (name === MANIFEST_PATH) return skip(body); // read by the first pass
    const file = stagedPath(staging, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const hash = createHash("sha256");
    const out = fs.createWriteStream(file, { mode: 0o600 });
    for await (const chunk of body) {
      hash.update(chunk);
      if (!out.write(chunk)) await once(out, "drain");
    }
    await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
    seen.set(name, { size, sha256: hash.digest("hex") });
  };
  // A good archive unpacks to exactly what its manifest declares (checked entry by entry
  // below): twice that stops one that does not before it fills the disk, and leaves the checks
  // below to name the entries at fault in an archive that is merely damaged.
  const declared = bytes + manifest.entries.reduce((sum, entry) => sum + entry.size, 0);
  await readTar(unpacked(archive), stage, { maxTotalBytes: 2 * declared });
  const problems: string[] = [];
  for (const entry of manifest.entries) {
    const found = seen.get(entry.path);
    if (!found) problems.push(`${entry.path} manque`);
    else if (found.size !== entry.size || found.sha256 !== entry.sha256) problems.push(`${entry.path} est altéré (somme de contrôle différente)`);
    seen.delete(entry.path);
  }
  for (const extra of seen.keys()) problems.push(`${extra} n'est pas dans le manifeste`);
  if (!manifest.entries.some((entry) => entry.path === manifest.database.entry)) problems.push(`${manifest.database.entry} n'est pas dans le manifeste`);
  if (problems.length > 0) throw new Error(`Sauvegarde refusée, rien n'a été écrit :\n- ${problems.join("\n- ")}`);
  return manifest;
}

/** The database's tables; refused unless it has none or the operator asked to replace them. */
async function postgresTables(url: string, replace: boolean): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await listTables(async (text, params) => (await client.query(text, params)).rows);
    if (tables.length > 0 && !replace) {
      throw new Error(
        `La base PostgreSQL contient déjà ${tables.length} table(s) (${tables.slice(0, 3).join(", ")}…) : restaurez dans une base vide, ` +
          "ou ajoutez --replace-database pour l'effacer d'abord (toutes ses données seront perdues).",
      );
    }
    return tables;
  } finally {
    await client.end();
  }
}

/** --replace-database, once the archive is known good: what the shop creates lives in public (tables, functions, pg_trgm) and drizzle. */
async function emptyPostgres(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("drop schema if exists drizzle cascade; drop schema public cascade; create schema public");
  } finally {
    await client.end();
  }
}

async function loadPglite(dataDir: string, dumpFile: string): Promise<DatabaseFacts> {
  const lock = acquireDataDirLock(dataDir);
  try {
    const client = await PGlite.create({
      dataDir: path.join(dataDir, "pglite"),
      loadDataDir: new Blob([fs.readFileSync(dumpFile)]),
      startParams: PGLITE_START_PARAMS,
      extensions: { pg_trgm },
    });
    try {
      return await readDatabaseFacts(async (text, params) => (await client.query<Record<string, unknown>>(text, params)).rows);
    } finally {
      await client.close();
    }
  } finally {
    lock.release();
  }
}

async function postgresFacts(url: string): Promise<DatabaseFacts> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const query: Query = async (text, params) => (await client.query(text, params)).rows;
    return await readDatabaseFacts(query);
  } finally {
    await client.end();
  }
}

/** The restored database holds what the manifest counted, table by table. */
function checkFacts(expected: DatabaseFacts, found: DatabaseFacts): void {
  const differences = Object.entries(expected.tables)
    .filter(([table, rows]) => found.tables[table] !== rows)
    .map(([table, rows]) => `${table} : ${found.tables[table] ?? "absente"} ligne(s) au lieu de ${rows}`);
  if (differences.length > 0) throw new Error(`La base restaurée ne correspond pas au manifeste :\n- ${differences.join("\n- ")}`);
}
