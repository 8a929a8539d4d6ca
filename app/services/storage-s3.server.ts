import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  paginateListObjectsV2,
} from "@aws-sdk/client-s3";
import { type FileStore, type Storage, assertSafeKey } from "./storage.server";

export type S3StorageOptions = {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Public base URL of the bucket or its CDN; default `${endpoint}/${bucket}` (path-style). */
  publicUrl?: string;
  /** Signing region: us-east-1 by default (MinIO, R2, AWS us-east-1); other AWS regions need theirs. */
  region?: string;
};

// A key never gets other content: uploads get new random names, seed images are written once.
const IMMUTABLE = "public, max-age=31536000, immutable";

/** Product images in an S3-compatible bucket (AWS, MinIO, R2…), read publicly. */
export function s3Storage(options: S3StorageOptions): Storage {
  return {
    publicBaseUrl: (options.publicUrl ?? `${options.endpoint.replace(/\/+$/, "")}/${options.bucket}`).replace(/\/+$/, ""),
    ...s3Store(options, { keyPrefix: "", cacheControl: IMMUTABLE }),
  };
}

/**
 * Customers' private files (buy-back photos) in the same bucket, under "private/": keep that
 * prefix out of any public-read bucket policy. The shop serves them to admins itself.
 */
export function s3PrivateStore(options: S3StorageOptions): FileStore {
  return s3Store(options, { keyPrefix: "private/", cacheControl: "private, no-store" });
}

const isNotFound = (error: unknown) => error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404;

/** Objects of a bucket under `keyPrefix`, named without it ("" for the whole bucket). */
function s3Store(options: S3StorageOptions, { keyPrefix, cacheControl }: { keyPrefix: string; cacheControl: string }): FileStore {
  const { bucket } = options;
  const client = new S3Client({
    endpoint: options.endpoint,
    region: options.region ?? "us-east-1",
    credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
    // Custom endpoints rarely resolve bucket sub-domains; path-style works everywhere.
    forcePathStyle: true,
    // The SDK's default checksums (CRC32 headers, aws-chunked bodies) are refused by several
    // S3-compatible stores; checksums only where the operation requires them.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  const full = (key: string) => {
    assertSafeKey(key);
    return `${keyPrefix}${key}`;
  };
  return {
    async put(key, body, contentType) {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: full(key), Body: body, ContentType: contentType, CacheControl: cacheControl }));
    },
    async get(key) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: full(key) }));
        return object.Body ? Buffer.from(await object.Body.transformToByteArray()) : Buffer.alloc(0);
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    async exists(key) {
      try {
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: full(key) }));
        return true;
      } catch (error) {
        if (isNotFound(error)) return false;
        throw error;
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: full(key) }));
    },
    async list(prefix) {
      const keys: string[] = [];
      for await (const page of paginateListObjectsV2({ client }, { Bucket: bucket, Prefix: full(prefix) })) {
        for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key.slice(keyPrefix.length));
      }
      return keys.sort();
    },
  };
}
