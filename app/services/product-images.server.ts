import { randomBytes } from "node:crypto";
import { products } from "~/db/schema";
import type { Db } from "~/db/types";
import { IMAGE_WIDTHS } from "~/domain/images";
import { IMAGE_KEY_PREFIX, imageKeyName, imageKeyTimestamp } from "~/domain/image-upload";
import { type ImageRefusal, type Storage, checkUploadedImage, encodeImageVariants, putImageVariants, variantKey } from "./storage.server";

export type IngestResult = { ok: true; key: string } | ImageRefusal;

const randomPart = () => randomBytes(8).toString("hex");

/**
 * Takes an uploaded file's bytes and stores it as the WebP widths the pages use, under a new
 * `pokemon_<timestamp>_<random>` key. The bytes decide, not the file name or declared type.
 * Refusals come back with the HTTP status and the French message; a storage failure throws,
 * and leaves nothing stored.
 */
export async function ingestProductImage(
  storage: Storage,
  bytes: Buffer,
  options: { now?: Date; random?: () => string } = {},
): Promise<IngestResult> {
  const checked = await checkUploadedImage(bytes, encodeImageVariants);
  if (!checked.ok) return checked;
  const key = imageKeyName(options.now ?? new Date(), (options.random ?? randomPart)());
  await putImageVariants(storage, key, checked.value);
  return { ok: true, key };
}

/**
 * Removes every width of an uploaded image (an upload dropped from the form before saving).
 * Other keys (seed images…) are left alone: false then. The caller makes sure no product
 * uses it; cleanUpUnusedImages checks that by itself.
 */
export async function deleteProductImage(storage: Storage, key: string): Promise<boolean> {
  if (imageKeyTimestamp(key) === null) return false;
  await Promise.all(IMAGE_WIDTHS.map((width) => storage.delete(variantKey(key, width))));
  return true;
}

const VARIANT = /^(.+)-\d+\.webp$/;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes uploaded images that no product references (main or additional image) and that are
 * older than graceMs: an upload waiting in an unsaved form must survive. Only `pokemon_` keys
 * are considered, so seed images are never touched. Returns the image keys removed.
 */
export async function cleanUpUnusedImages(
  db: Db,
  storage: Storage,
  options: { now: Date; graceMs?: number },
): Promise<{ deleted: string[] }> {
  const cutoff = options.now.getTime() - (options.graceMs ?? DAY_MS);
  const filesByImage = new Map<string, string[]>();
  for (const file of await storage.list(IMAGE_KEY_PREFIX)) {
    const image = VARIANT.exec(file)?.[1];
    const uploadedAt = image === undefined ? null : imageKeyTimestamp(image);
    if (image === undefined || uploadedAt === null || uploadedAt > cutoff) continue;
    filesByImage.set(image, [...(filesByImage.get(image) ?? []), file]);
  }
  if (filesByImage.size === 0) return { deleted: [] };

  // Every row counts, archived ones too: their orders may still show the picture.
  const rows = await db.select({ main: products.imagePath, additional: products.additionalImages }).from(products);
  const used = new Set(rows.flatMap((row) => [row.main, ...row.additional]));
  const deleted = [...filesByImage.keys()].filter((image) => !used.has(image));
  for (const image of deleted) {
    await Promise.all(filesByImage.get(image)!.map((file) => storage.delete(file)));
  }
  return { deleted };
}
