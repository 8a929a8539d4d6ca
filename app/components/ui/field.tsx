import { type ReactNode, useId } from "react";
import { cn } from "~/lib/utils";

export type FieldControlProps = { id: string; "aria-invalid": true | undefined; "aria-describedby": string | undefined; "aria-required": true | undefined };

/**
 * A label, any control and its error or hint, tied together for screen readers (FormField is
 * the same for a plain input). The control is rendered by `children` with the ids to use.
 */
export function Field({
  id: givenId,
  label,
  error,
  hint,
  required,
  className,
  children,
}: {
  /** The control's id when a link must reach it (a warning's "#id"); generated otherwise. */
  id?: string;
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  required?: boolean;
  className?: string;
  children: (props: FieldControlProps) => ReactNode;
}) {
  const generated = useId();
  const id = givenId ?? generated;
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={cn("flex flex-col gap-1.5", className)}>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
        {required ? (
          <span className="text-destructive" aria-hidden="true">
            {" "}
            *
          </span>
        ) : null}
      </label>
      {children({ id, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy, "aria-required": required ? true : undefined })}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The look of a native select or textarea, matching Input. */
export const controlClass =
  "w-full rounded-lg border border-input bg-card px-3 text-sm focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring aria-[invalid=true]:border-destructive disabled:opacity-50";
