import { parseAccountingPeriod } from "~/domain/accounting-period";
import { eReportingFileName } from "~/domain/e-reporting";
import { readOnlyAction } from "~/lib/http";
import { eReportingCsvFor } from "~/services/e-reporting.server";
import { requireAdmin } from "~/services/session.server";
import type { Route } from "./+types/exports-e-reporting";

/** GET /admin/exports/e-reporting.csv?year=2026&month=11: consumer sales and refunds per day (docs/decisions/053). */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const parsed = parseAccountingPeriod(new URL(request.url).searchParams, new Date());
  if (!parsed.ok) return new Response(parsed.error, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  return new Response(await eReportingCsvFor(context.db, parsed.period), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${eReportingFileName(parsed.period)}"`,
      "Cache-Control": "no-store",
    },
  });
}

export const action = readOnlyAction;
