import { type FocusEvent, type KeyboardEvent, type PointerEvent, useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";

/**
 * How a widget that loaded on demand should start: opened if the visitor already pressed its
 * trigger (`byKeyboard`: with Enter, Space or ArrowDown, so a menu starts on its first item).
 */
export type Arrival = { defaultOpen: boolean; focusTrigger: boolean; byKeyboard: boolean };

/** Events that end a press begun on a stand-in (see `startPress` in useOnDemand). */
const PRESS_ENDS = ["pointerup", "pointercancel", "keyup"] as const;

/** What a press on the stand-in trigger means, as the real trigger would read it. */
export type PressOn = "pointerdown" | "click";

/**
 * A widget whose code loads on the visitor's first sign of intent (pointer over, focus, touch,
 * press) instead of with the page. The page renders a stand-in trigger that looks and reads the
 * same (spread `trigger` on it); once the code has arrived the widget replaces it. A press made
 * before that is not lost: the widget arrives open (`arrival.defaultOpen`), and focus moves to
 * the real trigger if the stand-in had it. The header's Radix menus load this way, which keeps
 * them out of every page's first download (docs/performance.md).
 *
 * `pressOn` mirrors the real trigger: Radix menus open on pointer down (and Enter, Space,
 * ArrowDown), dialogs on click.
 */
export function useOnDemand<T>(load: () => Promise<T>, pressOn: PressOn) {
  const [loaded, setLoaded] = useState<{ module: T; focusTrigger: boolean } | null>(null);
  const [pressed, setPressed] = useState<false | "pointer" | "keyboard">(false);
  const focused = useRef(false);
  const requested = useRef(false);
  // A press under way on the stand-in (pointer down, Space down): the swap waits for its end.
  const pressing = useRef(false);
  const held = useRef<(() => void) | null>(null);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const request = useCallback(() => {
    if (requested.current) return;
    requested.current = true;
    load().then(
      (module) => {
        const arrive = () => {
          if (mounted.current) setLoaded({ module, focusTrigger: focused.current });
        };
        if (pressing.current) held.current = arrive;
        else arrive();
      },
      () => {
        // Offline or a new deployment: let the next intent try again.
        requested.current = false;
      },
    );
  }, [load]);

  const press = useCallback(
    (by: "pointer" | "keyboard" = "pointer") => {
      setPressed(by);
      request();
    },
    [request],
  );

  /**
   * For a trigger that acts on click: a browser sends a mouse's click, or Space's, to the element
   * its press began on. Swapped out under a pressed button, the stand-in would get no click and
   * the real trigger neither: the press would be lost. So the swap waits for the press's end,
   * and a task more, for the click that follows it (a finger's tap comes as its own event).
   */
  const startPress = () => {
    if (pressing.current) return;
    pressing.current = true;
    const end = () => {
      for (const type of PRESS_ENDS) window.removeEventListener(type, end, true);
      pressing.current = false;
      const arrive = held.current;
      held.current = null;
      if (arrive) setTimeout(arrive);
    };
    for (const type of PRESS_ENDS) window.addEventListener(type, end, true);
  };

  const trigger = {
    onPointerEnter: request,
    onTouchStart: request,
    onFocus: () => {
      focused.current = true;
      request();
    },
    onBlur: () => {
      focused.current = false;
    },
    ...(pressOn === "pointerdown"
      ? {
          onPointerDown: (event: PointerEvent) => {
            if (event.button === 0 && !event.ctrlKey) press("pointer");
          },
          onKeyDown: (event: KeyboardEvent) => {
            if (event.key === "Enter" || event.key === " " || event.key === "ArrowDown") {
              event.preventDefault();
              press("keyboard");
            }
          },
        }
      : {
          onClick: () => press("pointer"),
          onPointerDown: (event: PointerEvent) => {
            if (event.button === 0) startPress();
          },
          onKeyDown: (event: KeyboardEvent) => {
            if (event.key === " ") startPress();
          },
        }),
  };

  const arrival: Arrival = { defaultOpen: pressed !== false, focusTrigger: loaded?.focusTrigger ?? false, byKeyboard: pressed === "keyboard" };
  return { module: loaded?.module ?? null, trigger, arrival, press };
}

/**
 * A ref for the real trigger that focuses it on arrival when the stand-in had the focus: in the
 * commit that swaps them, so no key press falls on the page's body meanwhile (an open widget
 * then moves the focus into itself).
 */
export function useArrivalFocus<E extends HTMLElement>(arrival: Arrival) {
  const ref = useRef<E>(null);
  const { focusTrigger } = arrival;
  useLayoutEffect(() => {
    if (focusTrigger) ref.current?.focus();
    // Only on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return ref;
}

/**
 * For a menu's content `onFocus`: a menu that arrives opened by a key starts on its first item,
 * as Radix does for a key press on its own trigger (that press came before Radix was listening,
 * so it focuses the menu itself).
 */
export function useArrivalMenuFocus(arrival: Arrival) {
  const first = useRef(arrival.defaultOpen && arrival.byKeyboard);
  return (event: FocusEvent<HTMLElement>) => {
    if (!first.current || event.target !== event.currentTarget) return;
    first.current = false;
    event.currentTarget.querySelector<HTMLElement>('[role^="menuitem"]:not([data-disabled])')?.focus({ preventScroll: true });
  };
}
