import { parseAccountingPeriod } from "~/domain/accounting-period";
import { registerFileName } from "~/domain/purchase-register";
import { registerCsv } from "~/domain/purchase-register-csv";
import { readOnlyAction } from "~/lib/http";
import { registerEntries } from "~/services/purchase-register.server";
import { requireAdmin } from "~/services/session.server";
import type { Route } from "./+types/register-csv";

/** GET /admin/registre.csv?year=2026&month=11: the register of second-hand purchases of a month or a year. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const parsed = parseAccountingPeriod(new URL(request.url).searchParams, new Date());
  if (!parsed.ok) return new Response(parsed.error, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  return new Response(registerCsv(await registerEntries(context.db, parsed.period)), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${registerFileName(parsed.period, "csv")}"`,
      "Cache-Control": "no-store",
    },
  });
}

export const action = readOnlyAction;
