import { redirect } from "react-router";
import { withNotice } from "~/domain/notices";
import { safeRedirect } from "~/lib/safe-redirect";
import { signOut } from "~/services/auth-actions.server";
import type { Route } from "./+types/logout";
import { readForm } from "~/lib/request-input.server";

/** POST /logout: ends the session in the database, clears the cookie, says "Déconnecté". */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const to = withNotice(safeRedirect(form.get("redirectTo"), "/"), "deconnecte");
  const headers = await signOut(request, context);
  throw redirect(to, { headers });
}

export function loader() {
  return redirect("/");
}
