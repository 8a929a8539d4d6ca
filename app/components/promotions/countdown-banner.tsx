import { Timer } from "lucide-react";
import { useEffect, useEffectEvent, useId } from "react";
import { type Remaining, formatParisMoment, remainingTime } from "~/domain/site-content-display";
import { useLiveStatus } from "~/lib/live-events";
import { useServerSecond } from "~/lib/server-clock";
import { useIdleRevalidate } from "~/lib/use-idle-revalidate";
import { cn } from "~/lib/utils";
import type { PublicBanners } from "~/services/site-content.server";

type ActiveCountdown = NonNullable<PublicBanners["countdown"]>;

const UNITS: [keyof Remaining, string][] = [
  ["days", "jours"],
  ["hours", "heures"],
  ["minutes", "minutes"],
  ["seconds", "secondes"],
];

/** The seller's countdown: its message, when it ends, and the time left. */
export function CountdownBanner({ countdown }: { countdown: ActiveCountdown }) {
  const titleId = useId();
  const target = new Date(countdown.targetAt);

  return (
    <section aria-labelledby={titleId} className="border-b border-border bg-card">
      <div className="mx-auto flex max-w-7xl flex-col items-center gap-2 px-4 py-3 text-center sm:gap-3 sm:px-6 sm:py-4 md:flex-row md:justify-between md:text-left">
        <div className="flex items-start gap-3">
          <Timer className="mt-0.5 hidden size-6 shrink-0 text-primary md:block" aria-hidden="true" />
          <div>
            <h2 id={titleId} className="text-sm font-bold sm:text-lg">
              {countdown.message}
            </h2>
            <p className="text-xs text-muted-foreground sm:text-sm">
              Fin le {formatParisMoment(target)}
              {countdown.hiddenCategoryLabel ? <> · les produits «&nbsp;{countdown.hiddenCategoryLabel}&nbsp;» arrivent à ce moment-là</> : null}
            </p>
          </div>
        </div>
        <CountdownTimer target={target} />
      </div>
    </section>
  );
}

/**
 * Days, hours, minutes and seconds to a moment, ticking from the server's clock; the page's data
 * is fetched again when it ends. The server's HTML (perhaps a cached minute old) and the first
 * render in the browser show dashes; the figures come right after hydration, so both match.
 */
export function CountdownTimer({ target, className }: { target: Date; className?: string }) {
  const now = useServerSecond();
  const remaining = now === null ? undefined : remainingTime(target, new Date(now));
  useRefreshAtEnd(remaining === null);
  return (
    <div role="timer" aria-label={`Temps restant jusqu'au ${formatParisMoment(target)}`} className={cn("flex gap-2", className)}>
      {UNITS.map(([unit, label]) => (
        <div key={unit} className="flex min-w-14 flex-col items-center rounded-lg border border-border bg-muted px-2 py-1 sm:min-w-16 sm:py-1.5">
          <span className="tabular text-xl font-black leading-tight sm:text-2xl" data-unit={unit}>
            {remaining === undefined ? "--" : String(remaining?.[unit] ?? 0).padStart(2, "0")}
          </span>
          <span className="text-xs text-muted-foreground">{label}</span>
        </div>
      ))}
    </div>
  );
}

/**
 * At the end the server purges its pages and tells open pages (server/site-schedule.ts); a page
 * without that connection asks for fresh data itself.
 */
function useRefreshAtEnd(ended: boolean) {
  const reload = useIdleRevalidate();
  const live = useLiveStatus();
  const refresh = useEffectEvent(() => {
    if (live !== "connected") reload();
  });
  useEffect(() => {
    if (ended) refresh();
  }, [ended]);
}
