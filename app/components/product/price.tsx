import { formatEuros } from "~/domain/money";
import { cn } from "~/lib/utils";

export function Price({ cents, className }: { cents: number; className?: string }) {
  return <span className={cn("tabular font-bold", className)}>{formatEuros(cents)}</span>;
}
