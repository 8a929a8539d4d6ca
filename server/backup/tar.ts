import { createHash } from "node:crypto";
import { once } from "node:events";
import fs from "node:fs";
import type { Writable } from "node:stream";

/**
 * The few parts of the tar format (POSIX ustar, with pax records for long names and sizes) a
 * backup needs: regular files written one after the other, read back in order. Written here
 * rather than taken from a library because the project has none and these 150 lines are all
 * a backup uses; `tar -tzf` and any tar tool read the result.
 */
const BLOCK = 512;
const USTAR_MAX_SIZE = 0o77777777777; // 11 octal digits
/** A pax header is read into memory: ours hold one path; no tool writes one near this. */
export const MAX_PAX_HEADER_BYTES = 1 << 20;

export type TarEntryInfo = { path: string; size: number; sha256: string };

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, "0") + "\0";
}

function header(name: string, size: number, type: "0" | "x", mtime: number): Buffer {
  const block = Buffer.alloc(BLOCK);
  block.write(name, 0, 100, "utf8");
  block.write(octal(type === "x" ? 0o644 : 0o600, 8), 100, "ascii");
  block.write(octal(0, 8), 108, "ascii");
  block.write(octal(0, 8), 116, "ascii");
  block.write(octal(size, 12), 124, "ascii");
  block.write(octal(mtime, 12), 136, "ascii");
  block.write("        ", 148, "ascii"); // the checksum counts itself as spaces
  block.write(type, 156, "ascii");
  block.write("ustar\0" + "00", 257, "ascii");
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(octal(sum, 7) + " ", 148, "ascii");
  return block;
}

/** One pax record: "<length> <key>=<value>\n", the length counting itself. */
function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(body) + 1;
  while (String(length).length + Buffer.byteLength(body) !== length) length++;
  return `${length}${body}`;
}

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

/** Writes entries into `out` (a gzip stream, say), waiting when it asks to. */
export class TarWriter {
  private readonly mtime = Math.floor(Date.now() / 1000);
  constructor(private readonly out: Writable) {}

  private async write(chunk: Buffer): Promise<void> {
    if (!this.out.write(chunk)) await once(this.out, "drain");
  }

  private async writeHeader(name: string, size: number): Promise<void> {
    // A name over 100 bytes or a size over 8 GiB goes in a pax record before the entry.
    if (Buffer.byteLength(name) > 99 || size > USTAR_MAX_SIZE) {
      const records = Buffer.from(paxRecord("path", name) + (size > USTAR_MAX_SIZE ? paxRecord("size", String(size)) : ""));
      await this.write(header("pax", records.length, "x", this.mtime));
      await this.write(records);
      await this.write(padding(records.length));
    }
    await this.write(header(name.slice(0, 99), Math.min(size, USTAR_MAX_SIZE), "0", this.mtime));
  }

  async addBuffer(name: string, body: Buffer): Promise<TarEntryInfo> {
    await this.writeHeader(name, body.length);
    await this.write(body);
    await this.write(padding(body.length));
    return { path: name, size: body.length, sha256: createHash("sha256").update(body).digest("hex") };
  }

  /** Streams a file that nobody writes while it is read (a dump this process made). */
  async addFile(name: string, file: string): Promise<TarEntryInfo> {
    const { size } = await fs.promises.stat(file);
    await this.writeHeader(name, size);
    const hash = createHash("sha256");
    let read = 0;
    for await (const chunk of fs.createReadStream(file) as AsyncIterable<Buffer>) {
      hash.update(chunk);
      read += chunk.length;
      await this.write(chunk);
    }
    if (read !== size) throw new Error(`${file} a changé pendant son archivage : recommencez la sauvegarde.`);
    await this.write(padding(size));
    return { path: name, size, sha256: hash.digest("hex") };
  }

  /** The two empty blocks that end an archive; the caller ends `out`. */
  async finish(): Promise<void> {
    await this.write(Buffer.alloc(BLOCK * 2));
  }
}

/** Reads exact byte counts from a stream of chunks. */
class ByteReader {
  private buffered: Buffer[] = [];
  private length = 0;
  constructor(private readonly source: AsyncIterator<Buffer>) {}

  private async fill(n: number): Promise<boolean> {
    while (this.length < n) {
      const next = await this.source.next();
      if (next.done) return false;
      this.buffered.push(next.value);
      this.length += next.value.length;
    }
    return true;
  }

  /** Up to `max` bytes (at least one), or null at the end. */
  private async take(max: number): Promise<Buffer | null> {
    if (!(await this.fill(1))) return null;
    const all = this.buffered.length === 1 ? this.buffered[0]! : Buffer.concat(this.buffered);
    const taken = all.subarray(0, max);
    const rest = all.subarray(taken.length);
    this.buffered = rest.length > 0 ? [rest] : [];
    this.length = rest.length;
    return taken;
  }

  async exactly(n: number): Promise<Buffer> {
    if (!(await this.fill(n))) throw new Error("Archive tronquée : elle s'arrête au milieu d'une entrée.");
    return (await this.take(n))!;
  }

  async *chunks(n: number): AsyncGenerator<Buffer> {
    let left = n;
    while (left > 0) {
      const chunk = await this.take(Math.min(left, 1 << 20));
      if (!chunk) throw new Error("Archive tronquée : elle s'arrête au milieu d'une entrée.");
      left -= chunk.length;
      yield chunk;
    }
  }
}

function field(block: Buffer, start: number, length: number): string {
  const raw = block.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? length : end).toString("utf8");
}

function checkHeader(block: Buffer): void {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : block[i]!;
  if (Number.parseInt(field(block, 148, 8).trim(), 8) !== sum) throw new Error("Archive endommagée : la somme de contrôle d'un en-tête est fausse.");
}

function parsePax(records: Buffer): Map<string, string> {
  const values = new Map<string, string>();
  let at = 0;
  while (at < records.length) {
    const space = records.indexOf(0x20, at);
    const length = Number.parseInt(records.subarray(at, space).toString("ascii"), 10);
    if (!(length > 0)) break;
    const [key, ...value] = records.subarray(space + 1, at + length - 1).toString("utf8").split("=");
    values.set(key!, value.join("="));
    at += length;
  }
  return values;
}

/**
 * A name that is relative and goes down only: no absolute path, no "." or ".." segment (nor a
 * NUL). The caller still keeps every file inside its folder; these are refused outright, as no
 * archive of ours has them.
 */
function checkEntryName(name: string): void {
  if (name.startsWith("/") || name.includes("\0") || name.split("/").some((segment) => segment === "." || segment === "..")) {
    throw new Error(`Nom refusé dans l'archive : ${JSON.stringify(name)} (chemin absolu, ou segment « . » ou « .. »).`);
  }
}

export type ReadTarLimits = {
  /** The most the entries' bodies may add up to: past it, the archive is refused before the entry is read. */
  maxTotalBytes?: number;
};

/**
 * Calls `onEntry` for every regular file of the archive, in order, with its bytes as a stream
 * that must be read to its end before the next entry comes. Refuses, before handing it over, an
 * entry whose name leaves its folder, a pax header over MAX_PAX_HEADER_BYTES and an entry that
 * takes the total past `limits.maxTotalBytes`.
 */
export async function readTar(
  source: AsyncIterable<Buffer>,
  onEntry: (name: string, size: number, body: AsyncIterable<Buffer>) => Promise<void>,
  limits: ReadTarLimits = {},
): Promise<void> {
  const reader = new ByteReader(source[Symbol.asyncIterator]());
  let pax = new Map<string, string>();
  let total = 0;
  for (;;) {
    const block = await reader.exactly(BLOCK);
    if (block.every((byte) => byte === 0)) return;
    checkHeader(block);
    const type = String.fromCharCode(block[156]!);
    const prefix = field(block, 345, 155);
    const name = pax.get("path") ?? (prefix ? `${prefix}/${field(block, 0, 100)}` : field(block, 0, 100));
    const size = Number(pax.get("size") ?? Number.parseInt(field(block, 124, 12).trim() || "0", 8));
    pax = new Map();
    // A size that is not a count would slip past the limits below.
    if (!Number.isSafeInteger(size) || size < 0) throw new Error(`Archive endommagée : taille illisible pour ${JSON.stringify(name)}.`);
    if (type === "x") {
      if (size > MAX_PAX_HEADER_BYTES) {
        throw new Error(`En-tête pax de ${size} octets dans l'archive (au plus ${MAX_PAX_HEADER_BYTES}) : archive refusée.`);
      }
      pax = parsePax(await reader.exactly(size));
    } else {
      total += size;
      if (limits.maxTotalBytes !== undefined && total > limits.maxTotalBytes) {
        throw new Error(`L'archive dépasse la taille permise une fois dépaquetée (${limits.maxTotalBytes} octets) : archive refusée.`);
      }
      if (type === "0" || type === "\0") {
        checkEntryName(name);
        await onEntry(name, size, reader.chunks(size));
      } else {
        for await (const chunk of reader.chunks(size)) void chunk; // directories, links: not ours
      }
    }
    if (size % BLOCK) await reader.exactly(BLOCK - (size % BLOCK));
  }
}
