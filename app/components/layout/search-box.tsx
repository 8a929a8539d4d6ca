import { Search } from "lucide-react";
import { Form } from "react-router";
import { cn } from "~/lib/utils";

/** Product search: submits to the catalogue's text search. */
export function SearchBox({ className, id = "site-search" }: { className?: string; id?: string }) {
  return (
    <Form action="/catalog" method="get" role="search" className={cn("relative", className)}>
      <label htmlFor={id} className="sr-only">
        Rechercher un produit
      </label>
      <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
      <input
        id={id}
        name="q"
        type="search"
        placeholder="Rechercher un produit..."
        autoComplete="off"
        className="h-11 w-full rounded-lg border border-input bg-card pl-9 pr-3 text-sm placeholder:text-muted-foreground focus-visible:outline-2 focus-visible:outline-ring"
      />
    </Form>
  );
}
