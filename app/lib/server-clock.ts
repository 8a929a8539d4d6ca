import { useSyncExternalStore } from "react";

/**
 * The server's clock as the browser knows it: /api/live sends the server's time when it
 * connects (server/live.ts), and the difference with this machine's clock is kept here, so a
 * countdown shows the same seconds on every screen, whatever time the visitor's computer says.
 * Until then the browser's own clock is used.
 */
let offsetMs = 0;
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setTimeout> | undefined;

export function setServerTime(serverNowMs: number, clientNowMs = Date.now()): void {
  if (!Number.isFinite(serverNowMs)) return;
  offsetMs = serverNowMs - clientNowMs;
  for (const listener of listeners) listener();
}

export function serverNow(): number {
  return Date.now() + offsetMs;
}

/** One timer for every ticking component, on the server's second boundaries. */
function tick() {
  for (const listener of listeners) listener();
  timer = setTimeout(tick, 1000 - (serverNow() % 1000));
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (listeners.size === 1) timer = setTimeout(tick, 1000 - (serverNow() % 1000));
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) clearTimeout(timer);
  };
}

/**
 * The server's time to the second, changing every second; null while rendering on the server
 * and hydrating (the cached HTML may be a minute old, and must match the first render), then
 * the real value at once.
 */
export function useServerSecond(): number | null {
  return useSyncExternalStore(
    subscribe,
    () => Math.floor(serverNow() / 1000) * 1000,
    () => null,
  );
}
