import { useEffect, useEffectEvent, useSyncExternalStore } from "react";
import type { CatalogChange } from "~/domain/catalog-change";

/**
 * What the one live connection of the page (use-live-updates.ts, mounted in root.tsx) hears,
 * for screens that show more than fresh data: the admin list's Realtime indicator and its
 * "Nouveau produit" / "Produit mis à jour" / "Produit supprimé" toasts.
 */
export type LiveStatus = "connecting" | "connected" | "disconnected";

let status: LiveStatus = "connecting";
const statusListeners = new Set<() => void>();
const changeListeners = new Set<(change: CatalogChange) => void>();

export function setLiveStatus(next: LiveStatus): void {
  status = next;
  for (const listener of statusListeners) listener();
}

export function publishCatalogChange(change: CatalogChange): void {
  for (const listener of changeListeners) listener(change);
}

/** The live connection's state; "connecting" on the server and before the first answer. */
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

/** Calls `onChange` for each change announced while the component is mounted. */
export function useCatalogChanges(onChange: (change: CatalogChange) => void): void {
  const handle = useEffectEvent(onChange);
  useEffect(() => {
    const listener = (change: CatalogChange) => handle(change);
    changeListeners.add(listener);
    return () => {
      changeListeners.delete(listener);
    };
  }, []);
}
