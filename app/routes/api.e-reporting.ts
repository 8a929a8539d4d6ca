import { parseEReportingRange } from "~/domain/e-reporting";
import { bearerTokenMatches } from "~/lib/bearer-token.server";
import type { AppContext } from "~/lib/context";
import { readOnlyAction } from "~/lib/http";
import { eReportingJsonFor } from "~/services/e-reporting.server";
import { requireAdmin } from "~/services/session.server";
import type { Route } from "./+types/api.e-reporting";

const NO_STORE = { "Cache-Control": "no-store" };

/**
 * The seller's platform with E_REPORTING_TOKEN as a bearer token, or an admin's session (as the
 * admin exports). A request that names a token is judged on it alone: a wrong one is a 401 even
 * from a signed-in admin's browser.
 */
async function requireEReportingAccess(request: Request, context: AppContext): Promise<void> {
  const authorization = request.headers.get("Authorization");
  if (authorization === null) {
    await requireAdmin(request, context, "api");
    return;
  }
  if (context.eReportingToken && bearerTokenMatches(authorization, context.eReportingToken)) return;
  throw Response.json({ error: "Jeton d'accès invalide." }, { status: 401, headers: { ...NO_STORE, "WWW-Authenticate": 'Bearer realm="e-reporting"' } });
}

/**
 * GET /api/e-reporting?from=2027-09-01&to=2027-09-10: the consumer sales and refunds of those
 * Paris days, per day and category, in integer cents (domain/e-reporting.ts, docs/decisions/053).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireEReportingAccess(request, context);
  const parsed = parseEReportingRange(new URL(request.url).searchParams);
  if (!parsed.ok) return Response.json({ error: parsed.error }, { status: 400, headers: NO_STORE });
  return Response.json(await eReportingJsonFor(context.db, parsed.range), { headers: NO_STORE });
}

export const action = readOnlyAction;
