import { parseAccountingPeriod, periodFileName } from "~/domain/accounting-period";
import { readOnlyAction } from "~/lib/http";
import { ledgerCsvFor } from "~/services/accounting-export.server";
import { requireAdmin } from "~/services/session.server";
import type { Route } from "./+types/exports-csv";

/** GET /admin/exports/recettes.csv?year=2026&month=11: the receipts book of a month or a year. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const parsed = parseAccountingPeriod(new URL(request.url).searchParams, new Date());
  if (!parsed.ok) return new Response(parsed.error, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  return new Response(await ledgerCsvFor(context.db, parsed.period), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${periodFileName(parsed.period)}"`,
      "Cache-Control": "no-store",
    },
  });
}

export const action = readOnlyAction;
