import { useEffect, useRef } from "react";

/**
 * An uncontrolled field (a search box, a sort menu) shows `value` again when the page's state
 * changes it (back, forward, a link), without being remounted: a remount with a new `key`
 * would take the focus away from someone who just pressed Enter in it or picked a sort.
 * Not when the page hydrates: the server rendered `value` already, and what the visitor typed
 * before the page's code ran stays.
 */
export function useShownValue(id: string, value: string): void {
  const shown = useRef(value);
  useEffect(() => {
    if (shown.current === value) return;
    shown.current = value;
    const field = document.getElementById(id);
    if ((field instanceof HTMLInputElement || field instanceof HTMLSelectElement) && field.value !== value) field.value = value;
  }, [id, value]);
}
