import { cn } from "~/lib/utils";

/** A form's own error (not a field's), announced at once; nothing when there is none. */
export function FormError({ message, className }: { message: string | undefined; className?: string }) {
  if (!message) return null;
  return (
    <p role="alert" className={cn("text-sm font-medium text-destructive", className)}>
      {message}
    </p>
  );
}
