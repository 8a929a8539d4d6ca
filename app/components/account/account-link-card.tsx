import type { LucideIcon } from "lucide-react";
import { Link } from "react-router";
import { buttonVariants } from "~/components/ui/button";

/** One of the account's own pages, announced on /account: what it holds and the way there. */
export function AccountLinkCard({ id, icon: Icon, title, text, to, action }: { id: string; icon: LucideIcon; title: string; text: string; to: string; action: string }) {
  return (
    <section aria-labelledby={id} className="mt-6 flex flex-wrap items-center justify-between gap-4 rounded-2xl border border-border bg-card p-6">
      <div>
        <h2 id={id} className="flex items-center gap-2 text-lg font-bold">
          <Icon className="size-5 text-primary" aria-hidden="true" /> {title}
        </h2>
        <p className="mt-1 text-sm text-muted-foreground">{text}</p>
      </div>
      <Link to={to} className={buttonVariants({ variant: "outline" })}>
        {action}
      </Link>
    </section>
  );
}
