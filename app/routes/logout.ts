import { redirect } from "react-router";
import { withNotice } from "~/domain/notices";
import { safeRedirect } from "~/lib/safe-redirect";
import { signOut } from "~/services/auth-actions.server";
import type { Route } from "./+types/logout";

/** POST /logout: ends the session in the database, clears the cookie, says "Déconnecté". */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const headers = await signOut(request, context);
  throw redirect(withNotice(safeRedirect(form.get("redirectTo"), "/"), "deconnecte"), { headers });
}

export function loader() {
  return redirect("/");
}
