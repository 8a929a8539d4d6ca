import { parseAccountingPeriod } from "~/domain/accounting-period";
import { registerFileName } from "~/domain/purchase-register";
import { pdfResponse, readOnlyAction } from "~/lib/http";
import { registerEntries, registerPdf } from "~/services/purchase-register.server";
import { requireAdmin } from "~/services/session.server";
import type { Route } from "./+types/register-pdf";

/** GET /admin/registre.pdf?year=2026&month=11: the register of a month or a year, to print. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const parsed = parseAccountingPeriod(new URL(request.url).searchParams, new Date());
  if (!parsed.ok) return new Response(parsed.error, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  const pdf = await registerPdf(await registerEntries(context.db, parsed.period), parsed.period, context.shop.name);
  return pdfResponse(pdf, registerFileName(parsed.period, "pdf"), "no-store");
}

export const action = readOnlyAction;
