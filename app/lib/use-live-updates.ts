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
 * root's banners included. The stream also gives the server's clock (server-clock.ts), and
 * when the server last heard of a change: a page whose data was read before that (its stream
 * opened after the change's event, or the page came from a cache) reloads it.
 * A reload waits for a navigation under way to end (use-idle-revalidate.ts).
 *
 * `renderedAt`: when the server began reading the page's data (the root loader's clock).
 * `orders`: the page also reloads when an order is placed, paid, shipped or refunded (the
 * admin's pages; the stream is opened again when this changes).
 */
export function useLiveUpdates(renderedAt: number | undefined, orders = false): void {
  const reload = useIdleRevalidate();
  const revalidate = useEffectEvent(reload);
  const missedChange = useEffectEvent((changedAt: number | null) => missedAChange(renderedAt, changedAt));

  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    let source: EventSource | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let reconnect: ReturnType<typeof setTimeout> | undefined;
    let reconnectMs = RECONNECT_MIN_MS;
    let wasDown = false;
    /** The server's clock when it ended the stream at its lifetime (`bye`), until the next clock. */
    let byeAt: number | null = null;
    const refresh = () => {
      clearTimeout(timer);
      timer = setTimeout(revalidate, COALESCE_MS);
    };
    const connect = () => {
      const stream = new EventSource(orders ? "/api/live?topics=orders" : "/api/live");
      source = stream;
      stream.addEventListener("open", () => {
        reconnectMs = RECONNECT_MIN_MS;
        setStatus("connected");
        // After a planned end (bye) the new stream's clock says whether a change came between.
        if (wasDown && byeAt === null) refresh();
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
        const { now, changedAt } = JSON.parse(event.data) as { now: number; changedAt?: number | null };
        setServerTime(now);
        const sinceBye = byeAt !== null && changedAt != null && changedAt >= byeAt;
        byeAt = null;
        if (sinceBye || missedChange(changedAt ?? null)) refresh();
      });
      // The server ends each stream after a while (server/live.ts), with a `retry:` hint: the
      // browser reconnects by itself, and nothing was missed unless a change came meanwhile.
      stream.addEventListener("bye", (event) => {
        byeAt = (JSON.parse(event.data) as { now: number }).now;
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
  }, [orders]);
}

/**
 * Whether a change came after the page's data was read: the server heard of it at `changedAt`
 * (its clock), the page was read from `renderedAt` on. The same millisecond counts as after.
 */
export function missedAChange(renderedAt: number | undefined, changedAt: number | null): boolean {
  return changedAt !== null && renderedAt !== undefined && changedAt >= renderedAt;
}
