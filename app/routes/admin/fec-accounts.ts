import { actionAnswer } from "~/components/admin/action-answers";
import type { FecAccountsAnswer } from "~/components/admin/fec-export-form";
import { fieldErrors } from "~/domain/field-errors";
import { fecAccountsSchema } from "~/domain/fec-accounts";
import { methodNotAllowed } from "~/lib/http";
import { readForm } from "~/lib/request-input.server";
import { saveFecAccounts } from "~/services/fec.server";
import { requireAdmin } from "~/services/session.server";
import type { Route } from "./+types/fec-accounts";

/** POST /admin/exports/comptes-fec: the seller's accounts for the FEC, checked by the form's schema. */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context, "api");
  const parsed = fecAccountsSchema.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success)
    return actionAnswer<FecAccountsAnswer>(400, {
      ok: false,
      toast: { title: "Comptes non enregistrés", description: "Corrigez les numéros de compte signalés." },
      errors: fieldErrors(parsed.error),
    });
  await saveFecAccounts(context.db, parsed.data);
  context.logger.info({ adminId: admin.id }, "admin: FEC accounts saved");
  return actionAnswer<FecAccountsAnswer>(200, { ok: true, toast: { title: "Comptes enregistrés", description: "Le prochain fichier des écritures comptables les utilisera." } });
}

export const loader = () => methodNotAllowed("POST");
