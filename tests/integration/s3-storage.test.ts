import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { IMAGE_UPLOAD_ERRORS, imageKeyName } from "~/domain/image-upload";
import { deleteProductImage, ingestProductImage } from "~/services/product-images.server";
import { s3PrivateStore, s3Storage } from "~/services/storage-s3.server";
import { LOCAL_S3_BUCKET as BUCKET, LOCAL_S3_CREDENTIALS as CREDENTIALS, startLocalS3 } from "../support/local-s3";
import { runsOn } from "../support/by-design";

// The storage uses no database: the run on PostgreSQL has nothing to add.
const local = process.env.TEST_DATABASE_URL ? null : await startLocalS3();
if (local && "skipped" in local) {
  console.warn(`s3-storage.test.ts SKIPPED: the local S3 server (s3rver) could not start: ${local.skipped}`);
}

describe.skipIf(!local || "skipped" in local)("S3 storage against a local S3 server (s3rver)", runsOn("PGlite"), () => {
  // A skipped suite is still collected: register nothing without a server.
  if (!local || "skipped" in local) return;
  const { endpoint } = local;
  const storage = s3Storage({ endpoint, bucket: BUCKET, ...CREDENTIALS });

  afterAll(() => local.stop());

  it("puts, finds, lists and deletes objects", async () => {
    await storage.put("seed/a-320.webp", Buffer.from("seed a"), "image/webp");
    await storage.put("pokemon_1_x-320.webp", Buffer.from("upload"), "image/webp");
    expect(await storage.exists("seed/a-320.webp")).toBe(true);
    expect(await storage.exists("seed/missing-320.webp")).toBe(false);
    expect(await storage.list("seed/")).toEqual(["seed/a-320.webp"]);

    await storage.delete("seed/a-320.webp");
    await storage.delete("seed/a-320.webp"); // deleting twice is no error
    expect(await storage.exists("seed/a-320.webp")).toBe(false);
    expect(await storage.list("seed/")).toEqual([]);
    await storage.delete("pokemon_1_x-320.webp");
    await expect(storage.put("../outside", Buffer.from("x"), "image/webp")).rejects.toThrow(/Unsafe storage key/);
  });

  it("reads an object back, null when missing", async () => {
    await storage.put("seed/b-320.webp", Buffer.from("seed b"), "image/webp");
    expect((await storage.get("seed/b-320.webp"))?.toString()).toBe("seed b");
    expect(await storage.get("seed/absent-320.webp")).toBeNull();
    await storage.delete("seed/b-320.webp");
  });

  it("keeps private files under private/, for no shared cache, apart from the product images", async () => {
    const privateFiles = s3PrivateStore({ endpoint, bucket: BUCKET, ...CREDENTIALS });
    await privateFiles.put("rachat_1773482400000_0123456789abcdef.webp", Buffer.from("photo"), "image/webp");
    expect(await privateFiles.list("")).toEqual(["rachat_1773482400000_0123456789abcdef.webp"]);
    expect(await privateFiles.exists("rachat_1773482400000_0123456789abcdef.webp")).toBe(true);
    expect((await privateFiles.get("rachat_1773482400000_0123456789abcdef.webp"))?.toString()).toBe("photo");
    // The same bucket names it private/…; product images are listed by their own prefix.
    expect(await storage.list("private/")).toEqual(["private/rachat_1773482400000_0123456789abcdef.webp"]);
    expect(await storage.list("pokemon_")).toEqual([]);
    expect(await storage.get("rachat_1773482400000_0123456789abcdef.webp")).toBeNull();
    // Stored for no shared cache.
    const response = await fetch(`${storage.publicBaseUrl}/private/rachat_1773482400000_0123456789abcdef.webp`);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    await privateFiles.delete("rachat_1773482400000_0123456789abcdef.webp");
    expect(await privateFiles.list("")).toEqual([]);
    await expect(privateFiles.put("../escape", Buffer.from("x"), "image/webp")).rejects.toThrow(/Unsafe storage key/);
  });

  it("lists past the first page of 1,000 keys", async () => {
    const keys = Array.from({ length: 1005 }, (_, i) => `many/${String(i).padStart(4, "0")}.txt`);
    for (let i = 0; i < keys.length; i += 100) {
      await Promise.all(keys.slice(i, i + 100).map((key) => storage.put(key, Buffer.from(key), "text/plain")));
    }
    expect(await storage.list("many/")).toEqual(keys);
  });

  it("ingests an upload into public, long-cached WebP widths and deletes it", async () => {
    const png = await sharp({ create: { width: 500, height: 500, channels: 3, background: "#36c" } }).png().toBuffer();
    const now = new Date("2026-03-14T10:00:00.000Z");
    const result = await ingestProductImage(storage, png, { now, random: () => "s3test" });
    expect(result).toEqual({ ok: true, key: imageKeyName(now, "s3test") });
    const key = imageKeyName(now, "s3test");
    expect(await storage.list("pokemon_")).toEqual([`${key}-320.webp`, `${key}-640.webp`, `${key}-960.webp`]);

    // Browsers read the public URL without credentials.
    expect(storage.publicBaseUrl).toBe(`${endpoint}/${BUCKET}`);
    const response = await fetch(`${storage.publicBaseUrl}/${key}-640.webp`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/webp");
    expect(response.headers.get("cache-control")).toMatch(/max-age=31536000/);
    expect((await sharp(Buffer.from(await response.arrayBuffer())).metadata()).width).toBe(640);

    expect(await deleteProductImage(storage, key)).toBe(true);
    expect(await storage.list("pokemon_")).toEqual([]);
  });

  it("stores nothing for a refused upload", async () => {
    const result = await ingestProductImage(storage, Buffer.from("pas une image"));
    expect(result).toEqual({ ok: false, status: 415, error: IMAGE_UPLOAD_ERRORS.unsupported });
    expect(await storage.list("pokemon_")).toEqual([]);
  });

  it("uses S3_PUBLIC_URL for the pages when given", () => {
    const behindCdn = s3Storage({ endpoint, bucket: BUCKET, ...CREDENTIALS, publicUrl: "https://images.comptoir.example/" });
    expect(behindCdn.publicBaseUrl).toBe("https://images.comptoir.example");
  });
});
