import { ossFileName, ossReturnCsv, parseOssQuarter } from "~/domain/oss-return";
import { readOnlyAction } from "~/lib/http";
import { ossReturnOf } from "~/services/oss.server";
import { requireAdmin } from "~/services/session.server";
import type { Route } from "./+types/exports-oss";

/** GET /admin/exports/oss.csv?year=2026&quarter=4: the OSS return's figures, by country and rate. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const parsed = parseOssQuarter(new URL(request.url).searchParams, new Date());
  if (!parsed.ok) return new Response(parsed.error, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  return new Response(ossReturnCsv(await ossReturnOf(context.db, parsed.quarter)), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${ossFileName(parsed.quarter)}"`,
      "Cache-Control": "no-store",
    },
  });
}

export const action = readOnlyAction;
