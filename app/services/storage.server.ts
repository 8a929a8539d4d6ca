import fs from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { IMAGE_UPLOAD_ERRORS, MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS, sniffImageType } from "~/domain/image-upload";
import { IMAGE_WIDTHS } from "~/domain/images";
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from "~/lib/private-files.server";
import { imageDecoding } from "~/lib/semaphore.server";

/**
 * Files under relative, slash-separated keys ("seed/display-ev-320.webp"): local disk by
 * default, S3 with S3_* (storage-s3.server.ts).
 */
export type FileStore = {
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The object's bytes, or null when there is none. */
  get(key: string): Promise<Buffer | null>;
  exists(key: string): Promise<boolean>;
  /** Removes one object; a key that is not there is no error. */
  delete(key: string): Promise<void>;
  /** Every key that starts with prefix ("" for all), sorted. */
  list(prefix: string): Promise<string[]>;
};

/**
 * Where product images live, read by browsers under the URL prefix. Customers' private files
 * (buy-back photos) are a FileStore of their own, with no public URL (AppContext.privateFiles).
 */
export type Storage = FileStore & { publicBaseUrl: string };

/** Refuses keys that could reach outside the storage root, whatever the adapter. */
export function assertSafeKey(key: string): void {
  if (key.includes("..") || key.includes("\\") || key.startsWith("/") || key.includes("\0")) {
    throw new Error(`Unsafe storage key: ${JSON.stringify(key)}`);
  }
}

/** Public product images on local disk, served under /uploads (server/app.ts). */
export function localDiskStorage(uploadsDir: string): Storage {
  return { publicBaseUrl: "/uploads", ...localDiskStore(uploadsDir) };
}

/** Files in a folder: keys are paths below it, which no key can leave. */
export function localDiskStore(dir: string): FileStore {
  const root = path.resolve(dir);
  const fileOf = (key: string) => {
    assertSafeKey(key);
    if (key === "") throw new Error("Empty storage key");
    return path.join(root, key);
  };
  return {
    async put(key, body) {
      const file = fileOf(key);
      // The server reads them itself (images too): its user's alone, whatever the umask.
      await fs.mkdir(path.dirname(file), { recursive: true, mode: PRIVATE_FOLDER_MODE });
      // Write then rename so a reader never sees half a file.
      const tmp = `${file}.${process.pid}.tmp`;
      try {
        await fs.writeFile(tmp, body, { mode: PRIVATE_FILE_MODE });
        await fs.rename(tmp, file);
      } catch (error) {
        await fs.rm(tmp, { force: true });
        throw error;
      }
    },
    async get(key) {
      return fs.readFile(fileOf(key)).catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return null;
        throw error;
      });
    },
    async exists(key) {
      return fs.access(fileOf(key)).then(
        () => true,
        () => false,
      );
    },
    async delete(key) {
      await fs.rm(fileOf(key), { force: true });
    },
    async list(prefix) {
      assertSafeKey(prefix);
      const entries = await fs.readdir(root, { recursive: true, withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return [];
        throw error;
      });
      return entries
        .filter((entry) => entry.isFile() && !entry.name.endsWith(".tmp"))
        .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
        .filter((key) => key.startsWith(prefix))
        .sort();
    },
  };
}

/** The stored file of one width of an image: `${key}-${width}.webp` (see domain/images). */
export const variantKey = (key: string, width: number) => `${key}-${width}.webp`;

/** Whether a product image key names an image this shop stored (its smallest variant is there). */
export function storedImageExists(storage: Storage, key: string): Promise<boolean> {
  return storage.exists(variantKey(key, 320)).catch(() => false);
}

export type ImageVariant = { width: number; body: Buffer };

/**
 * Decodes source and encodes one WebP per width of IMAGE_WIDTHS, all in memory, so nothing
 * is stored until the whole image has been read. Throws when the data is truncated or
 * corrupt (failOn "error"). EXIF orientation is applied; sharp writes no metadata (EXIF, GPS,
 * ICC) unless asked, and it is not asked.
 */
export async function encodeImageVariants(source: Buffer): Promise<ImageVariant[]> {
  return Promise.all(
    IMAGE_WIDTHS.map(async (width) => ({
      width,
      // Small sources are enlarged too: srcset promises every width.
      body: await sharp(source, { failOn: "error", limitInputPixels: MAX_IMAGE_PIXELS })
        .rotate()
        .resize({ width, withoutEnlargement: false })
        .webp({ quality: 82 })
        .toBuffer(),
    })),
  );
}

/** Stores every variant under key, or none: after a failed write, what was written is removed. */
export async function putImageVariants(storage: Storage, key: string, variants: ImageVariant[]): Promise<void> {
  const writes = await Promise.allSettled(
    variants.map((v) => storage.put(variantKey(key, v.width), v.body, "image/webp")),
  );
  const failed = writes.find((w): w is PromiseRejectedResult => w.status === "rejected");
  if (!failed) return;
  await Promise.allSettled(variants.map((v) => storage.delete(variantKey(key, v.width))));
  throw failed.reason;
}

/** Stores one WebP per width of IMAGE_WIDTHS under `${key}-${width}.webp`. */
export async function storeImageVariants(storage: Storage, key: string, source: Buffer): Promise<void> {
  await putImageVariants(storage, key, await encodeImageVariants(source));
}

/** Why an uploaded image was refused: the HTTP status and SPEC.md's French message. */
export type ImageRefusal = { ok: false; status: 413 | 415 | 422; error: string };

/**
 * The checks every uploaded image passes (product images and buy-back photos alike): its size
 * first, then its first bytes (never the file name or the declared type), then a full decode
 * by `encode`, in memory, a few at a time across all requests (lib/semaphore.server.ts).
 * Nothing is stored here: the caller stores `value` once all is well.
 */
export async function checkUploadedImage<T>(bytes: Buffer, encode: (source: Buffer) => Promise<T>): Promise<{ ok: true; value: T } | ImageRefusal> {
  if (bytes.length > MAX_IMAGE_BYTES) return { ok: false, status: 413, error: IMAGE_UPLOAD_ERRORS.tooLarge };
  if (!sniffImageType(bytes)) return { ok: false, status: 415, error: IMAGE_UPLOAD_ERRORS.unsupported };
  try {
    // The header gives the size in pixels without decoding anything.
    const { width = 0, height = 0 } = await sharp(bytes).metadata();
    if (width * height > MAX_IMAGE_PIXELS) return { ok: false, status: 422, error: IMAGE_UPLOAD_ERRORS.tooManyPixels };
    // The decoding waits its turn among every request's (lib/semaphore.server.ts).
    return { ok: true, value: await imageDecoding.run(() => encode(bytes)) };
  } catch {
    return { ok: false, status: 422, error: IMAGE_UPLOAD_ERRORS.unreadable };
  }
}

/**
 * One WebP of at most `maxSide` pixels on its longer side (never enlarged), turned upright,
 * without metadata (EXIF, GPS, ICC): a customer's photo keeps nothing but the picture.
 */
export async function encodeWebp(source: Buffer, maxSide: number): Promise<Buffer> {
  return sharp(source, { failOn: "error", limitInputPixels: MAX_IMAGE_PIXELS })
    .rotate()
    .resize({ width: maxSide, height: maxSide, fit: "inside", withoutEnlargement: true })
    .webp({ quality: 80 })
    .toBuffer();
}
