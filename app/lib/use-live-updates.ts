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
    const source = new EventSource("/api/live");
    let timer: ReturnType<typeof setTimeout> | undefined;
    let wasDown = false;
    const refresh = () => {
      clearTimeout(timer);
      timer = setTimeout(revalidate, COALESCE_MS);
    };
    source.addEventListener("open", () => {
      setStatus("connected");
      if (wasDown) refresh();
      wasDown = false;
    });
    source.addEventListener("error", () => {
      setStatus("disconnected");
      wasDown = true;
    });
    source.addEventListener("clock", (event) => {
      const { now } = JSON.parse(event.data) as { now: number };
      setServerTime(now);
    });
    source.addEventListener("catalog", (event) => {
      const change = parseCatalogChange(event.data);
      if (change) publishCatalogChange(change);
      refresh();
    });
    return () => {
      clearTimeout(timer);
      source.close();
    };
  }, []);
}
