import { useEffect } from "react";
import { toast } from "~/components/ui/toaster";
import { Alert } from "~/components/ui/alert";

export type FailureMessage = { title: string; description: string };

/** An action's failure, in the page (kept for reading) and as a toast (SPEC.md's wording). */
export function FailureAlert({ failure }: { failure: FailureMessage | undefined }) {
  useEffect(() => {
    if (failure) toast.error(failure.title, { description: failure.description });
  }, [failure]);
  if (!failure) return null;
  return (
    <Alert tone="error" title={failure.title} className="mb-4">
      {failure.description}
    </Alert>
  );
}
