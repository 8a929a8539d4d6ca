import { Link } from "react-router";
import { Button, buttonVariants } from "~/components/ui/button";

/**
 * The foot of an admin list's create/edit form: its submit button (saying it saves while it
 * does) and, when editing, "Annuler" back to the list (`cancelTo`).
 */
export function EditorFormActions({ busy, editing, createLabel, cancelTo, disabled = false }: { busy: boolean; editing: boolean; createLabel: string; cancelTo: string; disabled?: boolean }) {
  return (
    <div className="flex flex-wrap gap-2">
      <Button type="submit" disabled={busy || disabled}>
        {busy ? "Enregistrement..." : editing ? "Enregistrer les modifications" : createLabel}
      </Button>
      {editing ? (
        <Link to={cancelTo} className={buttonVariants({ variant: "outline" })}>
          Annuler
        </Link>
      ) : null}
    </div>
  );
}
