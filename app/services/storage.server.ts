import fs from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { IMAGE_WIDTHS } from "~/domain/images";

/** Where product images live. Local disk by default; the URL prefix is what browsers use. */
export type Storage = {
  publicBaseUrl: string;
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  exists(key: string): Promise<boolean>;
};

export function localDiskStorage(uploadsDir: string): Storage {
  return {
    publicBaseUrl: "/uploads",
    async put(key, body) {
      const file = path.join(uploadsDir, key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      // Write then rename so a reader never sees half a file.
      const tmp = `${file}.${process.pid}.tmp`;
      await fs.writeFile(tmp, body);
      await fs.rename(tmp, file);
    },
    async exists(key) {
      return fs.access(path.join(uploadsDir, key)).then(
        () => true,
        () => false,
      );
    },
  };
}

/** Stores one WebP per width of IMAGE_WIDTHS under `${key}-${width}.webp`. */
export async function storeImageVariants(storage: Storage, key: string, source: Buffer): Promise<void> {
  await Promise.all(
    IMAGE_WIDTHS.map(async (width) => {
      const webp = await sharp(source)
        .resize({ width, withoutEnlargement: false })
        .webp({ quality: 82 })
        .toBuffer();
      await storage.put(`${key}-${width}.webp`, webp, "image/webp");
    }),
  );
}
