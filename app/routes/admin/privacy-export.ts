import { data } from "react-router";
import { PRIVACY_EMAIL_INVALID } from "~/domain/privacy";
import { parisWallTime } from "~/domain/paris-time";
import { methodNotAllowed } from "~/lib/http";
import { readForm } from "~/lib/request-input.server";
import { exportGuestData } from "~/services/gdpr.server";
import { requireAdmin } from "~/services/session.server";
import type { Route } from "./+types/privacy-export";

/**
 * POST /admin/privacy/export (email): everything held under an e-mail address (GDPR right of
 * access for a person without an account) as a JSON download, never cached. Posted, so that the
 * address stays out of URLs and access logs; the file is named by day, not by the person.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context, "api");
  const now = new Date();
  const email = (await readForm(request)).get("email");
  const exported = typeof email === "string" ? await exportGuestData(context.db, email, now) : null;
  if (!exported) throw data({ error: PRIVACY_EMAIL_INVALID }, { status: 400 });
  context.logger.info({ adminId: admin.id, orders: exported.orders.length, requests: exported.requests.length }, "gdpr: data by e-mail address exported");
  return new Response(`${JSON.stringify(exported, null, 2)}\n`, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="donnees-par-adresse-${parisWallTime(now).date}.json"`,
      "Cache-Control": "no-store",
    },
  });
}

export const loader = () => methodNotAllowed("POST");
