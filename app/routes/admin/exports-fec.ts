import { parseAccountingPeriod } from "~/domain/accounting-period";
import { FEC_SIREN_MISSING, fecFile, fecFileName, fecSiren, toLatin9 } from "~/domain/fec";
import { readOnlyAction } from "~/lib/http";
import { fecEntriesFor, getFecAccounts } from "~/services/fec.server";
import { requireAdmin } from "~/services/session.server";
import { getShopIdentity } from "~/services/shop-identity.server";
import type { Route } from "./+types/exports-fec";

const refusal = (message: string, status: number) =>
  new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

/** GET /admin/exports/fec.txt?year=2026&month=11: the FEC of a month or a year (docs/decisions/052). */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const parsed = parseAccountingPeriod(new URL(request.url).searchParams, new Date());
  if (!parsed.ok) return refusal(parsed.error, 400);
  const [{ identity }, accounts] = await Promise.all([getShopIdentity(context.db, context.shop.legal), getFecAccounts(context.db)]);
  const siren = fecSiren(identity.siren);
  if (!siren) return refusal(FEC_SIREN_MISSING, 409);
  const file = fecFile(await fecEntriesFor(context.db, parsed.period, accounts), accounts);
  return new Response(Buffer.from(toLatin9(file)), {
    headers: {
      "Content-Type": "text/plain; charset=iso-8859-15",
      "Content-Disposition": `attachment; filename="${fecFileName(siren, parsed.period)}"`,
      "Cache-Control": "no-store",
    },
  });
}

export const action = readOnlyAction;
