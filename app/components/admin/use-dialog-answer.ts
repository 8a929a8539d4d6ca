import { useEffect } from "react";
import { type ActionToast, useActionToast } from "./use-action-toast";

/** An action's answer closes its dialog and shows its toast, except a form the seller must correct. */
export function useDialogAnswer(answer: (ActionToast & { fieldErrors?: Record<string, string | undefined> }) | undefined, setOpen: (open: boolean) => void) {
  useActionToast(answer?.fieldErrors ? undefined : answer);
  useEffect(() => {
    if (answer && !answer.fieldErrors) setOpen(false);
  }, [answer, setOpen]);
}
