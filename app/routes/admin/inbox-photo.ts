import { isPhotoKey } from "~/domain/inbox-admin";
import { readOnlyAction } from "~/lib/http";
import { requireAdmin } from "~/services/session.server";
import type { Route } from "./+types/inbox-photo";

/**
 * GET /admin/inbox/photos/:key: a buy-back photo, from private storage, to admins only (others
 * are sent to sign in, as for every admin page). Never kept by a shared cache.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const body = isPhotoKey(params.key) ? await context.privateFiles.get(params.key) : null;
  if (!body) return new Response("Photo introuvable.", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  return new Response(new Uint8Array(body), {
    headers: {
      "Content-Type": "image/webp",
      "Content-Length": String(body.length),
      "Cache-Control": "private, max-age=3600",
      "X-Content-Type-Options": "nosniff",
      "Content-Disposition": `inline; filename="${params.key}"`,
    },
  });
}

export const action = readOnlyAction;
