import { data } from "react-router";
import { readOnlyAction } from "~/lib/http";
import { parisWallTime } from "~/domain/paris-time";
import { exportUserData } from "~/services/gdpr.server";
import { requireAdmin } from "~/services/session.server";
import type { Route } from "./+types/user-export";

/**
 * GET /admin/users/{id}/export: everything the shop holds about one customer (GDPR right of
 * access) as a JSON download, never cached. Admins only (others are sent away as from any admin
 * page); the file is named by id and day, not by the person.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const admin = await requireAdmin(request, context);
  const now = new Date();
  const exported = await exportUserData(context.db, params.id, now);
  if (!exported) throw data({ error: "Cet utilisateur n'existe pas." }, { status: 404 });
  context.logger.info({ userId: params.id, adminId: admin.id }, "gdpr: customer data exported");
  return new Response(`${JSON.stringify(exported, null, 2)}\n`, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="donnees-client-${params.id.replace(/[^\w-]/g, "")}-${parisWallTime(now).date}.json"`,
      "Cache-Control": "no-store",
    },
  });
}

export const action = readOnlyAction;
