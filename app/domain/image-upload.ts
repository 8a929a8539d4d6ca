/**
 * Rules for product image uploads, shared by the admin form (early feedback) and the server
 * (which decides: it reads the bytes, never the name or the declared type).
 */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
export const MAX_ADDITIONAL_IMAGES = 4;

export const IMAGE_UPLOAD_ERRORS = {
  unsupported: "Format d'image non supporté. Utilisez JPG, PNG ou WebP.",
  tooLarge: "L'image est trop volumineuse. La taille maximale est de 10MB.",
  unreadable: "Image illisible ou endommagée. Essayez avec un autre fichier.",
  tooManyPixels: "L'image est trop grande. La taille maximale est de 50 mégapixels (par exemple 8 000 × 6 000 pixels).",
} as const;

/**
 * Decoded, an image takes about 4 bytes per pixel whatever its file weighs: a 770 KB PNG of
 * 16,000 × 16,000 pixels took 10 s and 120 MB to read. 50 megapixels covers a phone's photo
 * (48 MP sensors give 8,000 × 6,000).
 */
export const MAX_IMAGE_PIXELS = 50_000_000;

export type ImageType = "jpeg" | "png" | "webp";

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function startsWith(bytes: Uint8Array, expected: readonly number[], offset = 0): boolean {
  return bytes.length >= offset + expected.length && expected.every((byte, i) => bytes[offset + i] === byte);
}

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** The image type announced by the file's first bytes, or null for anything else. */
export function sniffImageType(bytes: Uint8Array): ImageType | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "jpeg";
  if (startsWith(bytes, PNG_SIGNATURE)) return "png";
  // RIFF container: 4 bytes "RIFF", 4 bytes of length, then the form type "WEBP".
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "webp";
  return null;
}

const EXTENSIONS = new Set(["jpg", "jpeg", "png", "webp"]);
const MIME_TYPES = new Set(["image/jpeg", "image/png", "image/webp"]);

/**
 * The browser's first look at a chosen file: the French message to show, or null when the
 * file may be sent. Format comes before size here (a 12 MB video is "not supported", which
 * helps more); the server checks size first because it must not read a huge body.
 */
export function checkImageFile(file: { name: string; type: string; size: number }): string | null {
  const extension = file.name.includes(".") ? file.name.split(".").pop()!.toLowerCase() : "";
  // Some systems give no type for a file: the extension decides then.
  if (!EXTENSIONS.has(extension) || (file.type !== "" && !MIME_TYPES.has(file.type))) {
    return IMAGE_UPLOAD_ERRORS.unsupported;
  }
  if (file.size > MAX_IMAGE_BYTES) return IMAGE_UPLOAD_ERRORS.tooLarge;
  return null;
}

export const IMAGE_KEY_PREFIX = "pokemon_";
const IMAGE_KEY = /^pokemon_(\d+)_[a-z0-9]+$/;

/** Storage key of an uploaded image: `pokemon_<ms timestamp>_<random>`. */
export function imageKeyName(now: Date, random: string): string {
  if (!/^[a-z0-9]+$/.test(random)) throw new Error(`imageKeyName: random part must be lowercase alphanumerics, got "${random}"`);
  return `${IMAGE_KEY_PREFIX}${now.getTime()}_${random}`;
}

/** The upload time (ms) written in an uploaded image's key, or null for any other key (seed images…). */
export function imageKeyTimestamp(key: string): number | null {
  const match = IMAGE_KEY.exec(key);
  return match ? Number(match[1]) : null;
}
