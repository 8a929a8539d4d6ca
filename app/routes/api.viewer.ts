import { PRIVATE_PAGE_CACHE_CONTROL } from "~/lib/http";
import { getViewer, viewerHintHeader } from "~/services/session.server";
import type { Route } from "./+types/api.viewer";

/**
 * GET /api/viewer: who is signed in, checked against the sessions table, with the header's hint
 * cookie renewed or cleared to match (app/lib/viewer.ts asks once per browser session).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await getViewer(request, context);
  const hint = viewer && { name: viewer.name, role: viewer.role };
  return Response.json({ viewer: hint }, { headers: { "Cache-Control": PRIVATE_PAGE_CACHE_CONTROL, "Set-Cookie": viewerHintHeader(hint, context) } });
}

export { readOnlyAction as action } from "~/lib/http";
