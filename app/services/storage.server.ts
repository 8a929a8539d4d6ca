import fs from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { IMAGE_WIDTHS } from "~/domain/images";

/**
 * Where product images live: local disk by default, S3 with S3_* (storage-s3.server.ts). Keys
 * are relative, slash-separated names ("seed/display-ev-320.webp"); the URL prefix is what
 * browsers use.
 */
export type Storage = {
  publicBaseUrl: string;
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** Removes one object; a key that is not there is no error. */
  delete(key: string): Promise<void>;
  /** Every key that starts with prefix ("" for all), sorted. */
  list(prefix: string): Promise<string[]>;
};

/** Refuses keys that could reach outside the storage root, whatever the adapter. */
export function assertSafeKey(key: string): void {
  if (key.includes("..") || key.includes("\\") || key.startsWith("/") || key.includes("\0")) {
    throw new Error(`Unsafe storage key: ${JSON.stringify(key)}`);
  }
}

export function localDiskStorage(uploadsDir: string): Storage {
  const root = path.resolve(uploadsDir);
  const fileOf = (key: string) => {
    assertSafeKey(key);
    if (key === "") throw new Error("Empty storage key");
    return path.join(root, key);
  };
  return {
    publicBaseUrl: "/uploads",
    async put(key, body) {
      const file = fileOf(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      // Write then rename so a reader never sees half a file.
      const tmp = `${file}.${process.pid}.tmp`;
      try {
        await fs.writeFile(tmp, body);
        await fs.rename(tmp, file);
      } catch (error) {
        await fs.rm(tmp, { force: true });
        throw error;
      }
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
      body: await sharp(source, { failOn: "error" })
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
