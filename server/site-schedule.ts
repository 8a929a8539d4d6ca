import type { Logger } from "pino";

/** Longest wait in one timer (Node caps them at about 24.8 days); a later change is re-read then. */
const MAX_DELAY_MS = 24 * 60 * 60 * 1000;
const RETRY_MS = 60_000;

/**
 * Calls `onChange` at the next instant what visitors see changes by itself (a countdown's end, a
 * promotion's expiry), as `nextChange` reads it from the database, then plans the one after.
 * Call replan() when the site content changes. Each server instance runs its own: it purges
 * its own page cache and tells its own open pages.
 */
export function startSiteContentTimer(options: {
  nextChange: (now: Date) => Promise<Date | null>;
  onChange: () => void;
  logger: Logger;
  now?: () => number;
}) {
  const clock = options.now ?? Date.now;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  // Only the latest read may set the timer (a replan while a read is under way wins).
  let reads = 0;

  function wait(delay: number, then: () => void) {
    clearTimeout(timer);
    if (stopped) return;
    timer = setTimeout(then, Math.max(0, Math.min(delay, MAX_DELAY_MS)));
    timer.unref();
  }

  function replan() {
    const read = ++reads;
    options
      .nextChange(new Date(clock()))
      .then((next) => {
        if (read !== reads || stopped) return;
        if (next === null) clearTimeout(timer);
        else wait(next.getTime() - clock(), () => fire(next));
      })
      .catch((error: unknown) => {
        if (read !== reads) return;
        options.logger.error({ err: error }, "site content: could not plan the next change, retrying in a minute");
        wait(RETRY_MS, replan);
      });
  }

  function fire(due: Date) {
    // A timer may wake a little early, and a long wait is cut in pieces.
    if (clock() < due.getTime()) return wait(due.getTime() - clock(), () => fire(due));
    options.onChange();
    replan();
  }

  replan();
  return {
    replan,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
