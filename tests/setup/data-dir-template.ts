// A server's data directory as its first start leaves it, made once per test run and copied
// for each test server: the PGlite database migrated and seeded with the sample catalogue, and
// the sample images drawn. Drawing the images and initdb cost a fresh server about 15 s of CPU
// on 2 cores; a server started on a copy needs about 4. It still runs every start-up step: they
// find their work done, and add what the copy lacks (the admin account, the auth secret).
// The first start on an empty directory is tested in tests/integration/server-boot.test.ts.
// Usage as a command (tests/setup/e2e-server.mjs): node --import tsx tests/setup/data-dir-template.ts DIR
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { openDatabase } from "~/db/client.server";
import { ensureSampleImages, seedSampleCatalogue } from "~/services/seed.server";
import { localDiskStorage } from "~/services/storage.server";

/**
 * Makes the template in `dir` unless it is there. One process makes it (the others wait for
 * it), aside, then renames it into place: nobody copies half of one.
 */
export async function ensureDataDirTemplate(dir: string): Promise<string> {
  const lock = `${dir}.lock`;
  const started = Date.now();
  while (!fs.existsSync(dir)) {
    if (takeLock(lock)) {
      try {
        await makeTemplate(dir);
      } finally {
        fs.rmSync(lock, { recursive: true, force: true });
      }
    } else {
      // Another process is making it.
      if (Date.now() - started > 180_000) throw new Error(`no data directory template in ${dir} after 3 minutes (remove ${lock} if it was left behind)`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  return dir;
}

function takeLock(lock: string): boolean {
  try {
    fs.mkdirSync(lock);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

async function makeTemplate(dir: string) {
  const building = `${dir}.${process.pid}`;
  fs.rmSync(building, { recursive: true, force: true });
  const database = await openDatabase({ kind: "pglite", dataDir: building });
  try {
    await ensureSampleImages(localDiskStorage(path.join(building, "uploads")));
    await seedSampleCatalogue(database.db);
  } finally {
    await database.close();
  }
  fs.renameSync(building, dir);
}

/** A new temporary data directory holding a copy of the template (made first if needed). */
export async function dataDirFromTemplate(template: string, prefix = "comptoir-data-"): Promise<string> {
  await ensureDataDirTemplate(template);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.cpSync(template, dir, { recursive: true });
  return dir;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dir = process.argv[2];
  if (!dir) throw new Error("usage: data-dir-template.ts DIR");
  await ensureDataDirTemplate(path.resolve(dir));
}
