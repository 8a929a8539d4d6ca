// What the database sides of `npm run bench` share (bench-drop-db.ts, bench-preorder-db.ts,
// bench-seed.ts): the bench's database opened as the server would, raw rows, the display image,
// and a command run to one line of JSON.
import path from "node:path";
import type { sql } from "drizzle-orm";
import { type Database, openDatabase } from "~/db/client.server";
import { SAMPLE_CATALOGUE } from "~/db/sample-catalogue";
import type { Db } from "~/db/types";
import { sampleImageKey } from "~/services/seed.server";

/** DATABASE_URL (PostgreSQL), else PGlite in DATA_DIR (./data), which no server may have open then. */
export function openBenchDatabase() {
  const url = process.env.DATABASE_URL || null;
  return openDatabase(url ? { kind: "postgres", url } : { kind: "pglite", dataDir: path.resolve(process.env.DATA_DIR ?? "./data") });
}

export type Row = Record<string, unknown>;

/** A raw query's rows, on PGlite and node-postgres alike. */
export const rows = async (db: Db, query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: Row[] }).rows;

/** The sample catalogue's display box image, for the products the bench adds. */
export const displayImagePath = () => sampleImageKey(SAMPLE_CATALOGUE.find((p) => p.art === "display")?.slug ?? SAMPLE_CATALOGUE[0]!.slug);

/** Runs the command named on the command line, prints its result as one line of JSON (the bench reads the last line), then closes the database. */
export async function runBenchCommand(database: Database, commands: Record<string, (db: Db) => Promise<unknown>>) {
  const command = process.argv[2];
  try {
    if (!command || !Object.hasOwn(commands, command)) throw new Error(`unknown command ${command ?? "(none)"}: expected ${Object.keys(commands).join(", ")}`);
    console.log(JSON.stringify(await commands[command]!(database.db)));
  } finally {
    await database.close();
  }
}
