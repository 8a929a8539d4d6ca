import { rowsOf } from "~/db/query-rows";
import type { Db } from "~/db/types";
import { sql } from "drizzle-orm";

/**
 * The last backup, kept in the database (site_settings "last_backup") by `npm run backup` once
 * its archive is complete: the dashboard's launch checklist reads it (issue 41), whichever
 * machine or folder the archive went to.
 */
export const LAST_BACKUP_SETTING = "last_backup";

export type BackupRecord = { at: string; file: string; bytes: number; database: "pglite" | "postgres" };

/** The upsert, as plain SQL: the command writes it through pg or PGlite, without the app's Drizzle. */
export const RECORD_BACKUP_SQL = "insert into site_settings (key, value, updated_at) values ($1, $2::jsonb, now()) on conflict (key) do update set value = excluded.value, updated_at = excluded.updated_at";

export function isBackupRecord(value: unknown): value is BackupRecord {
  const record = value as Partial<BackupRecord> | null;
  return (
    typeof record === "object" &&
    record !== null &&
    typeof record.at === "string" &&
    !Number.isNaN(Date.parse(record.at)) &&
    typeof record.file === "string" &&
    typeof record.bytes === "number" &&
    (record.database === "pglite" || record.database === "postgres")
  );
}

/** Notes the backup in the database (the server's own handle: PGlite while it runs). */
export async function recordBackup(db: Db, record: BackupRecord): Promise<void> {
  await db.execute(
    sql`insert into site_settings (key, value, updated_at) values (${LAST_BACKUP_SETTING}, ${JSON.stringify(record)}::jsonb, now())
        on conflict (key) do update set value = excluded.value, updated_at = excluded.updated_at`,
  );
}

export async function lastBackup(db: Db): Promise<BackupRecord | null> {
  const [row] = rowsOf<{ value: unknown }>(await db.execute(sql`select value from site_settings where key = ${LAST_BACKUP_SETTING}`));
  const value = row?.value;
  return isBackupRecord(value) ? value : null;
}
