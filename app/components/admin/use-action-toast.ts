import { useEffect } from "react";
import { toast } from "~/components/ui/toaster";

/** What an admin action answers: whether it worked, and the toast that says so. */
export type ActionToast = { ok: boolean; toast: { title: string; description?: string } };

/** Shows the toast of an action's answer, once per answer (a fetcher's data). */
export function useActionToast(answer: ActionToast | undefined) {
  useEffect(() => {
    if (!answer) return;
    const { title, description } = answer.toast;
    if (answer.ok) toast.success(title, { description });
    else toast.error(title, { description });
  }, [answer]);
}
