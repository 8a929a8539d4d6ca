import { ExternalLink } from "lucide-react";
import type { ReactNode } from "react";
import { formatParisDateTime } from "~/domain/paris-time";
import type { TimelineEntry } from "~/domain/order-timeline";
import { cn } from "~/lib/utils";

/** A link to another site (a carrier's tracking page), in a new tab, said so. */
export function ExternalAnchor({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a href={href} target="_blank" rel="noreferrer noopener" className="inline-flex min-h-11 items-center gap-1 font-medium text-accent hover:underline">
      {children} <ExternalLink className="size-3.5" aria-hidden="true" />
      <span className="sr-only">(nouvel onglet)</span>
    </a>
  );
}

const TONE_DOTS: Record<TimelineEntry["tone"], string> = {
  neutral: "bg-muted-foreground",
  success: "bg-success",
  warning: "bg-warning",
  destructive: "bg-destructive",
};

/** An order's history, oldest first (the seller's order page adds each step's e-mails with `extra`). */
export function OrderTimeline({ entries, title = "Historique", extra }: { entries: TimelineEntry[]; title?: string; extra?: (entry: TimelineEntry) => ReactNode }) {
  return (
    <section aria-labelledby="timeline-title" className="rounded-2xl border border-border bg-card p-5">
      <h2 id="timeline-title" className="text-lg font-bold">
        {title}
      </h2>
      <ol className="mt-4 flex flex-col">
        {entries.map((entry, index) => (
          <li key={entry.key} className="relative flex gap-3 pb-5 last:pb-0">
            {index < entries.length - 1 ? <span className="absolute top-4 bottom-0 left-[5px] w-px bg-border" aria-hidden="true" /> : null}
            <span className={cn("relative mt-1.5 size-[11px] shrink-0 rounded-full ring-4 ring-card", TONE_DOTS[entry.tone])} aria-hidden="true" />
            <div className="min-w-0 flex-1 text-sm">
              <p className="font-semibold">{entry.title}</p>
              <p className="text-muted-foreground">
                <time dateTime={entry.at}>{formatParisDateTime(entry.at)}</time>
                {entry.actorName ? <> · par {entry.actorName}</> : null}
              </p>
              {entry.detail ? <p className="mt-1 [overflow-wrap:anywhere]">{entry.detail}</p> : null}
              {entry.link ? <ExternalAnchor href={entry.link.href}>{entry.link.label}</ExternalAnchor> : null}
              {extra?.(entry)}
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}
