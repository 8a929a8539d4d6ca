import fs from "node:fs";
import path from "node:path";

/**
 * DATA_DIR holds the database, the secrets and customers' photos: no other OS user of the
 * machine may read or write any of it (docs/security.md, V14).
 */
export const PRIVATE_UMASK = 0o077;
export const PRIVATE_FOLDER_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** What this process creates from now on is its user's alone (PGlite's initdb excepted: see makePrivate). */
export function usePrivateUmask(): void {
  process.umask(PRIVATE_UMASK);
}

export type PrivacyReport = { checked: number; fixed: number; failed: string[] };

/**
 * Makes `dir` and every folder below it 0700 and every file 0600. Needed beside the umask:
 * PGlite chmods the files of its initdb (and of a loaded dump) 0666 and its two relcache files
 * 0644 at each open, whatever the umask. Symbolic links are neither followed nor changed, nor
 * are sockets (the control socket makes itself 0600). A file that vanishes meanwhile is
 * skipped; one this user may not change (owned by another) is reported, not fatal.
 */
export function makePrivate(dir: string): PrivacyReport {
  const report: PrivacyReport = { checked: 0, fixed: 0, failed: [] };
  /** Runs `action` on `file`: false when it vanished or this user may not touch it (noted). */
  const attempt = (file: string, action: () => void): boolean => {
    try {
      action();
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EPERM" || code === "EACCES") report.failed.push(file);
      else if (code !== "ENOENT") throw error;
      return false;
    }
  };
  const fix = (file: string, mode: number) => {
    report.checked++;
    attempt(file, () => {
      // lstat: a link put in the place of an entry since readdir is not followed (only this
      // user, or root, can put one there).
      const current = fs.lstatSync(file);
      if (current.isSymbolicLink() || (current.mode & 0o7777) === mode) return;
      fs.chmodSync(file, mode);
      report.fixed++;
    });
  };
  // The root may be a link the operator chose (DATA_DIR=/srv/data → /mnt/…): followed.
  if (!fs.existsSync(dir)) return report;
  const root = fs.realpathSync(dir);
  fix(root, PRIVATE_FOLDER_MODE);
  const folders = [root];
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    let entries: fs.Dirent[] = [];
    if (!attempt(folder, () => (entries = fs.readdirSync(folder, { withFileTypes: true })))) continue;
    for (const entry of entries) {
      const file = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        fix(file, PRIVATE_FOLDER_MODE);
        folders.push(file);
      } else if (entry.isFile()) {
        fix(file, PRIVATE_FILE_MODE);
      }
    }
  }
  return report;
}
