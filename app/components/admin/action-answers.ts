import { data } from "react-router";
import type { ActionToast } from "./use-action-toast";

/** An admin action's answer (its toast and what else its form needs), with its status. */
export function actionAnswer<Answer extends ActionToast>(status: number, body: Answer) {
  return data<Answer>(body, { status });
}

/** An admin action's refusal: the toast "Erreur", saying why. */
export function actionRefusal(status: number, description: string) {
  return actionAnswer<ActionToast>(status, { ok: false, toast: { title: "Erreur", description } });
}
