import type { DatabaseFacts } from "./database-facts";
import type { TarEntryInfo } from "./tar";

/** The last entry of every archive: what it holds, with a checksum per entry. */
export const MANIFEST_PATH = "manifest.json";
export const FORMAT = "comptoir-backup";
export const FORMAT_VERSION = 1;

/** Where each part lives in the archive. */
export const DATABASE_ENTRY = { pglite: "database/pglite.tar", postgres: "database/postgres.dump" } as const;
/** DATA_DIR's folders kept byte for byte (uploads and private only on local disk). */
export const DATA_FOLDERS = ["uploads", "private", "secrets"] as const;
export const DATA_PREFIX = "data/";

export type S3Listing = {
  endpoint: string;
  bucket: string;
  note: string;
  objects: { key: string; size: number; sha256: string }[];
};

export type Manifest = {
  format: typeof FORMAT;
  version: typeof FORMAT_VERSION;
  createdAt: string;
  database: DatabaseFacts & { kind: "pglite" | "postgres"; entry: string };
  /** Every other entry of the archive (database dump and files), with its size and sha256. */
  entries: TarEntryInfo[];
  /** With S3: the bucket's objects as they were (not copied into the archive). */
  s3: S3Listing | null;
};

/** The archive's name for an instant: comptoir-backup-2026-11-27T12-00-00Z.tar.gz. */
export function archiveName(at: Date): string {
  return `comptoir-backup-${at.toISOString().replace(/\.\d{3}Z$/, "Z").replaceAll(":", "-")}.tar.gz`;
}
