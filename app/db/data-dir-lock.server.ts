import fs from "node:fs";
import path from "node:path";
import { PRIVATE_FOLDER_MODE } from "~/lib/private-files.server";

/**
 * PGlite opens a data directory in one process only; a second opener would corrupt it.
 * The lock is a file holding the owner's pid, created atomically (O_EXCL). A lock whose
 * process is gone is stale and taken over.
 */
export class DataDirLockedError extends Error {
  constructor(
    public readonly dir: string,
    public readonly pid: number,
  ) {
    super(
      `La base embarquée ${dir} est déjà ouverte par le processus ${pid}. ` +
        `Arrêtez l'autre serveur, ou donnez un autre DATA_DIR à celui-ci.`,
    );
    this.name = "DataDirLockedError";
  }
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export type DataDirLock = { release(): void };

export function acquireDataDirLock(dir: string): DataDirLock {
  // The DATA_DIR of a first start, a script or a restore: closed to other users from the start.
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  const lockPath = path.join(dir, "comptoir.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(lockPath, "wx");
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        try {
          if (fs.readFileSync(lockPath, "utf8").trim() === String(process.pid)) fs.unlinkSync(lockPath);
        } catch {
          // Already gone: nothing to release.
        }
      };
      process.once("exit", release);
      return { release };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = Number.parseInt(fs.readFileSync(lockPath, "utf8").trim(), 10);
      if (Number.isInteger(owner) && (owner === process.pid || processIsAlive(owner))) {
        throw new DataDirLockedError(dir, owner);
      }
      fs.rmSync(lockPath, { force: true }); // stale: its process is gone
    }
  }
  throw new Error(`Impossible de verrouiller ${dir}`);
}
