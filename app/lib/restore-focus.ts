import { useEffect, useRef } from "react";

/**
 * Puts focus back after a dialog closed or a submit changed the page: on `previous` when it is
 * still there and can take it, else on the page's heading (made focusable for this), so focus
 * never drops to the body and a keyboard user does not start again from the top. When
 * `previous` goes a moment later (the row a confirmed deletion removes, the button an order's
 * new status replaces), focus follows to the heading then.
 */
/**
 * Focus fell to the page's body: the element that had it was removed or disabled. A disabled
 * element keeps `document.activeElement` until the browser's next rendering step moves it to
 * the body (the focus fixup rule): it counts as lost already.
 */
export function focusIsLost(): boolean {
  const active = document.activeElement;
  return active === null || active === document.body || active.matches(":disabled");
}

export function restoreFocus(previous: Element | null): void {
  if (previous instanceof HTMLElement && previous.isConnected && !previous.matches(":disabled")) {
    previous.focus();
    if (document.activeElement === previous) {
      followRemoval(previous);
      return;
    }
  }
  focusHeading();
}

export function focusHeading(options?: FocusOptions): void {
  const heading = document.querySelector<HTMLElement>("#contenu h1") ?? document.querySelector<HTMLElement>("h1");
  if (!heading) return;
  if (!heading.hasAttribute("tabindex")) heading.setAttribute("tabindex", "-1");
  heading.focus(options);
}

/** Watches `element` for a few seconds: removed while it has the focus, the heading takes it. */
function followRemoval(element: HTMLElement): void {
  const check = () => {
    if (element.isConnected) return;
    stop();
    if (focusIsLost()) focusHeading();
  };
  const observer = new MutationObserver(check);
  // A blur is the user moving on, or (in browsers that fire one) the element's removal.
  const moved = () =>
    window.setTimeout(() => {
      if (element.isConnected) stop();
      else check();
    });
  const timer = window.setTimeout(() => stop(), 10_000);
  function stop() {
    observer.disconnect();
    element.removeEventListener("blur", moved);
    window.clearTimeout(timer);
  }
  observer.observe(document.body, { childList: true, subtree: true });
  element.addEventListener("blur", moved);
}

/**
 * Marks a part of a form whose controls replace one another (see `recoverFocus`): a control
 * removed from it hands the focus to the part's first control ("first"), or to its last one
 * ("last": where the part's next step is). In a part inside a part, the inner one's controls
 * come first while it is there.
 */
export const focusGroup = (take: "first" | "last" = "first") => ({ "data-focus-group": take }) as const;

const FOCUSABLE = "button, [href], input, select, textarea, [tabindex]";

/** Long enough for the effects of the render that moved the focus to have run (a render outside an event runs them after the paint). */
const AFTER_EFFECTS_MS = 50;

/**
 * Puts the focus back when a change of the page, not the visitor, took it away (browsers then
 * leave it on the page's body, and the next Tab starts over): a button disabled while its form
 * is sent gets it back once enabled again; a control moved in the page (a reordered image)
 * keeps it; a control removed from a `focusGroup` part (a cleared date's button, a removed
 * image's) hands it to one of the part's controls, as soon as there is one. Components that place
 * the focus themselves (an alert, a dialog's opener, the heading after a pager link) do it
 * first: this only acts when the focus is still lost after their effects. Returns a cleanup.
 */
export function recoverFocus(): () => void {
  let visitorActed = false;
  let stopWatching = () => {};
  const onPointerDown = () => {
    visitorActed = true;
    stopWatching();
    window.setTimeout(() => (visitorActed = false));
  };
  const onFocusIn = () => stopWatching();
  const onFocusOut = (event: FocusEvent) => {
    const element = event.target;
    // Focus going to another element, out of the window, or where the visitor clicked.
    if (event.relatedTarget || !(element instanceof HTMLElement) || visitorActed || !document.hasFocus()) return;
    // Innermost first: a part inside a part (the drop zone inside the images' fieldset).
    const groups: HTMLElement[] = [];
    for (let group = element.closest<HTMLElement>("[data-focus-group]"); group; group = group.parentElement?.closest<HTMLElement>("[data-focus-group]") ?? null) {
      groups.push(group);
    }
    stopWatching();
    const timer = window.setTimeout(() => {
      if (!focusIsLost()) return;
      if (!element.isConnected) {
        const outermost = groups.findLast((group) => group.isConnected);
        if (outermost) watch(outermost, () => focusControlIn(groups.find((group) => group.isConnected)));
      } else if (element.matches(":disabled")) {
        watch(element, () => {
          if (element.matches(":disabled")) return false;
          // After the effects of the render that enabled it: an alert there may take the focus.
          window.setTimeout(() => focusIfLost(element), AFTER_EFFECTS_MS);
          return true;
        });
      } else {
        element.focus({ preventScroll: true });
      }
    }, AFTER_EFFECTS_MS);
    stopWatching = () => window.clearTimeout(timer);
  };
  /** Calls `settle` on every change under `root` until it returns true, for 30 s at most. */
  function watch(root: HTMLElement, settle: () => boolean) {
    const observer = new MutationObserver(() => {
      if (settle()) stopWatching();
    });
    const timer = window.setTimeout(() => stopWatching(), 30_000);
    stopWatching = () => {
      observer.disconnect();
      window.clearTimeout(timer);
    };
    if (settle()) stopWatching();
    else observer.observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ["disabled"] });
  }
  document.addEventListener("pointerdown", onPointerDown, true);
  document.addEventListener("focusin", onFocusIn, true);
  document.addEventListener("focusout", onFocusOut, true);
  return () => {
    stopWatching();
    document.removeEventListener("pointerdown", onPointerDown, true);
    document.removeEventListener("focusin", onFocusIn, true);
    document.removeEventListener("focusout", onFocusOut, true);
  };
}

function focusIfLost(element: HTMLElement) {
  if (focusIsLost() && element.isConnected) element.focus({ preventScroll: true });
}

/** Focuses the group's first (or last) control that takes Tab's focus; false when none can yet (an upload under way). */
function focusControlIn(group: HTMLElement | undefined): boolean {
  if (!group || !focusIsLost()) return true;
  const candidates = [...group.querySelectorAll<HTMLElement>(FOCUSABLE)];
  if (group.dataset.focusGroup === "last") candidates.reverse();
  for (const candidate of candidates) {
    if (candidate.tabIndex < 0 || candidate.matches(":disabled") || (candidate as HTMLInputElement).type === "hidden") continue;
    candidate.focus({ preventScroll: true });
    if (document.activeElement === candidate) return true;
  }
  return false;
}

/**
 * After a move to another page inside the app (a link, a form's redirect), the new page's
 * heading takes the focus if the old page's control that had it went with the old page: as
 * after a page load, the next Tab starts at the top of the new page, and a screen reader reads
 * where the visitor now is. A control that stayed (the header's links) keeps it.
 */
export function useFocusOnNewPage(pathname: string): void {
  const shown = useRef(pathname);
  useEffect(() => {
    if (shown.current === pathname) return;
    shown.current = pathname;
    if (focusIsLost()) focusHeading({ preventScroll: true });
  }, [pathname]);
}
