import { useSyncExternalStore } from "react";

/**
 * A value kept in localStorage under `key`, shared by every component of the page and by every
 * tab (the `storage` event), read through React's external-store hook. `parse` turns what is
 * stored (null: nothing) into a value and discards what is corrupted. When storage is disabled
 * or full, the value lives in memory for this page.
 */
export function storedValue<T>(key: string, parse: (raw: string | null) => T, fallback: T) {
  const listeners = new Set<() => void>();
  let cached: { raw: string | null; value: T } = { raw: null, value: fallback };

  function read(): T {
    let raw: string | null;
    try {
      raw = window.localStorage.getItem(key);
    } catch {
      return cached.value;
    }
    if (raw !== cached.raw) cached = { raw, value: parse(raw) };
    return cached.value;
  }

  function write(value: T) {
    try {
      window.localStorage.setItem(key, JSON.stringify(value));
    } catch {
      cached = { raw: null, value };
    }
    listeners.forEach((listener) => listener());
  }

  function subscribe(listener: () => void) {
    listeners.add(listener);
    const onStorage = (event: StorageEvent) => event.key === key && listener();
    window.addEventListener("storage", onStorage);
    return () => {
      listeners.delete(listener);
      window.removeEventListener("storage", onStorage);
    };
  }

  return { read, write, use: () => useSyncExternalStore(subscribe, read, () => fallback) };
}
