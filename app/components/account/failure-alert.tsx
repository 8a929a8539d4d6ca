import { useEffect, useRef } from "react";
import { toast } from "~/components/ui/toaster";
import { Alert } from "~/components/ui/alert";
import { focusIsLost } from "~/lib/restore-focus";

export type FailureMessage = { title: string; description: string };

const FAILURE_TOAST = "action-failure";

/**
 * An action's failure, in the page (kept for reading) and as a toast (SPEC.md's wording). The
 * toast goes with the page: a sign-in that succeeds next does not arrive under a red "Échec".
 */
export function FailureAlert({ failure }: { failure: FailureMessage | undefined }) {
  const alert = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!failure) return;
    // The submit button, disabled while the form was sent, lost the focus: it comes here, so
    // the next Tab reaches the form again instead of the top of the page.
    if (focusIsLost()) alert.current?.focus();
    toast.error(failure.title, { description: failure.description, id: FAILURE_TOAST });
    return () => toast.dismiss(FAILURE_TOAST);
  }, [failure]);
  if (!failure) return null;
  return (
    <Alert tone="error" title={failure.title} className="mb-4" focusRef={alert}>
      {failure.description}
    </Alert>
  );
}
