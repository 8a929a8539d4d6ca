import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { MAX_PAX_HEADER_BYTES, type ReadTarLimits, TarWriter, readTar } from "./tar";

/** An archive of these entries, as TarWriter writes it (it checks no name: a hostile archive's can be anything). */
async function archiveOf(entries: [string, Buffer][]): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on("data", (chunk: Buffer) => chunks.push(chunk));
  const tar = new TarWriter(out);
  for (const [name, body] of entries) await tar.addBuffer(name, body);
  await tar.finish();
  out.end();
  return Buffer.concat(chunks);
}

/** Reads `archive` back in odd-sized pieces, as a gunzip stream hands them over; `read` gets each entry whole. */
async function readBack(archive: Buffer, read: [string, Buffer][], limits?: ReadTarLimits): Promise<void> {
  const pieces = (async function* () {
    for (let at = 0; at < archive.length; at += 333) yield archive.subarray(at, at + 333);
  })();
  await readTar(
    pieces,
    async (name, _size, body) => {
      const parts: Buffer[] = [];
      for await (const part of body) parts.push(part);
      read.push([name, Buffer.concat(parts)]);
    },
    limits,
  );
}

async function roundTrip(entries: [string, Buffer][]): Promise<[string, Buffer][]> {
  const read: [string, Buffer][] = [];
  await readBack(await archiveOf(entries), read);
  return read;
}

describe("tar archives of the backups", () => {
  it("gives back every entry, its name and bytes, long names and empty files included", async () => {
    const entries: [string, Buffer][] = [
      ["manifest.json", Buffer.from('{"a":1}')],
      ["data/uploads/empty", Buffer.alloc(0)],
      [`data/uploads/${"long-name-é".repeat(15)}.webp`, Buffer.from([0, 1, 2, 255])],
      ["data/private/exact", Buffer.alloc(1024, 7)],
    ];
    expect(await roundTrip(entries)).toEqual(entries);
  });

  it("reports a damaged header instead of reading garbage", async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on("data", (chunk: Buffer) => chunks.push(chunk));
    const tar = new TarWriter(out);
    await tar.addBuffer("a", Buffer.from("x"));
    await tar.finish();
    out.end();
    const archive = Buffer.concat(chunks);
    archive[0] = "b".charCodeAt(0);
    const source = (async function* () {
      yield archive;
    })();
    await expect(readTar(source, async () => {})).rejects.toThrow("Archive endommagée : la somme de contrôle d'un en-tête est fausse.");
  });

  describe("refuses a hostile archive at the entry at fault, before handing it over", () => {
    const before: [string, Buffer] = ["data/uploads/a.webp", Buffer.from("a")];
    const after: [string, Buffer] = ["data/uploads/b.webp", Buffer.from("b")];
    const nameRefused = /^Nom refusé dans l'archive : .* \(chemin absolu, ou segment « \. » ou « \.\. »\)\.$/;

    it.each([
      ["a parent segment", "../x"],
      ["a parent segment in the middle", "data/uploads/../../x"],
      ["a parent segment at the end", "data/uploads/.."],
      ["a current-folder segment", "./data/uploads/x"],
      ["a current-folder segment in the middle", "data/./uploads/x"],
      ["an absolute name", "/etc/x"],
      ["an absolute name in a pax record (over 99 bytes)", `/tmp/${"x".repeat(120)}`],
      ["a parent segment in a pax record", `data/uploads/${"x".repeat(120)}/../../../x`],
    ])("%s: %s", async (_what, name) => {
      const read: [string, Buffer][] = [];
      await expect(readBack(await archiveOf([before, [name, Buffer.from("hostile")], after]), read)).rejects.toThrow(nameRefused);
      expect(read).toEqual([before]);
    });

    it("keeps names whose segments merely start with dots", async () => {
      const entries: [string, Buffer][] = [["data/uploads/.hidden", Buffer.from("h")], ["data/uploads/..a", Buffer.from("a")], ["data/uploads/a..", Buffer.from("b")]];
      expect(await roundTrip(entries)).toEqual(entries);
    });

    it("a pax header over 1 MiB, without reading it", async () => {
      // A name of 1 MiB goes in a pax record of a little more.
      const read: [string, Buffer][] = [];
      const archive = await archiveOf([before, [`data/uploads/${"x".repeat(MAX_PAX_HEADER_BYTES)}`, Buffer.from("x")], after]);
      await expect(readBack(archive, read)).rejects.toThrow(/^En-tête pax de 1048\d{3} octets dans l'archive \(au plus 1048576\) : archive refusée\.$/);
      expect(read).toEqual([before]);
      // Just under the cap, the same kind of record is read.
      const fits = `data/uploads/${"x".repeat(MAX_PAX_HEADER_BYTES - 100)}`;
      expect((await roundTrip([[fits, Buffer.from("x")]])).map(([name]) => name)).toEqual([fits]);
    });

    it("an entry that takes the unpacked total past the cap, before reading it", async () => {
      const entries: [string, Buffer][] = [before, ["data/uploads/big.webp", Buffer.alloc(4096, 1)], after];
      const read: [string, Buffer][] = [];
      await expect(readBack(await archiveOf(entries), read, { maxTotalBytes: 4096 })).rejects.toThrow("L'archive dépasse la taille permise une fois dépaquetée (4096 octets) : archive refusée.");
      expect(read).toEqual([before]);
      // At exactly the cap, everything is read.
      const all: [string, Buffer][] = [];
      await readBack(await archiveOf(entries), all, { maxTotalBytes: 4098 });
      expect(all).toEqual(entries);
    });
  });
});
