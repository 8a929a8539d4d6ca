import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { products } from "~/db/schema";
import { IMAGE_UPLOAD_ERRORS, imageKeyName, sniffImageType } from "~/domain/image-upload";
import { cleanUpUnusedImages, deleteProductImage, ingestProductImage } from "~/services/product-images.server";
import { type Storage, localDiskStorage } from "~/services/storage.server";
import { pngAnnouncing } from "./png-header";
import { databaseLabel, openTestDatabase } from "./test-database";

const WIDTHS = [320, 640, 960];
const variants = (key: string) => WIDTHS.map((w) => `${key}-${w}.webp`);

/** A real photo-like image (noise, so JPEG has something to compress) in the given format. */
async function picture(format: "png" | "jpeg" | "webp", width = 600, height = 400): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: "#000", noise: { type: "gaussian", mean: 128, sigma: 30 } } })
    .toFormat(format)
    .toBuffer();
}

describe("product image uploads on local disk", () => {
  let dir: string;
  let storage: Storage;

  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "comptoir-images-"));
    storage = localDiskStorage(dir);
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  it.each(["png", "jpeg", "webp"] as const)("accepts %s and stores the three WebP widths", async (format) => {
    const result = await ingestProductImage(storage, await picture(format));
    if (!result.ok) throw new Error(result.error);
    expect(await storage.list("")).toEqual(variants(result.key));
    for (const width of WIDTHS) {
      const stored = await fs.readFile(path.join(dir, `${result.key}-${width}.webp`));
      expect(sniffImageType(stored)).toBe("webp");
      const meta = await sharp(stored).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(["webp", width, Math.round((width * 2) / 3)]);
    }
  });

  it("names the upload pokemon_<timestamp>_<random>", async () => {
    const now = new Date("2026-03-14T10:00:00.000Z");
    const result = await ingestProductImage(storage, await picture("png", 40, 40), { now, random: () => "ab12cd" });
    expect(result).toEqual({ ok: true, key: imageKeyName(now, "ab12cd") });
    expect(result.ok && result.key).toBe(`pokemon_${now.getTime()}_ab12cd`);
  });

  it("refuses a text file renamed .png with 415 and stores nothing", async () => {
    const result = await ingestProductImage(storage, Buffer.from("Ceci n'est pas une image, juste carte.png renommé."));
    expect(result).toEqual({ ok: false, status: 415, error: IMAGE_UPLOAD_ERRORS.unsupported });
    expect(await storage.list("")).toEqual([]);
  });

  it("refuses 11 MB with 413 before looking at the bytes", async () => {
    const big = Buffer.alloc(11 * 1024 * 1024);
    big.set([0xff, 0xd8, 0xff, 0xe0]);
    const result = await ingestProductImage(storage, big);
    expect(result).toEqual({ ok: false, status: 413, error: IMAGE_UPLOAD_ERRORS.tooLarge });
    expect(await storage.list("")).toEqual([]);
  });

  it("refuses a truncated JPEG with the unreadable message and stores nothing", async () => {
    const jpeg = await picture("jpeg", 800, 600);
    const result = await ingestProductImage(storage, jpeg.subarray(0, Math.floor(jpeg.length / 2)));
    expect(result).toEqual({ ok: false, status: 422, error: IMAGE_UPLOAD_ERRORS.unreadable });
    expect(await storage.list("")).toEqual([]);
  });

  it("refuses an image of more than 50 megapixels from its header, before decoding it", async () => {
    const result = await ingestProductImage(storage, pngAnnouncing(16_000, 16_000));
    expect(result).toEqual({ ok: false, status: 422, error: IMAGE_UPLOAD_ERRORS.tooManyPixels });
    expect(await storage.list("")).toEqual([]);
    // 8,000 × 6,000 (a 48 MP phone's photo) is under the limit: refused only as unreadable here.
    expect(await ingestProductImage(storage, pngAnnouncing(8_000, 6_000))).toEqual({ ok: false, status: 422, error: IMAGE_UPLOAD_ERRORS.unreadable });
  });

  it("refuses a right header followed by garbage", async () => {
    const fake = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(2000, 7)]);
    expect(await ingestProductImage(storage, fake)).toMatchObject({ ok: false, status: 422 });
    expect(await storage.list("")).toEqual([]);
  });

  it("strips EXIF and GPS and applies the EXIF orientation", async () => {
    const photo = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#c33" } })
      .jpeg()
      .withExif({
        IFD0: { Artist: "Marie Curie" },
        IFD3: { GPSLatitudeRef: "N", GPSLatitude: "48/1 51/1 24/1", GPSLongitudeRef: "E", GPSLongitude: "2/1 21/1 7/1" },
      })
      .withMetadata({ orientation: 6 }) // taken with the phone turned: shown portrait
      .toBuffer();
    const input = await sharp(photo).metadata();
    // The fixture really carries a GPS block (IFD0 tag 0x8825, little-endian) and the orientation.
    expect(input.exif?.includes(Buffer.from([0x25, 0x88]))).toBe(true);
    expect(input.orientation).toBe(6);

    const result = await ingestProductImage(storage, photo);
    if (!result.ok) throw new Error(result.error);
    for (const width of WIDTHS) {
      const stored = await fs.readFile(path.join(dir, `${result.key}-${width}.webp`));
      const meta = await sharp(stored).metadata();
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(stored.includes("EXIF")).toBe(false);
      expect(stored.includes("Marie Curie")).toBe(false);
      expect([meta.width, meta.height]).toEqual([width, width * 1.5]);
    }
  });

  it("leaves nothing behind when one write fails", async () => {
    const failing: Storage = {
      ...storage,
      async put(key, body, type) {
        if (key.endsWith("-640.webp")) throw new Error("disque plein");
        await storage.put(key, body, type);
      },
    };
    await expect(ingestProductImage(failing, await picture("png"))).rejects.toThrow("disque plein");
    expect(await storage.list("")).toEqual([]);
  });

  it("deletes every width of an upload, never a seed image", async () => {
    const result = await ingestProductImage(storage, await picture("png", 40, 40));
    if (!result.ok) throw new Error(result.error);
    await storage.put("seed/display-ev-320.webp", Buffer.from("seed"), "image/webp");

    expect(await deleteProductImage(storage, result.key)).toBe(true);
    expect(await deleteProductImage(storage, "seed/display-ev")).toBe(false);
    expect(await storage.list("")).toEqual(["seed/display-ev-320.webp"]);
  });

  it("lists by prefix, deletes idempotently and refuses keys that leave the folder", async () => {
    await storage.put("seed/a-320.webp", Buffer.from("a"), "image/webp");
    await storage.put("pokemon_1_x-320.webp", Buffer.from("b"), "image/webp");
    expect(await storage.list("seed/")).toEqual(["seed/a-320.webp"]);
    expect(await storage.list("")).toEqual(["pokemon_1_x-320.webp", "seed/a-320.webp"]);
    expect(await storage.exists("seed/a-320.webp")).toBe(true);
    await storage.delete("seed/a-320.webp");
    await storage.delete("seed/a-320.webp");
    expect(await storage.exists("seed/a-320.webp")).toBe(false);

    const outside = path.join(path.dirname(dir), `${path.basename(dir)}-escape.webp`);
    for (const key of [`../${path.basename(outside)}`, outside, "seed\\..\\x.webp", "seed/../../x.webp"]) {
      await expect(storage.put(key, Buffer.from("x"), "image/webp")).rejects.toThrow(/Unsafe storage key/);
      await expect(storage.exists(key)).rejects.toThrow(/Unsafe storage key/);
      await expect(storage.delete(key)).rejects.toThrow(/Unsafe storage key/);
      await expect(storage.list(key)).rejects.toThrow(/Unsafe storage key/);
    }
    await expect(fs.access(outside)).rejects.toThrow();
  });
});

describe(`clean-up of unused images on ${databaseLabel}`, () => {
  let database: Database;
  let dir: string;
  let storage: Storage;
  const now = new Date("2026-03-14T10:00:00.000Z");
  const HOUR = 60 * 60 * 1000;

  beforeAll(async () => {
    database = await openTestDatabase();
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "comptoir-cleanup-"));
    storage = localDiskStorage(dir);
  });
  afterAll(async () => {
    await database?.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  async function upload(at: Date, random: string): Promise<string> {
    const key = imageKeyName(at, random);
    for (const file of variants(key)) await storage.put(file, Buffer.from(file), "image/webp");
    return key;
  }

  it("removes old unreferenced uploads and keeps used, recent and seed images", async () => {
    const old = new Date(now.getTime() - 48 * HOUR);
    const unused = await upload(old, "unused");
    const main = await upload(old, "main");
    const extra = await upload(old, "extra");
    const recent = await upload(new Date(now.getTime() - HOUR), "recent");
    await storage.put("seed/display-ev-320.webp", Buffer.from("seed"), "image/webp");
    // Not a variant name: left alone rather than guessed at.
    await storage.put(`${imageKeyName(old, "odd")}.txt`, Buffer.from("?"), "text/plain");
    await database.db.insert(products).values([
      { title: "Display Écarlate et Violet", priceCents: 14_999, category: "TCG", imagePath: main },
      { title: "Coffret Dracaufeu", priceCents: 5_999, category: "TCG", imagePath: "seed/display-ev", additionalImages: [extra] },
      { title: "Sans image", priceCents: 999, category: "Accessoires" },
    ]);

    expect(await cleanUpUnusedImages(database.db, storage, { now })).toEqual({ deleted: [unused] });
    expect(await storage.list("")).toEqual(
      [...variants(main), ...variants(extra), ...variants(recent), `${imageKeyName(old, "odd")}.txt`, "seed/display-ev-320.webp"].sort(),
    );

    // A shorter grace period lets the recent upload go too; a second run finds nothing more.
    expect(await cleanUpUnusedImages(database.db, storage, { now, graceMs: 30 * 60 * 1000 })).toEqual({ deleted: [recent] });
    expect(await cleanUpUnusedImages(database.db, storage, { now, graceMs: 0 })).toEqual({ deleted: [] });
  });
});
