import { useEffect } from "react";
import { toast } from "~/components/ui/toaster";
import { Alert } from "~/components/ui/alert";

export type FailureMessage = { title: string; description: string };

const FAILURE_TOAST = "action-failure";

/**
 * An action's failure, in the page (kept for reading) and as a toast (SPEC.md's wording). The
 * toast goes with the page: a sign-in that succeeds next does not arrive under a red "Échec".
 */
export function FailureAlert({ failure }: { failure: FailureMessage | undefined }) {
  useEffect(() => {
    if (!failure) return;
    toast.error(failure.title, { description: failure.description, id: FAILURE_TOAST });
    return () => toast.dismiss(FAILURE_TOAST);
  }, [failure]);
  if (!failure) return null;
  return (
    <Alert tone="error" title={failure.title} className="mb-4">
      {failure.description}
    </Alert>
  );
}
