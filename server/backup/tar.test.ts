import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { TarWriter, readTar } from "./tar";

async function roundTrip(entries: [string, Buffer][]): Promise<[string, Buffer][]> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on("data", (chunk: Buffer) => chunks.push(chunk));
  const tar = new TarWriter(out);
  for (const [name, body] of entries) await tar.addBuffer(name, body);
  await tar.finish();
  out.end();
  // Read back in odd-sized pieces, as a gunzip stream hands them over.
  const archive = Buffer.concat(chunks);
  const pieces = (async function* () {
    for (let at = 0; at < archive.length; at += 333) yield archive.subarray(at, at + 333);
  })();
  const read: [string, Buffer][] = [];
  await readTar(pieces, async (name, _size, body) => {
    const parts: Buffer[] = [];
    for await (const part of body) parts.push(part);
    read.push([name, Buffer.concat(parts)]);
  });
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
    await expect(readTar(source, async () => {})).rejects.toThrow(/checksum/);
  });
});
