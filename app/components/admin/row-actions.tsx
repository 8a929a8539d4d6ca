import { Pencil, Trash2 } from "lucide-react";
import type { ComponentProps } from "react";
import { Link } from "react-router";
import { Button, buttonVariants } from "~/components/ui/button";

/** A list row's "Modifier" icon link; `label` names what it edits for screen readers. */
export function EditIconLink({
  label,
  ...props
}: Omit<ComponentProps<typeof Link>, "className" | "children"> & {
  label: string;
}) {
  return (
    <Link
      {...props}
      className={buttonVariants({ variant: "ghost", size: "icon" })}
      aria-label={label}
      title="Modifier"
    >
      <Pencil aria-hidden="true" />
    </Link>
  );
}

/** A list row's "Supprimer" icon button, which opens the page's confirmation. */
export function DeleteIconButton({
  label,
  onClick,
}: {
  label: string;
  onClick: () => void;
}) {
  return (
    <Button
      variant="ghost"
      size="icon"
      className="text-destructive hover:text-destructive"
      aria-label={label}
      title="Supprimer"
      onClick={onClick}
    >
      <Trash2 aria-hidden="true" />
    </Button>
  );
}
