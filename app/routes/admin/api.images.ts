import { data } from "react-router";
import { methodNotAllowed } from "~/lib/http";
import { readFormAtMost } from "~/lib/request-input.server";
import { IMAGE_UPLOAD_ERRORS, MAX_IMAGE_BYTES } from "~/domain/image-upload";
import { imageUrl } from "~/domain/images";
import { ingestProductImage } from "~/services/product-images.server";
import { requireAdmin } from "~/services/session.server";
import type { Route } from "./+types/api.images";

/** Room for the multipart envelope around a file of the maximum size. */
const MAX_BODY_BYTES = MAX_IMAGE_BYTES + 64 * 1024;

export type ImageUploadAnswer = { key: string; url: string } | { error: string };

/**
 * POST /admin/api/images, one file in the "file" field: the product form's uploader. The server
 * decides what an image is (services/product-images.server.ts); the body is never read past
 * the size limit.
 */
export async function action({ request, context }: Route.ActionArgs) {
  await requireAdmin(request, context, "api");
  const tooLarge = () => data<ImageUploadAnswer>({ error: IMAGE_UPLOAD_ERRORS.tooLarge }, { status: 413 });
  const form = await readFormAtMost(request, MAX_BODY_BYTES);
  if (form === "too-large") return tooLarge();
  const file = form === "unreadable" ? null : form.get("file");
  if (!(file instanceof File)) return data<ImageUploadAnswer>({ error: "Aucun fichier reçu." }, { status: 400 });
  const result = await ingestProductImage(context.storage, Buffer.from(await file.arrayBuffer()));
  if (!result.ok) return data<ImageUploadAnswer>({ error: result.error }, { status: result.status });
  return data<ImageUploadAnswer>({ key: result.key, url: imageUrl(context.storage.publicBaseUrl, result.key, 320) }, { status: 201 });
}

/** The uploader only posts. */
export const loader = () => methodNotAllowed("POST");
