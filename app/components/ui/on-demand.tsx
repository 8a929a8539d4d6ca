import { type KeyboardEvent, type PointerEvent, useCallback, useEffect, useRef, useState } from "react";

/** How a widget that loaded on demand should start: opened if the visitor already pressed its trigger. */
export type Arrival = { defaultOpen: boolean; focusTrigger: boolean };

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
  const [pressed, setPressed] = useState(false);
  const focused = useRef(false);
  const requested = useRef(false);
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
        if (mounted.current) setLoaded({ module, focusTrigger: focused.current });
      },
      () => {
        // Offline or a new deployment: let the next intent try again.
        requested.current = false;
      },
    );
  }, [load]);

  const press = useCallback(() => {
    setPressed(true);
    request();
  }, [request]);

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
            if (event.button === 0 && !event.ctrlKey) press();
          },
          onKeyDown: (event: KeyboardEvent) => {
            if (event.key === "Enter" || event.key === " " || event.key === "ArrowDown") {
              event.preventDefault();
              press();
            }
          },
        }
      : { onClick: press }),
  };

  const arrival: Arrival = { defaultOpen: pressed, focusTrigger: loaded?.focusTrigger ?? false };
  return { module: loaded?.module ?? null, trigger, arrival, press };
}

/** A ref for the real trigger that focuses it on arrival when the stand-in had the focus. */
export function useArrivalFocus<E extends HTMLElement>(arrival: Arrival) {
  const ref = useRef<E>(null);
  const { focusTrigger, defaultOpen } = arrival;
  useEffect(() => {
    // An open widget places the focus itself (and gives it back to the trigger when it closes).
    if (focusTrigger && !defaultOpen) ref.current?.focus();
    // Only on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return ref;
}
