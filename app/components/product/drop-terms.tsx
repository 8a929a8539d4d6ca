import { UserRound } from "lucide-react";
import { limitText } from "~/domain/drop-limit-text";
import type { ProductDropTerms } from "~/domain/product-view";
import { cn } from "~/lib/utils";

/** A drop's rules for buyers, where the price is: "Limité à 1 par client", and the account if one is needed. */
export function DropTerms({ terms, className }: { terms: ProductDropTerms; className?: string }) {
  return (
    <p className={cn("flex items-center gap-2 text-sm font-semibold", className)} data-testid="drop-terms">
      <UserRound className="size-4 shrink-0" aria-hidden="true" />
      {limitText(terms.perCustomerLimit)}
      {terms.accountRequired ? " · réservé aux clients connectés" : ""}
    </p>
  );
}
