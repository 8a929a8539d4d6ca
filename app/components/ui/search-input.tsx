import { Search } from "lucide-react";
import type { ComponentProps } from "react";
import { cn } from "~/lib/utils";
import { Input } from "./input";

/**
 * A search field with its magnifier and a label for screen readers only. Its parent places it
 * (`relative`), so the icon sits inside the field.
 */
export function SearchInput({ id, label, className, ...props }: Omit<ComponentProps<"input">, "type"> & { id: string; label: string }) {
  return (
    <>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
      <Input id={id} type="search" className={cn("pl-9", className)} {...props} />
    </>
  );
}
