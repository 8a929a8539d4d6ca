import type { Logger } from "pino";

/**
 * A task run every `intervalMs` in this process, never two rounds at once (a tick that finds one
 * under way skips), its failures logged with `failure`. `firstRunMs`: a first round sooner than
 * the interval. `kick()` runs a round soon, once for a burst of kicks; `stop()` ends the timers
 * and waits for the round under way.
 */
export function startPeriodicJob(options: { run: () => Promise<void>; intervalMs: number; logger: Logger; failure: string; firstRunMs?: number; kickDelayMs?: number }) {
  let running: Promise<void> | null = null;
  let kicked: NodeJS.Timeout | undefined;
  const round = () => {
    if (running) return;
    running = options
      .run()
      .catch((error: unknown) => options.logger.error({ err: error }, options.failure))
      .finally(() => {
        running = null;
      });
  };
  const first = options.firstRunMs === undefined ? undefined : setTimeout(round, options.firstRunMs);
  first?.unref();
  const timer = setInterval(round, options.intervalMs);
  timer.unref();
  return {
    kick() {
      if (kicked) return;
      kicked = setTimeout(() => {
        kicked = undefined;
        round();
      }, options.kickDelayMs ?? 0);
      kicked.unref();
    },
    async stop() {
      clearTimeout(first);
      clearTimeout(kicked);
      clearInterval(timer);
      await running;
    },
  };
}
