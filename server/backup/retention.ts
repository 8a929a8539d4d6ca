import fs from "node:fs";
import path from "node:path";

/** An archive `npm run backup` wrote (manifest.ts `archiveName`): its name sorts by the instant it was taken. */
const ARCHIVE_NAME = /^comptoir-backup-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z\.tar\.gz$/;

/**
 * Of the files named `names`, the archives beyond the newest `keep`, never `written` (the one
 * just taken, whatever a clock did). Any other file is not the command's to remove.
 */
export function archivesBeyond(names: string[], keep: number, written: string): string[] {
  const archives = names.filter((name) => ARCHIVE_NAME.test(name) && name !== written).sort().reverse();
  return archives.slice(Math.max(keep - 1, 0));
}

/** Removes from `dir` the archives beyond the newest `keep` (the one just `written` counts among them); returns their names. */
export function pruneArchives(dir: string, keep: number, written: string): string[] {
  const gone = archivesBeyond(fs.readdirSync(dir), keep, written);
  for (const name of gone) fs.rmSync(path.join(dir, name), { force: true });
  return gone;
}
