import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DataDirLockedError, acquireDataDirLock } from "~/db/data-dir-lock.server";
import { openDatabase } from "~/db/client.server";
import { suiteServerDataDir } from "./test-database";
import { runsOn } from "../support/by-design";

// PGlite's own lock: the run on PostgreSQL has nothing to add.
describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))("PGlite data directory lock", runsOn("PGlite"), () => {
  const dir = suiteServerDataDir("comptoir-lock-");

  it("refuses a second opener of the same directory with a clear error, and frees it on close", async () => {
    const first = await openDatabase({ kind: "pglite", dataDir: dir });
    await expect(openDatabase({ kind: "pglite", dataDir: dir })).rejects.toThrow(DataDirLockedError);
    await expect(openDatabase({ kind: "pglite", dataDir: dir })).rejects.toThrow(/déjà ouverte par le processus/);
    await first.close();
    const second = await openDatabase({ kind: "pglite", dataDir: dir });
    await second.close();
  });

  it("takes over a lock left by a process that is gone", () => {
    const stale = fs.mkdtempSync(path.join(os.tmpdir(), "comptoir-stale-"));
    // A pid far above any real one on this machine.
    fs.writeFileSync(path.join(stale, "comptoir.lock"), "999999999");
    const lock = acquireDataDirLock(stale);
    expect(fs.readFileSync(path.join(stale, "comptoir.lock"), "utf8")).toBe(String(process.pid));
    lock.release();
    expect(fs.existsSync(path.join(stale, "comptoir.lock"))).toBe(false);
    fs.rmSync(stale, { recursive: true, force: true });
  });
});
