import { parseSuggestionQuery } from "~/domain/suggestions";
import { publicPageHeaders } from "~/lib/http";
import { searchSuggestions } from "~/services/catalog.server";
import type { Route } from "./+types/api.search";

/**
 * Header search suggestions as JSON. A resource route sends its loader's Response as it is
 * (a `headers` export only runs for documents), so the public cache headers go on it here.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const q = parseSuggestionQuery(new URL(request.url).searchParams);
  const suggestions = await searchSuggestions(context.db, q, { now: new Date(), imageBaseUrl: context.storage.publicBaseUrl });
  return Response.json({ suggestions }, { headers: publicPageHeaders() });
}

export { readOnlyAction as action } from "~/lib/http";
