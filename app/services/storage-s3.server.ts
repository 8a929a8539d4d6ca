import {
  DeleteObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  paginateListObjectsV2,
} from "@aws-sdk/client-s3";
import { type Storage, assertSafeKey } from "./storage.server";

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
  return {
    publicBaseUrl: (options.publicUrl ?? `${options.endpoint.replace(/\/+$/, "")}/${bucket}`).replace(/\/+$/, ""),
    async put(key, body, contentType) {
      assertSafeKey(key);
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: contentType, CacheControl: IMMUTABLE }));
    },
    async exists(key) {
      assertSafeKey(key);
      try {
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return true;
      } catch (error) {
        if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404) return false;
        throw error;
      }
    },
    async delete(key) {
      assertSafeKey(key);
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
    async list(prefix) {
      assertSafeKey(prefix);
      const keys: string[] = [];
      for await (const page of paginateListObjectsV2({ client }, { Bucket: bucket, Prefix: prefix })) {
        for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
      }
      return keys.sort();
    },
  };
}
