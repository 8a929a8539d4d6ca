import { type ReactNode, useId } from "react";

/**
 * A checkbox drawn as a switch, inside its label (44 px high), for forms posted as they are; a
 * `description` under it is the switch's accessible description.
 */
export function SwitchField({ name, label, defaultChecked, description }: { name: string; label: string; defaultChecked: boolean; description?: ReactNode }) {
  const descriptionId = useId();
  const field = (
    <label className="flex min-h-11 cursor-pointer items-center gap-3 text-sm font-medium">
      <input
        type="checkbox"
        name={name}
        defaultChecked={defaultChecked}
        className="peer sr-only"
        role="switch"
        aria-describedby={description ? descriptionId : undefined}
      />
      <span
        aria-hidden="true"
        className="relative inline-flex h-6 w-11 shrink-0 items-center rounded-full border border-border bg-muted transition-colors peer-checked:border-primary peer-checked:bg-primary peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-ring after:absolute after:left-1 after:size-4 after:rounded-full after:bg-background after:shadow after:transition-transform peer-checked:after:translate-x-5"
      />
      {label}
    </label>
  );
  if (!description) return field;
  return (
    <div className="flex flex-col gap-1">
      {field}
      <p id={descriptionId} className="max-w-prose pl-14 text-sm text-muted-foreground">
        {description}
      </p>
    </div>
  );
}
