import { useEffect, useEffectEvent } from "react";
import { parseCatalogChange } from "~/domain/catalog-change";
import { type LiveStatus, publishCatalogChange, setLiveStatus } from "./live-events";
import { setServerTime } from "./server-clock";
import { useIdleRevalidate } from "./use-idle-revalidate";

/** The connection's state, on <html data-live> (visible to tests and tools without React) and to screens (live-events.ts). */
function setStatus(next: LiveStatus) {
  document.documentElement.dataset.live = next;
  setLiveStatus(next);
}

const COALESCE_MS = 150;
const RECONNECT_MIN_MS = 2_000;
const RECONNECT_MAX_MS = 60_000;

/**
 * Listens to catalogue changes (GET /api/live) and reloads the page's data when one arrives,
 * so stock figures and lists change without a reload. Bursts are coalesced into one reload,
 * and a reconnection reloads too (changes may have been missed while offline). Site content
 * changes ({op: "site"}: the promotions page, a countdown's end) reload every loader, the
 * root's banners included. The stream also gives the server's clock (server-clock.ts).
 * A reload waits for a navigation under way to end (use-idle-revalidate.ts).
 */
export function useLiveUpdates(): void {
  const reload = useIdleRevalidate();
  const revalidate = useEffectEvent(reload);

  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    let source: EventSource | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let reconnect: ReturnType<typeof setTimeout> | undefined;
    let reconnectMs = RECONNECT_MIN_MS;
    let wasDown = false;
    const refresh = () => {
      clearTimeout(timer);
      timer = setTimeout(revalidate, COALESCE_MS);
    };
    const connect = () => {
      const stream = new EventSource("/api/live");
      source = stream;
      stream.addEventListener("open", () => {
        reconnectMs = RECONNECT_MIN_MS;
        setStatus("connected");
        if (wasDown) refresh();
        wasDown = false;
      });
      stream.addEventListener("error", () => {
        setStatus("disconnected");
        wasDown = true;
        // The browser retries a dropped stream by itself, but gives up for good on an answer
        // other than 200 (a proxy's 502 while the server restarts, a 429): then the page
        // retries, less and less often, spread out so a restart is not met by every page at once.
        if (stream.readyState !== EventSource.CLOSED) return;
        reconnect = setTimeout(connect, reconnectMs * (0.5 + Math.random()));
        reconnectMs = Math.min(reconnectMs * 2, RECONNECT_MAX_MS);
      });
      stream.addEventListener("clock", (event) => {
        const { now } = JSON.parse(event.data) as { now: number };
        setServerTime(now);
      });
      stream.addEventListener("catalog", (event) => {
        const change = parseCatalogChange(event.data);
        if (change) publishCatalogChange(change);
        refresh();
      });
    };
    connect();
    return () => {
      clearTimeout(timer);
      clearTimeout(reconnect);
      source?.close();
    };
  }, []);
}
