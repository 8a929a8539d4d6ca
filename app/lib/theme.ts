import { useCallback, useEffect, useSyncExternalStore } from "react";
import { THEME_STORAGE_KEY } from "~/domain/browser-storage";

/** Theme: light, dark or system, kept in localStorage under "theme"; dark by default. */
export type ThemeChoice = "light" | "dark" | "system";
export { THEME_STORAGE_KEY };

/**
 * Runs in <head> before the first paint, so the page never flashes the wrong theme.
 * Kept tiny and dependency-free; it mirrors resolveTheme below.
 */
export const THEME_SCRIPT = `(function(){try{var t=localStorage.getItem("${THEME_STORAGE_KEY}");var d=t==="light"?false:t==="system"?matchMedia("(prefers-color-scheme: dark)").matches:true;var e=document.documentElement;e.classList.toggle("dark",d);e.style.colorScheme=d?"dark":"light"}catch(_){}})()`;

export function parseThemeChoice(value: string | null | undefined): ThemeChoice {
  return value === "light" || value === "system" || value === "dark" ? value : "dark";
}

export function resolveTheme(choice: ThemeChoice, systemPrefersDark: boolean): "light" | "dark" {
  if (choice === "system") return systemPrefersDark ? "dark" : "light";
  return choice;
}

const listeners = new Set<() => void>();
const darkQuery = () => window.matchMedia("(prefers-color-scheme: dark)");

function subscribe(listener: () => void) {
  listeners.add(listener);
  const query = darkQuery();
  query.addEventListener("change", listener);
  window.addEventListener("storage", listener);
  return () => {
    listeners.delete(listener);
    query.removeEventListener("change", listener);
    window.removeEventListener("storage", listener);
  };
}

function readChoice(): ThemeChoice {
  try {
    return parseThemeChoice(window.localStorage.getItem(THEME_STORAGE_KEY));
  } catch {
    return "dark";
  }
}

function applyTheme(choice: ThemeChoice) {
  const resolved = resolveTheme(choice, darkQuery().matches);
  const root = document.documentElement;
  root.classList.toggle("dark", resolved === "dark");
  root.style.colorScheme = resolved;
}

export function useTheme() {
  const choice = useSyncExternalStore(subscribe, readChoice, () => "dark" as ThemeChoice);
  const systemDark = useSyncExternalStore(
    subscribe,
    () => darkQuery().matches,
    () => true,
  );
  const setTheme = useCallback((next: ThemeChoice) => {
    try {
      window.localStorage.setItem(THEME_STORAGE_KEY, next);
    } catch {
      // Private mode: the choice lasts for this page only.
    }
    applyTheme(next);
    listeners.forEach((l) => l());
  }, []);
  // Follows the OS while on "system". Reads storage, not `choice`: during hydration `choice`
  // is the server's "dark", and applying it would flash the wrong theme.
  useEffect(() => applyTheme(readChoice()), [choice, systemDark]);
  return { choice, resolved: resolveTheme(choice, systemDark), setTheme };
}
