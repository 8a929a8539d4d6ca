import { useEffect, useEffectEvent, useSyncExternalStore } from "react";
import { useRevalidator } from "react-router";

export type LiveStatus = "connecting" | "connected" | "disconnected";

let status: LiveStatus = "connecting";
const statusListeners = new Set<() => void>();
function setStatus(next: LiveStatus) {
  status = next;
  // Visible to tests and tools without reaching into React.
  document.documentElement.dataset.live = next;
  for (const listener of statusListeners) listener();
}

/** Whether the live connection is up (the admin's Realtime badge). */
export function useLiveStatus(): LiveStatus {
  return useSyncExternalStore(
    (listener) => {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
    () => status,
    () => "connecting",
  );
}

const COALESCE_MS = 150;

/**
 * Listens to catalogue changes (GET /api/live) and reloads the page's data when one arrives,
 * so stock figures and lists change without a reload. Bursts are coalesced into one reload,
 * and a reconnection reloads too (changes may have been missed while offline).
 */
export function useLiveUpdates(): void {
  const revalidator = useRevalidator();
  const revalidate = useEffectEvent(() => void revalidator.revalidate());

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
    source.addEventListener("catalog", refresh);
    return () => {
      clearTimeout(timer);
      source.close();
    };
  }, []);
}
