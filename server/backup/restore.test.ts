import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { FORMAT, FORMAT_VERSION, MANIFEST_PATH } from "./manifest";
import { MAX_MANIFEST_BYTES, restoreBackup } from "./restore";
import { TarWriter } from "./tar";

/**
 * Hostile archives given to `npm run restore`: each is refused with its French message while it
 * is unpacked aside, before any database is opened, and leaves nothing behind: no DATA_DIR, no
 * staging folder, nothing beside them.
 */
const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

type Entry = [name: string, body: Buffer];

/** A manifest for `entries` (sizes and checksums as they are), with `change` applied. */
function manifestOf(entries: Entry[], change: (manifest: Record<string, unknown>) => void = () => {}): Entry {
  const manifest: Record<string, unknown> = {
    format: FORMAT,
    version: FORMAT_VERSION,
    createdAt: new Date().toISOString(),
    database: { kind: "pglite", entry: "database/pglite.tar", migrations: 1, tables: {} },
    entries: entries.map(([name, body]) => ({ path: name, size: body.length, sha256: createHash("sha256").update(body).digest("hex") })),
    s3: null,
  };
  change(manifest);
  return [MANIFEST_PATH, Buffer.from(JSON.stringify(manifest))];
}

/** A folder for one test: the archive and the parent of DATA_DIR (where the staging folder goes). */
async function workspace(entries: Entry[]): Promise<{ parent: string; archive: string; dataDir: string }> {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), "comptoir-restore-test-"));
  made.push(parent);
  const archive = path.join(parent, "archive.tar.gz");
  const gzip = zlib.createGzip({ level: 1 });
  const written = pipeline(gzip, fs.createWriteStream(archive));
  const tar = new TarWriter(gzip);
  for (const [name, body] of entries) await tar.addBuffer(name, body);
  await tar.finish();
  gzip.end();
  await written;
  return { parent, archive, dataDir: path.join(parent, "data") };
}

/** Restores, expecting `message`; then only the archive is left in the parent folder. */
async function expectRefused(entries: Entry[], message: string | RegExp): Promise<void> {
  const { parent, archive, dataDir } = await workspace(entries);
  await expect(restoreBackup({ archive, dataDir })).rejects.toThrow(message);
  expect(fs.readdirSync(parent)).toEqual(["archive.tar.gz"]);
}

const dump: Entry = ["database/pglite.tar", Buffer.from("not read: refused before")];
const photo: Entry = ["data/private/rachat_1.webp", Buffer.from("photo")];

describe("restore refuses a hostile archive, leaving nothing written", () => {
  const nameRefused = (name: string) => `Nom refusé dans l'archive : ${JSON.stringify(name)} (chemin absolu, ou segment « . » ou « .. »).`;

  it.each([
    // Stays inside the staging folder, in a kept folder: taken before, as a secret from uploads/.
    "data/uploads/../secrets/auth-secret",
    "data/uploads/./x.webp",
    "../outside",
    "/tmp/comptoir-restore-absolute",
  ])("an entry named %s, even when the manifest lists it", async (name) => {
    const entries: Entry[] = [dump, photo, [name, Buffer.from("hostile")]];
    await expectRefused([...entries, manifestOf(entries)], nameRefused(name));
    expect(fs.existsSync("/tmp/comptoir-restore-absolute")).toBe(false);
  });

  it("entries that unpack to more than twice what the manifest declares, before the one past the cap is written", async () => {
    const big: Entry = ["data/uploads/big.webp", Buffer.alloc(4 << 20, 7)];
    // The manifest says 5 bytes for it: the archive is no bigger on disk (gzip), 4 MiB unpacked.
    const manifest = manifestOf([dump, photo, big], (m) => ((m.entries as { size: number }[])[2]!.size = 5));
    await expectRefused([dump, photo, big, manifest], /^L'archive dépasse la taille permise une fois dépaquetée \(\d+ octets\) : archive refusée\.$/);
  });

  it("a manifest over the cap, without reading it into memory", async () => {
    const huge: Entry = [MANIFEST_PATH, Buffer.alloc(MAX_MANIFEST_BYTES + 1, 0x20)];
    await expectRefused([dump, huge], `Manifeste de ${MAX_MANIFEST_BYTES + 1} octets (au plus ${MAX_MANIFEST_BYTES}) : archive refusée.`);
  });

  it("a manifest whose sizes are not counts (they bound the unpacking)", async () => {
    const manifest = manifestOf([dump, photo], (m) => ((m.entries as { size: unknown }[])[1]!.size = "1e99"));
    await expectRefused([dump, photo, manifest], "Manifeste illisible : chaque entrée doit avoir un chemin et une taille en octets.");
  });
});
