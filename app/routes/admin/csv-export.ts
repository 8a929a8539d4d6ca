import { readOnlyAction } from "~/lib/http";
import { parisWallTime } from "~/domain/paris-time";
import { exportCatalogCsv } from "~/services/catalog-csv.server";
import { requireAdmin } from "~/services/session.server";
import type { Route } from "./+types/csv-export";

/** "catalogue-comptoir-2026-11-21.csv": the day in Paris, as the seller lives it. */
function exportFileName(now: Date): string {
  return `catalogue-comptoir-${parisWallTime(now).date}.csv`;
}

/**
 * GET /admin/csv/export: the whole catalogue (archived products aside) as a CSV download, for a
 * spreadsheet; /admin/csv reads the same format back.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const csv = await exportCatalogCsv(context.db);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${exportFileName(new Date())}"`,
      "Cache-Control": "no-store",
    },
  });
}

export const action = readOnlyAction;
