import type { MouseEvent } from "react";
import { buttonVariants } from "~/components/ui/button";
import { Link } from "react-router";

/**
 * Empties a filter form's fields (not its hidden ones): text typed but not applied yet, or a
 * search sent a moment ago whose list has not arrived, would otherwise stay in the box while
 * the list shows everything, since the page's state they are drawn from was already empty.
 */
function clearFilterFields(form: HTMLFormElement): void {
  for (const field of Array.from(form.elements)) {
    if (field instanceof HTMLInputElement && field.type !== "hidden") field.value = "";
    else if (field instanceof HTMLSelectElement && Array.from(field.options).some((option) => option.value === "")) field.value = "";
  }
}

/** A click the browser handles itself (another tab or window): the link does not navigate here. */
function opensElsewhere(event: MouseEvent<HTMLAnchorElement>): boolean {
  return event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey;
}

/** "Effacer les filtres" of an admin list: the list without filters, and its form emptied at once. */
export function ClearFiltersLink({ to }: { to: string }) {
  const clear = (event: MouseEvent<HTMLAnchorElement>) => {
    const form = event.currentTarget.closest("form");
    // A click that opens another tab leaves this one's filters as they are.
    if (form && !opensElsewhere(event)) clearFilterFields(form);
  };
  return (
    <Link to={to} className={buttonVariants({ variant: "ghost" })} onClick={clear}>
      Effacer les filtres
    </Link>
  );
}
