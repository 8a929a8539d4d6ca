import { useEffect, useEffectEvent, useRef } from "react";

/**
 * A press on a button before its code has run is not lost. On a slow phone the page shows well
 * before it is hydrated, and a buyer taps "Ajouter au panier" or the menu at once (a drop); the
 * browser would drop that tap. EARLY_PRESS_SCRIPT (inline in <head>, before any other script)
 * holds presses on buttons still marked `data-early-press=""`, each button once, and stops them
 * there: nothing handles them yet, and React, once listening, drops a press on a part it has not
 * hydrated (the home page's streamed products). When the button's component has hydrated,
 * `useEarlyPress` marks it ready (presses go to React from then on) and handles a held press.
 */
export const EARLY_PRESS_SCRIPT = `(function(){var q=window.__earlyPresses=[];document.addEventListener("click",function(e){var t=e.target,b=t&&t.closest&&t.closest('button[data-early-press=""]');if(!b||b.disabled)return;e.preventDefault();e.stopImmediatePropagation();if(q.indexOf(b)<0)q.push(b)},true)})()`;

type EarlyPressWindow = { __earlyPresses?: Element[] };

/** Props for the button (a ref and the mark), and `onPress` runs once for a press held before hydration. */
export function useEarlyPress<T extends HTMLButtonElement>(onPress: () => void) {
  const ref = useRef<T>(null);
  const handle = useEffectEvent(onPress);
  useEffect(() => {
    const button = ref.current;
    if (!button) return;
    button.dataset.earlyPress = "ready";
    const held = (window as EarlyPressWindow).__earlyPresses;
    const index = held ? held.indexOf(button) : -1;
    if (held && index >= 0) {
      held.splice(index, 1);
      if (!button.disabled) handle();
    }
  }, []);
  return { ref, "data-early-press": "" } as const;
}
