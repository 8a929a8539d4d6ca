import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backupCommand } from "../../scripts/backup";
import { type Attempts, modeCounts, openToEveryone, otherUserAttempts, otherUserUnavailable } from "../support/other-user";
import { ensureBuild, type RunningServer, startServer } from "./server-process";
import { databaseLabel, suiteServerDataDir, suiteServerDatabase } from "./test-database";

/**
 * DATA_DIR holds the database (PGlite's files, its WAL), the secrets and customers' buy-back
 * photos. Issue 48: it was created 0755 and PGlite wrote its files 0666, so any user of the
 * machine could read the WAL and write pg_control. The built server, started on a folder left
 * open to everyone, closes it at start; what it writes while it runs (a buy-back photo, the
 * checkpoint and copy of a backup) comes out private; and the machine's user `nobody` can
 * list, read and write nothing in it, even with DATA_DIR itself opened for passing through.
 */
if (otherUserUnavailable) console.warn(`private-data-dir.test.ts SKIPPED: ${otherUserUnavailable}`);

/** Folders 0700, files 0600; the control socket (PGlite) 0600 as well. */
const PRIVATE_MODES = ["d700", "f600", "s600"];
const NOTHING: Omit<Attempts, "refusals"> = { listed: [], read: [], written: [] };

describe.skipIf(otherUserUnavailable !== null)(`DATA_DIR is closed to the machine's other users on ${databaseLabel}`, () => {
  const dataDir = suiteServerDataDir("comptoir-private-");
  const database = suiteServerDatabase("comptoir_private");
  let server: RunningServer;
  let before: Record<string, number>;

  beforeAll(async () => {
    ensureBuild();
    openToEveryone(dataDir);
    before = modeCounts(dataDir);
    server = await startServer({ DATA_DIR: dataDir, ...database });
  });
  afterAll(async () => {
    expect(await server?.stop()).toBe(0);
  });

  it("the start closes a folder left open, the files written while it runs are private, and nobody reads or writes any", async () => {
    expect(before).toMatchObject({ d755: expect.any(Number), f666: expect.any(Number) });
    // The server reads the images itself: they still show.
    const home = await (await fetch(server.url)).text();
    const image = /\/uploads\/[^"' ,]+\.webp/.exec(home)?.[0];
    expect(image).toBeDefined();
    const served = await fetch(`${server.url}${image}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/webp");
    expect((await served.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    // Written while it runs: a buy-back photo, and a backup (on PGlite, a checkpoint and a copy made by the server).
    const form = new FormData();
    for (const [name, value] of Object.entries({ lastName: "Curie", firstName: "Marie", email: "marie.curie@example.fr", phone: "0601020304", message: "Une collection de cartes Base Set à estimer." })) form.append(name, value);
    const photo = await sharp({ create: { width: 400, height: 300, channels: 3, background: "#36c" } }).jpeg().toBuffer();
    form.append("photos", new Blob([new Uint8Array(photo)], { type: "image/jpeg" }), "classeur.jpg");
    expect((await fetch(`${server.url}/rachat`, { method: "POST", body: form, headers: { origin: server.url } })).status).toBe(200);
    const backup = await backupCommand([], { DATA_DIR: dataDir, DATABASE_URL: database.DATABASE_URL });
    expect(backup.code, backup.message).toBe(0);
    expect(fs.readdirSync(path.join(dataDir, "private")).filter((file) => file.startsWith("rachat_"))).toHaveLength(1);

    const after = modeCounts(dataDir);
    console.info(`DATA_DIR modes, before the start: ${JSON.stringify(before)}; while it runs: ${JSON.stringify(after)}`);
    expect(Object.keys(after).filter((mode) => !PRIVATE_MODES.includes(mode))).toEqual([]);

    const closed = otherUserAttempts(dataDir);
    expect(closed).toMatchObject(NOTHING);
    expect(Object.keys(closed.refusals)).toEqual(["EACCES"]);
    // DATA_DIR opened for passing through (an operator's chmod 711): each folder and file inside still refuses by its own mode.
    fs.chmodSync(dataDir, 0o711);
    try {
      const inside = otherUserAttempts(dataDir);
      expect(inside).toMatchObject(NOTHING);
      expect(Object.keys(inside.refusals)).toEqual(["EACCES"]);
    } finally {
      fs.chmodSync(dataDir, 0o700);
    }
  });
});
